import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MetadataScanner, Reflector } from '@nestjs/core';
import { AgentCardMetadataAccessor } from './agent-card-metadata.accessor';
import { AGENT_SKILLS_METADATA, SKILL_METADATA } from './agent-card.constants';
import { AgentSkills, Skill } from './skill.decorator';
import { skillFromDecorator } from './skill-source';
import { toSkillId, toSkillName } from './skill-naming';

const bearer = [{ schemes: { bearer: { list: [] } } }];

@AgentSkills({
  tags: ['orders', 'shop'],
  inputModes: ['application/json'],
  outputModes: ['application/json'],
  securityRequirements: bearer,
})
class OrdersController {
  @Skill({ description: 'Places an order.', tags: ['create', 'orders'], examples: ['Order two mugs'] })
  createOrder() {}

  @Skill('track', { description: 'Tracks an order.', outputModes: ['text/plain'], extended: true })
  trackOrder() {}

  @Skill('cancel-order')
  cancel() {}

  @Skill()
  getHTTPStatus() {}

  undecorated() {}
}

describe('@Skill() and @AgentSkills() metadata', () => {
  it.each([
    ['createOrder', { description: 'Places an order.', tags: ['create', 'orders'], examples: ['Order two mugs'] }],
    ['trackOrder', { id: 'track', description: 'Tracks an order.', outputModes: ['text/plain'], extended: true }],
    ['cancel', { id: 'cancel-order' }],
    ['getHTTPStatus', {}],
  ] as const)('stores one plain object on %s', (method, expected) => {
    const fn = OrdersController.prototype[method];
    expect(Reflect.getMetadata(SKILL_METADATA, fn)).toStrictEqual(expected);
    expect(Reflect.getMetadataKeys(fn)).toEqual([SKILL_METADATA]);
  });

  it('stores nothing on undecorated methods', () => {
    expect(Reflect.getMetadata(SKILL_METADATA, OrdersController.prototype.undecorated)).toBeUndefined();
  });

  it('stores the controller defaults on the class under the namespaced key', () => {
    expect(AGENT_SKILLS_METADATA).toBe('agent-card:agent-skills');
    expect(SKILL_METADATA).toBe('agent-card:skill');
    expect(Reflect.getMetadata(AGENT_SKILLS_METADATA, OrdersController)).toStrictEqual({
      tags: ['orders', 'shop'],
      inputModes: ['application/json'],
      outputModes: ['application/json'],
      securityRequirements: bearer,
    });
  });

  it('copies the options, so changing the object later does not change the card', () => {
    const options = { description: 'Refunds an order.', tags: ['refunds'] };
    class C {
      @Skill(options)
      refund() {}
    }
    options.tags.push('late');
    options.description = 'changed';
    expect(Reflect.getMetadata(SKILL_METADATA, C.prototype.refund).description).toBe('Refunds an order.');
  });
});

