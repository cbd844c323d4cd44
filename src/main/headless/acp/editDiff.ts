import { readFileSync } from 'node:fs';
import type { Diff } from '@agentclientprotocol/sdk';
import type { DiffView, EditStepView } from '../../../shared/agent';

/** An ACP `diff` tool call content: the file's old and new text. */
export type DiffContent = Diff & { type: 'diff' };

/** Files larger than this are not read to show an edit in full; its hunks are shown instead. */
const MAX_FULL_TEXT_BYTES = 1024 * 1024;

/**
 * The file's text now, or undefined when it cannot be read (it does not exist yet, is too
 * large or is not a file). An edit step's card has only the diff's hunks; the editor's diff
 * view wants the whole old and new text, so the file is read when the step is proposed.
 */
export function readText(path: string): string | undefined {
  try {
    const bytes = readFileSync(path);
    return bytes.length > MAX_FULL_TEXT_BYTES ? undefined : bytes.toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * The diff content of an edit step before it runs: the file as it is (`before`) and with the
 * step's hunks applied. When the hunks do not apply to it (an earlier step of the same plan
 * changes the file first, or the diff was cut), each hunk is a diff of its own lines.
 */
export function proposedDiff(edit: EditStepView, before: string | undefined): DiffContent[] {
  if (edit.creates) return [{ type: 'diff', path: edit.path, oldText: null, newText: newSide(edit.diff).join('\n') + (edit.diff.hunks.length ? '\n' : '') }];
  const after = before === undefined ? undefined : applyHunks(before, edit.diff);
  if (before !== undefined && after !== undefined) return [{ type: 'diff', path: edit.path, oldText: before, newText: after }];
  return edit.diff.hunks.map((hunk) => ({
    type: 'diff',
    path: edit.path,
    oldText: hunk.lines.filter((line) => line.kind !== 'add').map((line) => line.text).join('\n'),
    newText: hunk.lines.filter((line) => line.kind !== 'remove').map((line) => line.text).join('\n'),
  }));
}

/** The diff content of an edit step that ran: the text before it and the file as it is now. */
export function appliedDiff(edit: EditStepView, before: string | undefined): DiffContent[] {
  const after = readText(edit.path);
  if (after === undefined || (before === undefined && !edit.creates)) return proposedDiff(edit, before);
  return [{ type: 'diff', path: edit.path, oldText: edit.creates ? null : before, newText: after }];
}

function newSide(diff: DiffView): string[] {
  return diff.hunks.flatMap((hunk) => hunk.lines.filter((line) => line.kind !== 'remove').map((line) => line.text));
}

/**
 * `before` with the diff's hunks applied, or undefined when a hunk's old lines are not where
 * it says. Lines are compared without their line endings (the diff was made that way); the
 * result keeps the file's line ending.
 */
export function applyHunks(before: string, diff: DiffView): string | undefined {
  if (diff.hiddenLines) return undefined;
  const eol = before.includes('\r\n') ? '\r\n' : '\n';
  const endsWithBreak = before === '' || before.endsWith('\n');
  const lines = before.replace(/\r\n/g, '\n').split('\n');
  if (endsWithBreak) lines.pop();
  const result: string[] = [];
  let at = 0;
  for (const hunk of diff.hunks) {
    const start = hunk.lines.some((line) => line.kind !== 'add') ? hunk.oldStart - 1 : Math.max(at, hunk.oldStart - 1);
    if (start < at || start > lines.length) return undefined;
    result.push(...lines.slice(at, start));
    at = start;
    for (const line of hunk.lines) {
      if (line.kind === 'add') {
        result.push(line.text);
        continue;
      }
      if (lines[at] !== line.text) return undefined;
      if (line.kind === 'same') result.push(line.text);
      at++;
    }
  }
  result.push(...lines.slice(at));
  const finalBreak = diff.finalNewline === 'added' ? true : diff.finalNewline === 'removed' ? false : endsWithBreak;
  return result.join(eol) + (finalBreak && result.length > 0 ? eol : '');
}
