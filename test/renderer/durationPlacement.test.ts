import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationPlacement } from '../../src/renderer/src/blocks/durationPlacement';

const pad = (text: string, cols: number) => text.padEnd(cols, ' ');

describe("the duration label's place on the command row", () => {
  it('the right edge when it is free', () => {
    expect(durationPlacement(pad('me$ sleep 2', 80), 80)).toEqual({ align: 'right' });
  });

  it("in the gap after the command when zsh's right prompt holds the edge", () => {
    const row = `${pad('me% sleep 2', 72)}~/project`;
    expect(durationPlacement(row, 81)).toEqual({ align: 'left', column: 'me% sleep 2'.length + 2 });
  });

  it('nowhere when the row has no blank stretch wide enough', () => {
    expect(durationPlacement(`${'x'.repeat(70)}    ~/p`, 77)).toBeUndefined();
    expect(durationPlacement('y'.repeat(80), 80)).toBeUndefined();
  });

  it('property: the label never covers a character of the row', () => {
    const rowArb = fc.array(fc.constantFrom('a', ' ', ' ', ' ', 'b'), { maxLength: 120 }).map((cells) => cells.join(''));
    fc.assert(
      fc.property(rowArb, fc.integer({ min: 20, max: 120 }), fc.integer({ min: 1, max: 12 }), (text, cols, labelCells) => {
        const row = text.slice(0, cols).padEnd(cols, ' ');
        const placement = durationPlacement(row, cols, labelCells);
        if (!placement) return;
        const start = placement.align === 'right' ? cols - labelCells : placement.column;
        expect(start).toBeGreaterThanOrEqual(0);
        expect(row.slice(start, start + labelCells).trim()).toBe('');
        expect(start + labelCells).toBeLessThanOrEqual(cols);
      }),
    );
  });
});
