import type { StructuredPatchHunk } from 'diff';
import type { DiffHunk, DiffLine, DiffView } from '../../../shared/agent';

/** Unchanged lines shown around each change. */
const CONTEXT_LINES = 3;
/** A card shows at most this many diff lines; the rest is counted, not shown. */
const MAX_SHOWN_LINES = 2_000;
/**
 * Beyond this many added plus removed lines the shortest diff is not searched for (the search
 * grows with the square of it: about half a second at 1,000 here); the differing stretch is then
 * shown as rewritten.
 */
const MAX_EDIT_LENGTH = 1_000;
/** Guards a slow machine: past this the diff is shown as a rewrite too. */
const DIFF_TIMEOUT_MS = 5_000;

/**
 * A unified diff of two texts, line by line, with line numbers on both sides: what an edit
 * step's card shows. Line endings are not compared (a CRLF file is diffed by its lines); a line
 * break added or removed at the very end is reported in `finalNewline`. The search runs in
 * slices, so a large diff does not hold up the engine.
 */
export async function lineDiff(before: string, after: string): Promise<DiffView> {
  const oldText = byLines(before);
  const newText = byLines(after);
  // Loaded with the first edit step, not with the engine (every `tandem agent` start would read its files).
  const { structuredPatch } = await import('diff');
  const patch = await new Promise<{ hunks: StructuredPatchHunk[] } | undefined>((resolve) => {
    structuredPatch('before', 'after', oldText, newText, undefined, undefined, {
      context: CONTEXT_LINES,
      maxEditLength: MAX_EDIT_LENGTH,
      timeout: DIFF_TIMEOUT_MS,
      callback: resolve,
    });
  });
  const hunks = patch ? patch.hunks.map(numbered) : [rewrite(oldText, newText)];
  const changed = hunks.flatMap((hunk) => hunk.lines);
  const added = changed.filter((line) => line.kind === 'add').length;
  const removed = changed.filter((line) => line.kind === 'remove').length;
  const shown = shownPart(hunks);
  const endsBefore = /\n$/.test(before);
  const endsAfter = /\n$/.test(after);
  const finalNewline = before !== '' && after !== '' && endsBefore !== endsAfter ? (endsAfter ? 'added' : 'removed') : undefined;
  return { added, removed, hunks: shown.hunks, ...(shown.hidden > 0 ? { hiddenLines: shown.hidden } : {}), ...(finalNewline ? { finalNewline } : {}) };
}

/** The text with LF line endings and a final line break, so only the lines themselves differ. */
function byLines(text: string): string {
  if (text === '') return '';
  const lf = text.replace(/\r\n/g, '\n');
  return lf.endsWith('\n') ? lf : `${lf}\n`;
}

function numbered(hunk: StructuredPatchHunk): DiffHunk {
  let oldLine = hunk.oldStart;
  let newLine = hunk.newStart;
  const lines = hunk.lines.map((line): DiffLine => {
    const text = line.slice(1);
    if (line.startsWith('+')) return { kind: 'add', text, newLine: newLine++ };
    if (line.startsWith('-')) return { kind: 'remove', text, oldLine: oldLine++ };
    return { kind: 'same', text, oldLine: oldLine++, newLine: newLine++ };
  });
  return {
    oldStart: lines.find((line) => line.oldLine !== undefined)?.oldLine ?? 0,
    newStart: lines.find((line) => line.newLine !== undefined)?.newLine ?? 0,
    lines,
  };
}

/**
 * Two texts too different to search for their shortest diff: the lines between their common
 * first and last lines, all removed and all added.
 */
function rewrite(oldText: string, newText: string): DiffHunk {
  const a = oldText.split('\n').slice(0, -1);
  const b = newText.split('\n').slice(0, -1);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const lines: DiffLine[] = [
    ...a.slice(head, a.length - tail).map((text, i): DiffLine => ({ kind: 'remove', text, oldLine: head + i + 1 })),
    ...b.slice(head, b.length - tail).map((text, i): DiffLine => ({ kind: 'add', text, newLine: head + i + 1 })),
  ];
  return { oldStart: head + 1, newStart: head + 1, lines };
}

/** The hunks cut to MAX_SHOWN_LINES lines, and how many lines were left out. */
function shownPart(hunks: DiffHunk[]): { hunks: DiffHunk[]; hidden: number } {
  let shown = 0;
  let hidden = 0;
  const kept: DiffHunk[] = [];
  for (const hunk of hunks) {
    const room = MAX_SHOWN_LINES - shown;
    if (room <= 0) {
      hidden += hunk.lines.length;
      continue;
    }
    if (hunk.lines.length > room) hidden += hunk.lines.length - room;
    kept.push(hunk.lines.length > room ? { ...hunk, lines: hunk.lines.slice(0, room) } : hunk);
    shown += Math.min(room, hunk.lines.length);
  }
  return { hunks: kept, hidden };
}
