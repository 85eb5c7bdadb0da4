import { Inject, Injectable, type Type } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { AgentCardMetadataAccessor } from './agent-card-metadata.accessor';
import { skillFromDecorator, type SkillSource } from './skill-source';

/**
 * Finds every `@Skill()` on the application's controllers.
 *
 * Order (stable from one start to the next): controllers in module registration order (the order
 * Nest scans the import graph, then each module's `controllers` array), and within a controller
 * its methods in declaration order, own methods before inherited ones.
 *
 * Metadata is read from the controller class (`wrapper.metatype`), never from an instance, so
 * request-scoped and transient controllers count too and nothing is instantiated.
 */
@Injectable()
export class SkillExplorer {
  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(MetadataScanner) private readonly scanner: MetadataScanner,
    @Inject(AgentCardMetadataAccessor) private readonly accessor: AgentCardMetadataAccessor,
  ) {}

  /** Every decorated method, with `@AgentSkills()` defaults applied. */
  explore(): SkillSource[] {
    const found: SkillSource[] = [];
    const visited = new Set<Function>();
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype as Type<unknown> | null | undefined;
      // A controller listed in two modules is still one set of skills.
      if (typeof controller !== 'function' || visited.has(controller)) continue;
      visited.add(controller);
      const prototype = controller.prototype as Record<string, unknown> | undefined;
      if (!prototype) continue;
      const defaults = this.accessor.getDefaults(controller);
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const method = prototype[name];
        if (typeof method !== 'function') continue;
        const options = this.accessor.getSkill(method);
        if (options) found.push(skillFromDecorator(controller.name, name, options, defaults));
      }
    }
    return found;
  }
}
