import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/shared/blocks';
import {
  blockHasErrors,
  blockIndexEntry,
  blockIndexNumber,
  buildStandingContext,
  formatAge,
  singleLineCommand,
  type BlockIndexEntry,
} from '../../src/main/context/standingContext';

const NOW = 1_700_000_000_000;

function block(paneId: number, n: number, over: Partial<Block> = {}): Block {
  return {
    id: `p${paneId}b${n}`,
    paneId,
    command: `cmd ${n}`,
    cwd: '/home/me/project',
    startedAt: NOW - 60_000,
    endedAt: NOW - 30_000,
    exitCode: 0,
    trusted: true,
    outputOffset: 0,
    usedAlternateScreen: false,
    ...over,
  };
}

function entry(b: Block, lineCount = 3, hasErrors = false): BlockIndexEntry {
  return { block: b, lineCount, hasErrors };
}

const base = { os: 'Linux 6.8 (x64)', shell: 'bash', cwd: '/home/me/project', paneId: 1, now: NOW };

describe('blockIndexNumber', () => {
  it('is the ordinal in the block id, stable whatever else the pane remembers', () => {
    expect(blockIndexNumber({ id: 'p1b1' })).toBe(1);
    expect(blockIndexNumber({ id: 'p12b345' })).toBe(345);
    expect(blockIndexNumber({ id: 'p1b0' })).toBeUndefined();
    expect(blockIndexNumber({ id: 'weird' })).toBeUndefined();
  });
});

describe('formatAge', () => {
  it('uses the largest sensible unit', () => {
    expect(formatAge(0)).toBe('0s ago');
    expect(formatAge(12_400)).toBe('12s ago');
    expect(formatAge(3 * 60_000 + 5_000)).toBe('3m ago');
    expect(formatAge(5 * 3_600_000)).toBe('5h ago');
    expect(formatAge(3 * 86_400_000)).toBe('3d ago');
    expect(formatAge(-5_000)).toBe('0s ago');
    expect(formatAge(Number.NaN)).toBe('0s ago');
  });
});

describe('singleLineCommand', () => {
  it('puts a multi-line command on one line and cuts it with …', () => {
    expect(singleLineCommand('for f in *; do\n  echo "$f"\ndone')).toBe('for f in *; do ⏎   echo "$f" ⏎ done');
    const long = 'x'.repeat(500);
    const cut = singleLineCommand(long);
    expect(cut).toHaveLength(200);
    expect(cut.endsWith('…')).toBe(true);
    expect(singleLineCommand('printf "\x1b[31mred"')).toBe('printf "\ufffd[31mred"');
  });

  it('redacts secrets typed on the command line', () => {
    const token = 'ghp_' + 'Ab3dEf6hIj9kLm2oPq5sTu8wXy1zAb4dEf7h';
    const shown = singleLineCommand(`GITHUB_TOKEN=${token} gh pr list`);
    expect(shown).not.toContain(token);
    expect(shown).toContain('GITHUB_TOKEN=[REDACTED:github-token] gh pr list');
  });

  it('property: always one line, at most the limit, never a split surrogate pair', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.integer({ min: 2, max: 250 }), (command, max) => {
        const line = singleLineCommand(command, max);
        expect(line).not.toMatch(/[\r\n]/);
        expect(line.length).toBeLessThanOrEqual(max);
        expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(line)).toBe(false);
      }),
    );
  });
});

