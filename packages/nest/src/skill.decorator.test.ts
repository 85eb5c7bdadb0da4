import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AGENT_SKILLS_METADATA, SKILL_METADATA } from './agent-card.constants';
import { AgentSkills, Skill } from './skill.decorator';
import { skillFromDecorator } from './skill-source';
import { toSkillId, toSkillName } from './skill-naming';

const bearer = [{ schemes: { bearer: { list: [] } } }];

@AgentSkills({ tags: ['orders', 'shop'], inputModes: ['application/json'], outputModes: ['application/json'], securityRequirements: bearer })
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

describe('skills inherit @AgentSkills() defaults', () => {
  const defaults = Reflect.getMetadata(AGENT_SKILLS_METADATA, OrdersController);
  const skill = (method: keyof OrdersController) =>
    skillFromDecorator('OrdersController', method, Reflect.getMetadata(SKILL_METADATA, OrdersController.prototype[method]), defaults);

  it('merges tags (controller first, no duplicates) and takes the controller modes and security', () => {
    expect(skill('createOrder')).toStrictEqual({
      origin: 'OrdersController#createOrder',
      declaredBy: '@Skill() on OrdersController#createOrder',
      controller: 'OrdersController',
      extended: false,
      skill: {
        id: 'create-order',
        name: 'Create order',
        description: 'Places an order.',
        tags: ['orders', 'shop', 'create'],
        examples: ['Order two mugs'],
        inputModes: ['application/json'],
        outputModes: ['application/json'],
        securityRequirements: bearer,
      },
    });
  });

  it('lets the method win for modes and extended', () => {
    const { skill: s, extended } = skill('trackOrder');
    expect(s).toMatchObject({ id: 'track', name: 'Track', inputModes: ['application/json'], outputModes: ['text/plain'] });
    expect(extended).toBe(true);
  });

  it('derives the id from the method name and the name from the id', () => {
    expect(skill('cancel').skill).toMatchObject({ id: 'cancel-order', name: 'Cancel order', tags: ['orders', 'shop'] });
    expect(skill('getHTTPStatus').skill).toMatchObject({ id: 'get-http-status', name: 'Get http status' });
  });

  it('takes extended from the controller when the method does not say', () => {
    expect(skillFromDecorator('Admin', 'purge', { description: 'd', tags: ['t'] }, { extended: true }).extended).toBe(true);
    expect(skillFromDecorator('Admin', 'purge', { description: 'd', tags: ['t'], extended: false }, { extended: true }).extended).toBe(false);
  });

  it('leaves out optional fields nobody set', () => {
    expect(skillFromDecorator('C', 'm', { description: 'd', tags: ['t'] }).skill).toStrictEqual({
      id: 'm',
      name: 'M',
      description: 'd',
      tags: ['t'],
    });
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
