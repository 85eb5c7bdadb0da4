import { Inject, Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { AgentCardMetadataAccessor } from './agent-card-metadata.accessor';
import { readOpenApiController, readOpenApiRoute } from './openapi-route';
import { skillFromDecorator, type SkillSource } from './skill-source';

/**
 * Finds every `@Skill()` on the application's controllers, in module registration order, then
 * `MetadataScanner`'s; read from the class, so request-scoped controllers count and none is created.
 */
@Injectable()
export class SkillExplorer {
  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(AgentCardMetadataAccessor) private readonly accessor: AgentCardMetadataAccessor,
  ) {}

  /** Every decorated method, with its defaults (and unless `openApi` is `false`, the route's swagger metadata). */
  explore(openApi = true): SkillSource[] {
    const found: SkillSource[] = [];
    const visited = new Set<Function>();
    for (const { metatype: controller } of this.discovery.getControllers()) {
      // A controller listed in two modules is still one set of skills.
      if (typeof controller !== 'function' || visited.has(controller) || !controller.prototype) continue;
      visited.add(controller);
      const methods = this.accessor.getSkillMethods(controller.prototype);
      if (methods.length === 0) continue;
      const defaults = this.accessor.getAgentSkills(controller);
      const onClass = openApi ? readOpenApiController(this.accessor.read, controller) : undefined;
      for (const { name, method, options } of methods) {
        const route = openApi ? readOpenApiRoute(this.accessor.read, onClass, method) : undefined;
        found.push(skillFromDecorator(controller.name, name, options, defaults, route));
      }
    }
    return found;
  }
}
