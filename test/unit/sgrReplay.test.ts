import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SgrReplay } from '../../src/main/blocks/mirror/sgrReplay';
import { paneLikeTerminal, written } from '../support/floodPipeline';

const PARAMETERS = ['0', '', '1', '2', '22', '3', '23', '4', '4:3', '4:0', '21', '24', '5', '25', '7', '27', '8', '28', '9', '29', '53', '55', '31', '39', '97', '38;5;200', '38;2;10;20;30', '38:2::1:2:3', '41', '49', '103', '48;5;17', '48;2;1;2;3', '58;5;9', '58:2::4:5:6', '59', '6', '51'];
const sequence = fc.array(fc.constantFrom(...PARAMETERS), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(';'));
const bytes = (text: string) => [...text].map((char) => char.charCodeAt(0));
const sgr = (parameters: string) => `\x1b[${parameters}m`;

/** The attributes of the cell an `X` printed now lands in, as xterm holds them. */
async function attributesAfter(stream: string): Promise<string> {
  const { terminal, serialize } = paneLikeTerminal(20, 2, 0);
  await written(terminal, `${stream}X`);
  const cell = terminal.buffer.active.getLine(0)!.getCell(0)!;
  const flags = [cell.isBold(), cell.isDim(), cell.isItalic(), cell.isUnderline(), cell.isBlink(), cell.isInverse(), cell.isInvisible(), cell.isStrikethrough(), cell.isOverline()];
  const state = `${serialize()} | ${cell.getFgColorMode()}:${cell.getFgColor()} ${cell.getBgColorMode()}:${cell.getBgColor()} ${flags.join(',')}`;
  terminal.dispose();
  return state;
}

describe('SgrReplay', () => {
  it('sets the attributes a run of SGR sequences left, written over any part of that run already applied', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(sequence, { maxLength: 4 }), fc.array(sequence, { minLength: 1, maxLength: 12 }), fc.nat(), async (before, run, seen) => {
        const replay = new SgrReplay();
        for (const parameters of run) replay.add(bytes(parameters));
        const written = replay.sequence();
        if (!written) return;
        const alreadyApplied = run.slice(0, seen % (run.length + 1));
        const expected = await attributesAfter([...before, ...run].map(sgr).join(''));
        const afterCut = await attributesAfter([...before, ...alreadyApplied].map(sgr).join('') + String.fromCharCode(...written));
        expect(afterCut).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('stays short however many colour changes come without a reset', () => {
    const replay = new SgrReplay();
    for (let i = 0; i < 10_000; i++) {
      replay.add(bytes(`3${i % 8}`));
      replay.add(bytes('1'));
      replay.add(bytes('22'));
      replay.add(bytes(`38;5;${i % 256}`));
    }
    expect(String.fromCharCode(...replay.sequence()!)).toBe('\x1b[22;38;5;15m');
  });

  it('starts with a reset once the run had one, and knows nothing after an extended colour cut short', () => {
    const replay = new SgrReplay();
    replay.add(bytes('31'));
    replay.add(bytes('0'));
    replay.add(bytes('1'));
    expect(String.fromCharCode(...replay.sequence()!)).toBe('\x1b[0m\x1b[1m');
    replay.add(bytes('38;5'));
    expect(replay.sequence()).toBeUndefined();
    replay.add(bytes(''));
    expect(String.fromCharCode(...replay.sequence()!)).toBe('\x1b[0m');
  });
});
