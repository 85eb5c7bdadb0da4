import { Inject, Injectable } from '@nestjs/common';
import { MetadataScanner, Reflector } from '@nestjs/core';
import { AGENT_SKILLS_METADATA, SKILL_METADATA } from './agent-card.constants';
import type { AgentSkillsOptions, SkillOptions } from './skill.decorator';

/** A `@Skill()` method of a controller and its options. */
export interface SkillMethodOptions {
  name: string;
  /** The method itself, whose other metadata (OpenAPI) the explorer reads. */
  method: Function;
  options: SkillOptions;
}

/** Reads what {@link Skill}, {@link AgentSkills} and `@nestjs/swagger` stored, through `Reflector`. */
@Injectable()
export class AgentCardMetadataAccessor {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(MetadataScanner) private readonly scanner: MetadataScanner,
  ) {}

  /** The `@AgentSkills()` defaults of a controller class, if it has any. */
  getAgentSkills(controller: Function): AgentSkillsOptions | undefined {
    return this.reflector.get<AgentSkillsOptions | undefined>(AGENT_SKILLS_METADATA, controller);
  }

  /** The `@Skill()` methods of a prototype, in the order of `MetadataScanner.getAllMethodNames`. */
  getSkillMethods(prototype: object): SkillMethodOptions[] {
    const found: SkillMethodOptions[] = [];
    for (const name of this.scanner.getAllMethodNames(prototype)) {
      const method = (prototype as Record<string, Function>)[name]!;
      const options = this.reflector.get<SkillOptions | undefined>(SKILL_METADATA, method);
      if (options) found.push({ name, method, options });
    }
    return found;
  }

  /** Reads one metadata key of a class or method; `openapi-route.ts` reads the swagger keys with it. */
  readonly read = (key: string, target: Function): unknown => this.reflector.get(key, target);
}
