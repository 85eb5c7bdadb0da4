import { describe, expect, it } from 'vitest';
import { createRuleContext } from '../context';
import { cardStrings, MAX_CARD_NODES } from './card-strings';

const validation = () => createRuleContext('development', 'unknown');

describe('cardStrings', () => {
  it('lists every string in document order, with its member name and path', () => {
    const card = {
      name: 'Shop',
      version: 1,
      skills: [{ id: 'a', tags: ['x', 'y'] }, null, { id: 'b', examples: [] }],
      provider: { url: 'https://shop.example' },
    };
    const strings = cardStrings(card, validation());
    expect(strings.values).toEqual(['Shop', 'a', 'x', 'y', 'b', 'https://shop.example']);
    expect(strings.keys).toEqual(['name', 'id', 0, 1, 'id', 'url']);
    expect(strings.values.map((_, i) => strings.path(i))).toEqual([
      ['name'],
      ['skills', 0, 'id'],
      ['skills', 0, 'tags', 0],
      ['skills', 0, 'tags', 1],
      ['skills', 2, 'id'],
      ['provider', 'url'],
    ]);
    expect(strings.truncated).toBe(false);
  });

  it('walks each validation once', () => {
    const ctx = validation();
    const card = { name: 'Shop' };
    expect(cardStrings(card, ctx)).toBe(cardStrings(card, ctx));
    expect(cardStrings(card, validation())).not.toBe(cardStrings(card, ctx));
  });

  it('stops at the node bound on a list of two hundred thousand objects and says so', () => {
    const skills = Array.from({ length: 200_000 }, () => ({}));
    const strings = cardStrings({ skills, name: 'after the list' }, validation());
    expect(strings.values).toEqual([]);
    expect(strings.truncated).toBe(true);
  });

  it('reads a string that is the last node within the bound', () => {
    // The list is one node and each of its objects one more: the string is node MAX_CARD_NODES.
    const skills = Array.from({ length: MAX_CARD_NODES - 2 }, () => ({}));
    const strings = cardStrings({ skills, name: 'last', version: 1 }, validation());
    expect(strings.values).toEqual(['last']);
    expect(strings.path(0)).toEqual(['name']);
    expect(strings.truncated).toBe(false);
  });

  it('keeps nesting as deep as the card without recursion', () => {
    let node: unknown = 'deep';
    for (let i = 0; i < 10_000; i++) node = [node];
    const strings = cardStrings({ x: node }, validation());
    expect(strings.values).toEqual(['deep']);
    expect(strings.path(0)).toHaveLength(10_001);
  });
});
