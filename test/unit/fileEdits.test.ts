import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256, MAX_EDIT_BYTES } from '../../src/main/agent/fileEdits/editableFile';
import { applyEdit, prepareEdit, undoEdit, type PreparedEdit } from '../../src/main/agent/fileEdits/fileEdit';
import { lineDiff } from '../../src/main/agent/fileEdits/lineDiff';
import { applyReplacements, lineEndings } from '../../src/main/agent/fileEdits/textReplacements';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-edits-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, content: string | Buffer, mode?: number): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  if (mode !== undefined) chmodSync(path, mode);
  return path;
}

async function prepared(path: string, edits: { old_text: string; new_text: string }[]): Promise<PreparedEdit> {
  const result = await prepareEdit(path, { tool: 'edit_file', edits });
  if (!result.ok) throw new Error(result.message);
  return result.edit;
}

describe('text replacements', () => {
  it('replaces a text that occurs once, and the next edit sees the result of the one before', () => {
    const result = applyReplacements('a = 1\nb = 2\n', [
      { old_text: 'a = 1', new_text: 'a = 10' },
      { old_text: 'a = 10\nb', new_text: 'a = 11\nb' },
    ], 'x.ts');
    expect(result).toEqual({ ok: true, text: 'a = 11\nb = 2\n' });
  });

  it('says when a text is absent, and which one', () => {
    const result = applyReplacements('one\ntwo\n', [{ old_text: 'one', new_text: '1' }, { old_text: 'three', new_text: '3' }], 'x.txt');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/edits\[1\]\.old_text was not found in x\.txt \(after the earlier edits/);
  });

  it('says how many times an ambiguous text occurs and on which lines', () => {
    const result = applyReplacements('x\nfoo\ny\nfoo\nfoo bar\n', [{ old_text: 'foo', new_text: 'baz' }], 'x.txt');
    expect(!result.ok && result.message).toBe(
      'Not changed: old_text occurs 3 times in x.txt (at lines 2, 4, 5). Include more of the surrounding lines so it matches exactly once.',
    );
  });

  it('refuses an empty old_text', () => {
    expect(applyReplacements('abc', [{ old_text: '', new_text: 'x' }], 'f').ok).toBe(false);
  });

  it('matches LF text against a CRLF file and keeps the file CRLF', () => {
    const result = applyReplacements('one\r\ntwo\r\nthree\r\n', [{ old_text: 'one\ntwo\n', new_text: 'uno\ndos\n' }], 'f');
    expect(result).toEqual({ ok: true, text: 'uno\r\ndos\r\nthree\r\n' });
  });

  it('knows the line endings of a file', () => {
    expect(lineEndings('a\nb\n')).toBe('lf');
    expect(lineEndings('a\r\nb\r\n')).toBe('crlf');
    expect(lineEndings('a\r\nb\n')).toBe('mixed');
    expect(lineEndings('')).toBe('lf');
  });

  it('replacing a unique marker inserted anywhere changes exactly that place (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (before, after, replacement) => {
        const marker = '\u0001MARK\u0001';
        fc.pre(!before.includes('\u0001') && !after.includes('\u0001'));
        const result = applyReplacements(before + marker + after, [{ old_text: marker, new_text: replacement }], 'f');
        return result.ok && result.text === before + replacement + after;
      }),
    );
  });
});

