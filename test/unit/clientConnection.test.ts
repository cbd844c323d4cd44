import { describe, expect, it } from 'vitest';
import { nestingDepth } from '../../src/main/engine/clientConnection';

describe('nestingDepth', () => {
  it('measures JSON depth without recursion, even for hostile nesting', () => {
    expect(nestingDepth(1)).toBe(0);
    expect(nestingDepth({ a: [1, { b: 2 }] })).toBe(3);
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { children: [deep] };
    expect(nestingDepth(deep)).toBeGreaterThan(40);
  });
});
