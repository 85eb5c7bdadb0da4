import { Inject, Injectable, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AGENT_SKILLS_METADATA, SKILL_METADATA, SKILL_METHODS_METADATA } from './agent-card.constants';
import { readOpenApiController, readOpenApiRoute, type OpenApiController, type OpenApiRoute } from './openapi-route';
import type { AgentSkillsOptions, SkillMethodRecord, SkillOptions } from './skill.decorator';

type Lookup = (this: object, name: string) => unknown;
// The Annex B lookups answer "is this property an accessor?" without allocating a property
// descriptor for every decorated method of every controller at start-up.
const { __lookupGetter__: lookupGetter, __lookupSetter__: lookupSetter } = Object.prototype as unknown as {
  __lookupGetter__: Lookup;
  __lookupSetter__: Lookup;
};

/** The own metadata of a method or class under `key` (see `readOpenApiRoute`, `extendsAClass`). */
const readOwn = (key: string, target: Function): unknown => Reflect.getOwnMetadata(key, target);

/**
 * Whether a class inherits from another class. One that does not reaches only
 * `Function.prototype` and `Object.prototype` through `Reflect.getMetadata`, where no decorator
 * writes, so reading its own metadata gives the same answer with a third of the look-ups.
 */
const extendsAClass = (controller: Function): boolean => Reflect.getPrototypeOf(controller) !== Function.prototype;

// Indexed loops: this runs for every method of every controller at start-up, and iterating a
// frozen list with for...of allocates an iterator each time.
function recordOf(records: readonly SkillMethodRecord[], name: string): SkillMethodRecord | undefined {
  for (let i = 0; i < records.length; i++) if (records[i]!.name === name) return records[i];
  return undefined;
}

/** A `@Skill()` method of a controller and its options. */
export interface SkillMethodOptions {
  name: string;
  /** The method itself, whose other metadata (OpenAPI) the explorer reads. */
  method: Function;
  options: SkillOptions;
}

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
    return (extendsAClass(controller) ? this.read : readOwn)(AGENT_SKILLS_METADATA, controller) as
      | AgentSkillsOptions
      | undefined;
  }

  /**
   * What `@nestjs/swagger` decorators on a controller class say, read by their metadata keys once
   * for all its routes; `undefined` when there are none.
   */
  getOpenApiController(controller: Type<unknown>): OpenApiController | undefined {
    return readOpenApiController(extendsAClass(controller) ? this.read : readOwn, controller);
  }

  /**
   * What `@nestjs/swagger` decorators say about a route (the class-level part as
   * {@link getOpenApiController} read it), by their metadata keys; `undefined` when there are none.
   */
  getOpenApi(controller: OpenApiController | undefined, method: Function): OpenApiRoute | undefined {
    return readOpenApiRoute(this.read, controller, method, readOwn);
  }

  /** `Reflector.get`, made once rather than as a closure per route. */
  private readonly read = (key: string, target: Function): unknown => this.reflector.get(key, target);

  /**
   * The `@Skill()` methods of a prototype and of the prototypes it inherits from, with their
   * options, in the order Nest's `MetadataScanner.getAllMethodNames` lists methods: each
   * prototype's own methods in declaration order, the prototype itself before those it inherits
   * from, a name only where it is first met (an override hides the inherited method), accessors
   * left out. A method replaced after it was decorated counts when the replacement carries
   * `@Skill()` metadata itself, as with a scan.
   *
   * Only the methods each prototype recorded are looked at, so a controller costs one metadata
   * read per prototype, not one per method.
   */
  getSkillMethods(prototype: object): SkillMethodOptions[] {
    const found: SkillMethodOptions[] = [];
    let hidden: Set<string> | undefined;
    for (
      let level: object | null = prototype;
      level !== null && level !== Object.prototype;
      level = Reflect.getPrototypeOf(level)
    ) {
      const next = Reflect.getPrototypeOf(level);
      const deeper = next !== null && next !== Object.prototype;
      const records = Reflect.getOwnMetadata(SKILL_METHODS_METADATA, level) as readonly SkillMethodRecord[] | undefined;
      if (records === undefined && !deeper) break;
      const own = records !== undefined || deeper ? Object.getOwnPropertyNames(level) : [];
      if (records !== undefined) {
        for (let i = 0; i < own.length; i++) {
          const name = own[i]!;
          const record = recordOf(records, name);
          if (record === undefined || hidden?.has(name)) continue;
          if (lookupGetter.call(level, name) !== undefined || lookupSetter.call(level, name) !== undefined) continue;
          const method = (level as Record<string, unknown>)[name];
          if (typeof method !== 'function') continue;
          const options = method === record.method ? record.options : this.getSkill(method);
          if (options) found.push({ name, method, options });
        }
      }
      if (deeper) {
        hidden ??= new Set();
        for (const name of own) hidden.add(name);
      }
    }
    return found;
  }
}