describe('line diff', () => {
  it('numbers the lines on both sides and keeps three lines of context', async () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'].join('\n') + '\n';
    const after = before.replace('5\n', 'five\n');
    const diff = await lineDiff(before, after);
    expect(diff.added).toBe(1);
    expect(diff.removed).toBe(1);
    expect(diff.hunks).toHaveLength(1);
    const hunk = diff.hunks[0]!;
    expect(hunk.oldStart).toBe(2);
    expect(hunk.lines.map((line) => `${line.kind}:${line.oldLine ?? ''}:${line.newLine ?? ''}:${line.text}`)).toEqual([
      'same:2:2:2',
      'same:3:3:3',
      'same:4:4:4',
      'remove:5::5',
      'add::5:five',
      'same:6:6:6',
      'same:7:7:7',
      'same:8:8:8',
    ]);
  });

  it('the old side and the new side of the diff give back both texts (property)', async () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(lines, lines, async (a, b) => {
        const before = a.map((line) => `${line}\n`).join('');
        const after = b.map((line) => `${line}\n`).join('');
        const diff = await lineDiff(before, after);
        const changed = diff.hunks.flatMap((hunk) => hunk.lines);
        const removed = changed.filter((line) => line.kind === 'remove').length;
        const added = changed.filter((line) => line.kind === 'add').length;
        // Never more changes than rewriting everything, and an equal text has none.
        return removed === diff.removed && added === diff.added && removed <= a.length && added <= b.length && (before !== after || diff.hunks.length === 0)
          && changed.every((line) => (line.kind === 'add' ? b[line.newLine! - 1] === line.text : a[line.oldLine! - 1] === line.text))
          && diff.hunks.every((hunk) => hunk.lines.every((line) => line.kind !== 'same' || a[line.oldLine! - 1] === line.text && b[line.newLine! - 1] === line.text));
      }),
    );
  });

  it('finds the few changed lines of a large file', async () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `line ${i % 50}`);
    const b = [...a];
    b.splice(9_000, 2, 'new one', 'new two', 'new three');
    const diff = await lineDiff(a.join('\n'), b.join('\n'));
    expect(diff).toMatchObject({ added: 3, removed: 2 });
    expect(diff.hunks.map((hunk) => [hunk.oldStart, hunk.newStart])).toEqual([[8998, 8998]]);
  });

  it('shows texts too different to search as a rewrite of what lies between their common head and tail, at most 2,000 lines', async () => {
    const a = Array.from({ length: 6000 }, (_, i) => `line ${i}`);
    const b = a.map((line, i) => (i % 4 === 1 ? `changed ${i}` : line));
    const diff = await lineDiff(a.join('\n'), b.join('\n'));
    // Lines 2..5998 (1-based) lie between the first and the last changed line.
    expect(diff).toMatchObject({ added: 5997, removed: 5997 });
    expect(diff.hunks[0]).toMatchObject({ oldStart: 2, newStart: 2 });
    const shown = diff.hunks.flatMap((hunk) => hunk.lines);
    expect(shown.length).toBe(2000);
    expect(diff.hiddenLines).toBe(2 * 5997 - 2000);
    expect(shown.every((line) => (line.kind === 'add' ? b[line.newLine! - 1] === line.text : a[line.oldLine! - 1] === line.text))).toBe(true);
  });

  it('diffs a CRLF file by its lines, not its line endings', async () => {
    const diff = await lineDiff('one\r\ntwo\r\nthree\r\n', 'one\r\n2\r\nthree\r\n');
    expect(diff.hunks[0]!.lines.map((line) => `${line.kind}:${line.text}`)).toEqual(['same:one', 'remove:two', 'add:2', 'same:three']);
  });

  it('notices a line break added or removed at the very end', async () => {
    expect(await lineDiff('a', 'a\n')).toEqual({ added: 0, removed: 0, hunks: [], finalNewline: 'added' });
    expect(await lineDiff('a\r\n', 'a')).toMatchObject({ added: 0, removed: 0, finalNewline: 'removed' });
    expect(await lineDiff('a\nb', 'a\nc\n')).toMatchObject({ added: 1, removed: 1, finalNewline: 'added' });
    expect(await lineDiff('', 'a\n')).not.toHaveProperty('finalNewline');
  });
});