describe('the decorated methods the accessor finds', () => {
  const accessor = new AgentCardMetadataAccessor(new Reflector(), new MetadataScanner());
  const names = (prototype: object) => accessor.getSkillMethods(prototype).map((m) => m.name);
  /** Every method name the scanner lists, then its metadata. */
  const scanned = (prototype: object) =>
    new MetadataScanner()
      .getAllMethodNames(prototype)
      .filter(
        (name) =>
          Reflect.getMetadata(SKILL_METADATA, (prototype as Record<string, unknown>)[name] as object) !== undefined,
      );

  class Base {
    @Skill({ description: 'a' })
    alpha() {}
    @Skill({ description: 'b' })
    beta() {}
    plain() {}
    @Skill({ description: 'g' })
    gamma() {}
  }
  class Child extends Base {
    @Skill({ description: 'd' })
    delta() {}
    // Overridden without the decorator: no longer a skill of Child.
    override beta() {}
  }
  class Redecorated extends Base {
    @Skill('gamma-again', { description: 'g2' })
    override gamma() {}
  }
  class GrandChild extends Child {}
  class Twice {
    @Skill('outer')
    @Skill('inner')
    both() {}
  }
  class Accessor {
    @Skill({ description: 'x' })
    run() {}
    get value() {
      return 1;
    }
  }
  class NoSkills {
    list() {}
  }

  it('finds the decorated names, each once, with the options stored on each method', () => {
    expect(names(OrdersController.prototype)).toEqual(['createOrder', 'trackOrder', 'cancel', 'getHTTPStatus']);
    expect(names(Child.prototype)[0]).toEqual('delta');
    expect(names(Twice.prototype)).toEqual(['both']);
    expect(accessor.getSkillMethods(OrdersController.prototype)[1]).toStrictEqual({
      name: 'trackOrder',
      method: OrdersController.prototype.trackOrder,
      options: Reflect.getMetadata(SKILL_METADATA, OrdersController.prototype.trackOrder),
    });
    expect(Reflect.getMetadata(SKILL_METADATA, Twice.prototype.both)).toStrictEqual({ id: 'outer' });
    expect(names(NoSkills.prototype)).toEqual([]);
  });

  it('does not list static methods, which the explorer never looked at', () => {
    class WithStatic {
      @Skill({ description: 's' })
      static make() {}
    }
    expect(names(WithStatic.prototype)).toEqual([]);
  });

  it.each([
    ['OrdersController', OrdersController, ['createOrder', 'trackOrder', 'cancel', 'getHTTPStatus']],
    ['Base', Base, ['alpha', 'beta', 'gamma']],
    ['Child (own first, override hides the inherited skill)', Child, ['delta', 'alpha', 'gamma']],
    ['Redecorated (the override is the skill)', Redecorated, ['gamma', 'alpha', 'beta']],
    ['GrandChild (everything inherited)', GrandChild, ['delta', 'alpha', 'gamma']],
    ['Twice', Twice, ['both']],
    ['Accessor', Accessor, ['run']],
    ['NoSkills', NoSkills, []],
  ] as const)('finds the methods the method scanner finds, in its order: %s', (_name, controller, expected) => {
    expect(names(controller.prototype)).toEqual(expected);
    expect(names(controller.prototype)).toEqual(scanned(controller.prototype));
  });

  it('takes the options of the override when a subclass decorates it again', () => {
    expect(accessor.getSkillMethods(Redecorated.prototype)[0]).toStrictEqual({
      name: 'gamma',
      method: Redecorated.prototype.gamma,
      options: { id: 'gamma-again', description: 'g2' },
    });
    expect(accessor.getSkillMethods(Twice.prototype)).toStrictEqual([
      { name: 'both', method: Twice.prototype.both, options: { id: 'outer' } },
    ]);
  });

  it('reads the metadata of a method replaced after it was decorated, as a scan does', () => {
    class Wrapped {
      @Skill({ description: 'plain wrapper' })
      one() {}
      @Skill({ description: 'wrapper that copies metadata' })
      two() {}
    }
    const wrap = (fn: Function) =>
      function (this: unknown, ...args: unknown[]) {
        return fn.apply(this, args);
      };
    Wrapped.prototype.one = wrap(Wrapped.prototype.one) as () => void;
    const two = wrap(Wrapped.prototype.two);
    Reflect.defineMetadata(SKILL_METADATA, { description: 'copied' }, two);
    Wrapped.prototype.two = two as () => void;
    expect(accessor.getSkillMethods(Wrapped.prototype)).toStrictEqual([
      { name: 'two', method: two, options: { description: 'copied' } },
    ]);
    expect(names(Wrapped.prototype)).toEqual(scanned(Wrapped.prototype));
  });

  it('never calls a getter that replaced a decorated method', () => {
    class Replaced {
      @Skill({ description: 'r' })
      run() {}
    }
    let calls = 0;
    Object.defineProperty(Replaced.prototype, 'run', {
      get: () => {
        calls++;
        return () => {};
      },
    });
    expect(names(Replaced.prototype)).toEqual([]);
    expect(names(Replaced.prototype)).toEqual(scanned(Replaced.prototype));
    expect(calls).toBe(0);
  });
});

