import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineDiff } from '../../src/main/agent/fileEdits/lineDiff';
import { applyHunks, proposedDiff } from '../../src/main/headless/acp/editDiff';

const line = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', '', '  indented', 'beta');
const text = fc.tuple(fc.array(line, { maxLength: 30 }), fc.boolean()).map(([lines, finalBreak]) => (lines.length ? lines.join('\n') + (finalBreak ? '\n' : '') : ''));

describe('an edit step shown to an editor in full (ACP diff content)', () => {
  it('rebuilds the new text from the old text and the step card\'s hunks', async () => {
    await fc.assert(
      fc.asyncProperty(text, text, async (before, after) => {
        const diff = await lineDiff(before, after);
        const rebuilt = applyHunks(before, diff);
        // A line break at the very end of an emptied or created text is not recorded by the card's diff.
        if (before === '' || after === '') expect(rebuilt?.replace(/\n$/, '')).toBe(after.replace(/\n$/, ''));
        else expect(rebuilt).toBe(after);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps CRLF line endings', async () => {
    const before = 'one\r\ntwo\r\nthree\r\n';
    expect(applyHunks(before, await lineDiff(before, 'one\r\nTWO\r\nthree\r\n'))).toBe('one\r\nTWO\r\nthree\r\n');
  });

  it('falls back to one diff per hunk when the file is no longer what the hunks were made from', async () => {
    const before = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`).join('\n') + '\n';
    const after = before.replace('line 2\n', 'line two\n').replace('line 19\n', 'line nineteen\n');
    const diff = await lineDiff(before, after);
    const edit = { tool: 'edit_file' as const, path: '/project/file.txt', creates: false, diff };
    expect(proposedDiff(edit, before)).toEqual([{ type: 'diff', path: '/project/file.txt', oldText: before, newText: after }]);
    const changedSince = before.replace('line 3\n', 'line three\n');
    const hunks = proposedDiff(edit, changedSince);
    expect(hunks).toHaveLength(2);
    expect(hunks[0]).toMatchObject({ oldText: expect.stringContaining('line 2'), newText: expect.stringContaining('line two') });
    expect(hunks[1]).toMatchObject({ oldText: expect.stringContaining('line 19'), newText: expect.stringContaining('line nineteen') });
  });

  it('shows a created file with no old text', async () => {
    const diff = await lineDiff('', 'new file\nsecond line\n');
    expect(proposedDiff({ tool: 'write_file', path: '/project/new.txt', creates: true, diff }, undefined)).toEqual([{ type: 'diff', path: '/project/new.txt', oldText: null, newText: 'new file\nsecond line\n' }]);
  });
});