describe('edits on disk', () => {
  it('applies an edit atomically and keeps the mode', async () => {
    const path = file('run.sh', '#!/bin/sh\necho old\n', 0o750);
    const edit = await prepared(path, [{ old_text: 'echo old', new_text: 'echo new' }]);
    expect(edit.diff.added).toBe(1);
    const applied = await applyEdit(edit);
    expect(applied.ok).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('#!/bin/sh\necho new\n');
    expect(statSync(path).mode & 0o7777).toBe(0o750);
    // No temporary file is left behind.
    expect(readdirSync(dir)).toEqual(['run.sh']);
    expect(applied.ok && applied.applied.sha256Before).toBe(sha256(Buffer.from('#!/bin/sh\necho old\n')));
    expect(applied.ok && applied.applied.sha256After).toBe(sha256(readFileSync(path)));
  });

  it('keeps CRLF line endings and a byte-order mark', async () => {
    const path = file('win.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\r\ntwo\r\n')]));
    await applyEdit(await prepared(path, [{ old_text: 'one\n', new_text: 'uno\nmore\n' }]));
    expect(readFileSync(path)).toEqual(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('uno\r\nmore\r\ntwo\r\n')]));
  });

  it('refuses binary files, non-UTF-8 files and files over the size limit', async () => {
    const binary = file('a.bin', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]));
    expect(await prepareEdit(binary, { tool: 'write_file', content: 'x' })).toMatchObject({ ok: false, message: expect.stringMatching(/not a UTF-8 text file \(ELF/) });
    const latin1 = file('l.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(await prepareEdit(latin1, { tool: 'edit_file', edits: [{ old_text: 'caf', new_text: 'x' }] })).toMatchObject({ ok: false, message: expect.stringMatching(/not valid UTF-8/) });
    const big = file('big.txt', 'x'.repeat(MAX_EDIT_BYTES + 1));
    expect(await prepareEdit(big, { tool: 'edit_file', edits: [{ old_text: 'x', new_text: 'y' }] })).toMatchObject({ ok: false, message: expect.stringMatching(/more than the 1048576 bytes/) });
  });

  it('edit_file on a missing file points to write_file; write_file creates it; a missing folder is named', async () => {
    const path = join(dir, 'new.md');
    expect(await prepareEdit(path, { tool: 'edit_file', edits: [{ old_text: 'a', new_text: 'b' }] })).toMatchObject({ ok: false, message: expect.stringMatching(/does not exist\. Use write_file/) });
    const created = await prepareEdit(path, { tool: 'write_file', content: '# hi\n' });
    expect(created.ok && created.edit.before.exists).toBe(false);
    if (created.ok) await applyEdit(created.edit);
    expect(readFileSync(path, 'utf8')).toBe('# hi\n');
    expect(await prepareEdit(join(dir, 'nope', 'x.md'), { tool: 'write_file', content: '' })).toMatchObject({ ok: false, message: expect.stringMatching(/folder .*nope does not exist/) });
  });

  it('overwriting keeps the line endings of the file; an unchanged content is refused', async () => {
    const path = file('w.txt', 'a\r\nb\r\n');
    const same = await prepareEdit(path, { tool: 'write_file', content: 'a\nb\n' });
    expect(same).toMatchObject({ ok: false, message: expect.stringMatching(/exactly as it is/) });
    const changed = await prepareEdit(path, { tool: 'write_file', content: 'a\nc\n' });
    if (!changed.ok) throw new Error(changed.message);
    await applyEdit(changed.edit);
    expect(readFileSync(path, 'utf8')).toBe('a\r\nc\r\n');
  });

  it('edits the target of a symlink and leaves the link a link', async () => {
    const target = file('real.txt', 'hello\n');
    const link = join(dir, 'link.txt');
    symlinkSync(target, link);
    const edit = await prepared(link, [{ old_text: 'hello', new_text: 'bye' }]);
    expect(edit.path).toBe(target);
    await applyEdit(edit);
    expect(readFileSync(target, 'utf8')).toBe('bye\n');
    expect(statSync(link).isFile()).toBe(true);
  });

  it('does not write when the file changed after the diff was made', async () => {
    const path = file('c.txt', 'one\n');
    const edit = await prepared(path, [{ old_text: 'one', new_text: 'two' }]);
    writeFileSync(path, 'one\nsomeone else\n');
    expect(await applyEdit(edit)).toMatchObject({ ok: false, message: expect.stringMatching(/changed after the diff was made/) });
    expect(readFileSync(path, 'utf8')).toBe('one\nsomeone else\n');
  });

  it('undo restores the previous content when the file has not changed since', async () => {
    const path = file('u.txt', 'before\n', 0o640);
    const applied = await applyEdit(await prepared(path, [{ old_text: 'before', new_text: 'after' }]));
    if (!applied.ok) throw new Error(applied.message);
    expect(await undoEdit(applied.applied)).toMatchObject({ restored: true });
    expect(readFileSync(path, 'utf8')).toBe('before\n');
    expect(statSync(path).mode & 0o7777).toBe(0o640);
  });

  it('undo refuses when the file changed after the edit, and keeps the current content', async () => {
    const path = file('u.txt', 'before\n');
    const applied = await applyEdit(await prepared(path, [{ old_text: 'before', new_text: 'after' }]));
    if (!applied.ok) throw new Error(applied.message);
    writeFileSync(path, 'after\nand more\n');
    expect(await undoEdit(applied.applied)).toEqual({ restored: false, message: `Not undone: ${path} has changed since the edit; its current content is kept.` });
    expect(readFileSync(path, 'utf8')).toBe('after\nand more\n');
  });

  it('undo of a created file removes it', async () => {
    const path = join(dir, 'made.txt');
    const created = await prepareEdit(path, { tool: 'write_file', content: 'x\n' });
    if (!created.ok) throw new Error(created.message);
    const applied = await applyEdit(created.edit);
    if (!applied.ok) throw new Error(applied.message);
    expect(await undoEdit(applied.applied)).toMatchObject({ restored: true });
    expect(existsSync(path)).toBe(false);
  });

  it('a write that fails leaves the file and no temporary behind', async () => {
    const sub = join(dir, 'ro');
    mkdirSync(sub);
    const path = join(sub, 'f.txt');
    writeFileSync(path, 'one\n');
    const edit = await prepared(path, [{ old_text: 'one', new_text: 'two' }]);
    chmodSync(sub, 0o500);
    try {
      const result = await applyEdit(edit);
      // root may write anyway; everyone else gets a clear refusal.
      if (!result.ok) {
        expect(result.message).toMatch(/could not be written/);
        expect(readFileSync(path, 'utf8')).toBe('one\n');
      }
      expect(readdirSync(sub).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    } finally {
      chmodSync(sub, 0o700);
    }
  });
});