describe('skills inherit @AgentSkills() defaults', () => {
  const defaults = Reflect.getMetadata(AGENT_SKILLS_METADATA, OrdersController);
  const skill = (method: keyof OrdersController) =>
    skillFromDecorator(
      'OrdersController',
      method,
      Reflect.getMetadata(SKILL_METADATA, OrdersController.prototype[method]),
      defaults,
    );

  it('merges tags (controller first, no duplicates) and takes the controller modes and security', () => {
    const source = skill('createOrder');
    expect(source.origin).toBe('OrdersController#createOrder');
    expect(source.declaredBy).toBe('@Skill() on OrdersController#createOrder');
    expect(source).toMatchObject({ controller: 'OrdersController', extended: false });
    expect(source.skill).toStrictEqual({
      id: 'create-order',
      name: 'Create order',
      description: 'Places an order.',
      tags: ['orders', 'shop', 'create'],
      examples: ['Order two mugs'],
      inputModes: ['application/json'],
      outputModes: ['application/json'],
      securityRequirements: bearer,
    });
  });

  it.each([
    [undefined, ['a', 'b'], ['a', 'b']],
    [['a', 'b'], undefined, ['a', 'b']],
    [['a', 'a', 'b'], [], ['a', 'b']],
    [[], ['b', 'b'], ['b']],
    [
      ['a', 'b'],
      ['b', 'c', 'a'],
      ['a', 'b', 'c'],
    ],
    [undefined, undefined, []],
  ])('merges controller tags %j and method tags %j into %j', (controllerTags, methodTags, expected) => {
    const source = skillFromDecorator(
      'C',
      'm',
      { description: 'd', ...(methodTags ? { tags: methodTags } : {}) },
      controllerTags ? { tags: controllerTags } : {},
    );
    expect(source.skill.tags).toStrictEqual(expected);
  });

  it('names kebab-case and other ids alike', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[-_. A-Za-z0-9]{0,24}$/), (id) => {
        const words = id.replace(/[-_.\s]+/g, ' ').trim();
        expect(toSkillName(id)).toBe(words.charAt(0).toUpperCase() + words.slice(1));
      }),
    );
  });

  it('lets the method win for modes and extended', () => {
    const { skill: s, extended } = skill('trackOrder');
    expect(s).toMatchObject({
      id: 'track',
      name: 'Track',
      inputModes: ['application/json'],
      outputModes: ['text/plain'],
    });
    expect(extended).toBe(true);
  });

  it('derives the id from the method name and the name from the id', () => {
    expect(skill('cancel').skill).toMatchObject({ id: 'cancel-order', name: 'Cancel order', tags: ['orders', 'shop'] });
    expect(skill('getHTTPStatus').skill).toMatchObject({ id: 'get-http-status', name: 'Get http status' });
  });

  it('takes extended from the controller when the method does not say', () => {
    expect(skillFromDecorator('Admin', 'purge', { description: 'd', tags: ['t'] }, { extended: true }).extended).toBe(
      true,
    );
    expect(
      skillFromDecorator('Admin', 'purge', { description: 'd', tags: ['t'], extended: false }, { extended: true })
        .extended,
    ).toBe(false);
  });

  it('leaves out optional fields nobody set', () => {
    expect(skillFromDecorator('C', 'm', { description: 'd', tags: ['t'] }).skill).toStrictEqual({
      id: 'm',
      name: 'M',
      description: 'd',
      tags: ['t'],
    });
  });

  it('copies lists, so the card shares no array with the decorator metadata', () => {
    const options = { description: 'd', tags: ['t'], examples: ['e'], inputModes: ['text/plain'] };
    const { skill } = skillFromDecorator('C', 'm', options, { outputModes: ['application/json'] });
    expect(skill).toStrictEqual({
      id: 'm',
      name: 'M',
      description: 'd',
      tags: ['t'],
      examples: ['e'],
      inputModes: ['text/plain'],
      outputModes: ['application/json'],
    });
    expect(skill.tags).not.toBe(options.tags);
    expect(skill.examples).not.toBe(options.examples);
    expect(skill.inputModes).not.toBe(options.inputModes);
  });

  it('passes a value that is not a list on as it is, for validation to report, instead of spreading it', () => {
    // From JavaScript nothing stops a string where a list belongs.
    const { skill } = skillFromDecorator('C', 'm', { description: 'd', tags: ['t'], examples: 'Run it' as never });
    expect(skill.examples).toBe('Run it');
    const tagged = (own: unknown, defaults?: unknown) =>
      skillFromDecorator('C', 'm', { description: 'd', tags: own as never }, { tags: defaults as never }).skill.tags;
    expect([tagged('orders'), tagged(['orders'], 'billing'), tagged(['a'], ['b', 'a'])]).toEqual([
      'orders',
      'billing',
      ['b', 'a'],
    ]);
  });
});

