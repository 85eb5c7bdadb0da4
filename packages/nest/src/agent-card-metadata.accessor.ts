import { Inject, Injectable, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AGENT_SKILLS_METADATA, SKILL_METADATA } from './agent-card.constants';
import type { AgentSkillsOptions, SkillOptions } from './skill.decorator';

/** Reads what {@link Skill} and {@link AgentSkills} stored; the only place that knows the keys. */
@Injectable()
export class AgentCardMetadataAccessor {
  constructor(@Inject(Reflector) private readonly reflector: Reflector) {}

  /** The `@Skill()` options of a method, if it has any. */
  getSkill(method: Function): SkillOptions | undefined {
    return this.reflector.get<SkillOptions | undefined>(SKILL_METADATA, method);
  }

  /** The `@AgentSkills()` defaults of a controller class, if it has any. */
  getDefaults(controller: Type<unknown>): AgentSkillsOptions | undefined {
    return this.reflector.get<AgentSkillsOptions | undefined>(AGENT_SKILLS_METADATA, controller);
  }
}