describe('blockHasErrors', () => {
  it('is true for a non-zero exit or error-looking output, false otherwise', () => {
    expect(blockHasErrors({ exitCode: 2 }, '')).toBe(true);
    expect(blockHasErrors({ exitCode: 0 }, 'compiling\nsrc/a.ts:1:1 - error TS2304: Cannot find name')).toBe(true);
    expect(blockHasErrors({ exitCode: 0 }, 'all 12 tests passed, 0 failed')).toBe(false);
    expect(blockHasErrors({ exitCode: 0 }, 'npm WARN deprecated x@1.0.0')).toBe(false);
    expect(blockHasErrors({ exitCode: undefined }, undefined)).toBe(false);
  });

  it('builds an index entry from a block and its output', () => {
    const b = block(1, 4, { exitCode: 0 });
    expect(blockIndexEntry(b, { text: 'a\nFatal: x', lineCount: 2 })).toEqual({ block: b, lineCount: 2, hasErrors: true });
    expect(blockIndexEntry(b, undefined)).toEqual({ block: b, lineCount: 0, hasErrors: false });
    // A huge output whose start scrolled out: the count is what it printed, not what is kept.
    expect(blockIndexEntry(b, { text: '199999\n200000', lineCount: 2, truncated: true, printed: { lines: 200_000 } }).lineCount).toBe(200_000);
    // Printed bytes that left no text (zsh's end-of-line mark after a silent command): no output.
    expect(blockIndexEntry(b, { text: '', lineCount: 0, truncated: false, printed: { lines: 1 } }).lineCount).toBe(0);
  });

  it('says "no output" for a block that printed nothing, not "0 lines" or "1 line"', () => {
    const silent = blockIndexEntry(block(1, 1, { command: 'true', endedAt: NOW - 1_000, startedAt: NOW - 2_000 }), { text: '', lineCount: 0, truncated: false, printed: { lines: 1 } });
    const running = blockIndexEntry(block(1, 2, { command: 'sleep 9', startedAt: NOW - 2_000, endedAt: undefined, exitCode: undefined }), { text: '', lineCount: 0, truncated: false });
    const rows = buildStandingContext({ os: 'Linux', shell: 'zsh', cwd: '/', paneId: 1, blocks: [silent, running], now: NOW }).split('\n');
    expect(rows).toContain('#1 p1b1 | exit 0 | 1s ago | no output | true');
    expect(rows).toContain('#2 p1b2 | running | started 2s ago | no output yet | sleep 9');
  });
});

describe('buildStandingContext', () => {
  it('states the environment and indexes the last blocks, oldest first, without their output', () => {
    const secretOutput = 'THIS OUTPUT MUST NOT APPEAR';
    const blocks = [
      blockIndexEntry(block(1, 1, { command: 'npm install', endedAt: NOW - 125_000, startedAt: NOW - 190_000 }), { text: secretOutput, lineCount: 891 }),
      entry(block(1, 2, { command: 'npm test', exitCode: 1, endedAt: NOW - 5_000 }), 542, true),
      entry(block(1, 3, { command: 'npm run dev', endedAt: undefined, exitCode: undefined, startedAt: NOW - 12_000 }), 3),
    ];
    const text = buildStandingContext({ ...base, blocks });
    expect(text.split('\n')).toEqual([
      'Environment: OS Linux 6.8 (x64); shell bash; cwd /home/me/project; pane 1.',
      'Command blocks in pane 1 (3, oldest first; #n is the block\'s index):',
      '#1 p1b1 | exit 0 | 2m ago | 891 lines | npm install',
      '#2 p1b2 | exit 1, errors | 5s ago | 542 lines | npm test',
      '#3 p1b3 | running | started 12s ago | 3 lines | npm run dev',
      'Block output is not shown here; fetch it with the terminal_history tool (by index, blockId, last or search; detail summary, errors_only or full).',
    ]);
    expect(text).not.toContain(secretOutput);
  });

  it('keeps only the last maxBlocks of the pane, numbered by their stable index', () => {
    const blocks = [
      ...Array.from({ length: 25 }, (_, i) => entry(block(1, i + 1))),
      entry(block(2, 1, { command: 'other pane' })),
    ];
    // Shuffled input: order comes from the index, not from the array.
    blocks.reverse();
    const text = buildStandingContext({ ...base, blocks, maxBlocks: 4 });
    const rows = text.split('\n').filter((line) => line.startsWith('#'));
    expect(rows.map((row) => row.split(' ')[0])).toEqual(['#22', '#23', '#24', '#25']);
    expect(text).toContain('(last 4 of 25, oldest first');
    expect(text).not.toContain('other pane');
  });

  it('defaults to 10 blocks and says when the pane has none', () => {
    const many = Array.from({ length: 15 }, (_, i) => entry(block(1, i + 1)));
    expect(buildStandingContext({ ...base, blocks: many }).split('\n').filter((l) => l.startsWith('#'))).toHaveLength(10);
    expect(buildStandingContext({ ...base, blocks: [] })).toContain('No commands have run in pane 1 yet.');
  });

  it('shows unknown exit codes and commands, and one line per block whatever the command holds', () => {
    const blocks = [
      entry(block(1, 1, { command: '', exitCode: undefined })),
      entry(block(1, 2, { command: 'echo a\necho b\r\n' + 'y'.repeat(400) }), 1),
    ];
    const rows = buildStandingContext({ ...base, blocks }).split('\n').filter((l) => l.startsWith('#'));
    expect(rows[0]).toBe('#1 p1b1 | exit ? | 30s ago | 3 lines | (command unknown)');
    expect(rows[1]).toMatch(/^#2 p1b2 \| exit 0 \| 30s ago \| 1 line \| echo a ⏎ echo b ⏎ y+…$/);
  });
});