describe('default ids and names', () => {
  it.each([
    ['createOrder', 'create-order', 'Create order'],
    ['getHTTPStatus', 'get-http-status', 'Get http status'],
    ['list_invoices', 'list-invoices', 'List invoices'],
    ['v2Search', 'v2-search', 'V2 search'],
    ['search', 'search', 'Search'],
  ])('%s → id %s, name %s', (method, id, name) => {
    expect(toSkillId(method)).toBe(id);
    expect(toSkillName(toSkillId(method))).toBe(name);
  });

  it('gives the ids of the expressions it replaces, for any name', () => {
    const byExpressions = (name: string) =>
      name
        .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
        .replace(/[\s_.]+/g, '-')
        .replace(/-+/g, '-')
        .replace(/^-|-$/g, '')
        .toLowerCase();
    fc.assert(
      fc.property(fc.stringMatching(/^[-_. A-Za-z0-9é\t\u00a0\u2028]{0,30}$/), (name) => {
        expect(toSkillId(name)).toBe(byExpressions(name));
      }),
      { numRuns: 2000 },
    );
  });

  // A method name is code, but a name built from a hostile string (a generated client, say) must
  // not cost quadratic time: 10× the length may cost about 10× the time, not 100×.
  it.each([
    ['an upper-case run', (n: number) => 'A'.repeat(n)],
    ['an upper-case run and a digit', (n: number) => `${'A'.repeat(n)}1`],
    ['runs of separators', (n: number) => `a${'_.'.repeat(n / 2)}-`],
    ['alternating case', (n: number) => 'aB'.repeat(n / 2)],
  ])('derives an id from %s in linear time', (_title, input) => {
    const time = (text: string, reps: number) => {
      const start = performance.now();
      for (let i = 0; i < reps; i++) toSkillName(toSkillId(text));
      return performance.now() - start;
    };
    // The fastest of seven interleaved timings of each size: a busy moment slows both, not one.
    const ratioOf = (small: string, large: string, reps: number) => {
      let short = Number.POSITIVE_INFINITY;
      let long = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 7; round++) {
        short = Math.min(short, time(small, reps));
        long = Math.min(long, time(large, reps));
      }
      return long / short;
    };
    const small = input(10_000);
    const large = input(100_000);
    let reps = 1;
    while (reps < 4096 && time(small, reps) < 2) reps *= 2;
    let ratio = ratioOf(small, large, reps);
    for (let retry = 0; retry < 2 && ratio >= 20; retry++) ratio = Math.min(ratio, ratioOf(small, large, reps));
    // Past 30,000 characters or so a scan costs about twice as much per character (the caches);
    // a linear one grows about 10× again from 100,000 to 1,000,000, a quadratic one 100×.
    if (ratio >= 20 && time(large, 1) < 200) ratio = Math.min(ratio, ratioOf(large, input(1_000_000), reps));
    expect(ratio).toBeLessThan(20);
  });

  it('turns every identifier into a kebab-case id with a capitalised name', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,30}$/), (method) => {
        const id = toSkillId(method);
        expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        const name = toSkillName(id);
        expect(name.charAt(0)).toBe(name.charAt(0).toUpperCase());
        expect(name.toLowerCase().replace(/ /g, '-')).toBe(id);
      }),
    );
  });
});
