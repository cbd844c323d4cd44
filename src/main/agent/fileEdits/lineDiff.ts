import type { DiffHunk, DiffLine, DiffView } from '../../../shared/agent';

/** Unchanged lines shown around each change. */
const CONTEXT_LINES = 3;
/** A card shows at most this many diff lines; the rest is counted, not shown. */
const MAX_SHOWN_LINES = 2_000;
/**
 * Beyond this many differing lines the shortest edit script is not searched for (its trace
 * grows with the square): the lines that occur once in each text anchor the diff instead.
 */
const MAX_EDIT_DISTANCE = 2_000;

/**
 * A unified diff of two texts, line by line, with line numbers on both sides: what an edit
 * step's card shows. Myers' algorithm on the lines between the common head and tail.
 */
export function lineDiff(before: string, after: string): DiffView {
  const a = splitLines(before);
  const b = splitLines(after);
  const script = editScript(a, b);
  const added = script.filter((line) => line.kind === 'add').length;
  const removed = script.filter((line) => line.kind === 'remove').length;
  const hunks = toHunks(script);
  let shown = 0;
  let hiddenLines = 0;
  const kept: DiffHunk[] = [];
  for (const hunk of hunks) {
    const room = MAX_SHOWN_LINES - shown;
    if (room <= 0) {
      hiddenLines += hunk.lines.length;
      continue;
    }
    if (hunk.lines.length > room) hiddenLines += hunk.lines.length - room;
    kept.push(hunk.lines.length > room ? { ...hunk, lines: hunk.lines.slice(0, room) } : hunk);
    shown += Math.min(room, hunk.lines.length);
  }
  const endsBefore = /\n$/.test(before);
  const endsAfter = /\n$/.test(after);
  const finalNewline = before !== '' && after !== '' && endsBefore !== endsAfter ? (endsAfter ? 'added' : 'removed') : undefined;
  return { added, removed, hunks: kept, ...(hiddenLines > 0 ? { hiddenLines } : {}), ...(finalNewline ? { finalNewline } : {}) };
}

/** Lines without their terminators; a final line break does not make an empty last line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function editScript(a: string[], b: string[]): DiffLine[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const middleA = a.slice(head, a.length - tail);
  const middleB = b.slice(head, b.length - tail);
  const middle = myers(middleA, middleB) ?? anchored(middleA, middleB);
  const script: DiffLine[] = [];
  let oldLine = 1;
  let newLine = 1;
  const same = (text: string) => script.push({ kind: 'same', text, oldLine: oldLine++, newLine: newLine++ });
  for (let i = 0; i < head; i++) same(a[i]!);
  for (const op of middle) {
    if (op.kind === 'same') same(op.text);
    else if (op.kind === 'remove') script.push({ kind: 'remove', text: op.text, oldLine: oldLine++ });
    else script.push({ kind: 'add', text: op.text, newLine: newLine++ });
  }
  for (let i = a.length - tail; i < a.length; i++) same(a[i]!);
  return script;
}

type Op = { kind: 'same' | 'remove' | 'add'; text: string };

/**
 * The shortest edit script from a to b (Myers 1986): a forward search keeping, for each d, the
 * part of the furthest-reaching array it can touch, then a walk back through those.
 */
function myers(a: string[], b: string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return wholesale(a, b);
  const offset = n + m + 1;
  const v = new Int32Array(2 * offset + 1);
  const trace: Int32Array[] = [];
  let end = -1;
  for (let d = 0; d <= MAX_EDIT_DISTANCE && end < 0; d++) {
    // v before step d, for diagonals -d..d (its neighbours included).
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        end = d;
        break;
      }
    }
  }
  if (end < 0) return undefined;
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = end; d >= 0; d--) {
    const prev = trace[d]!;
    // trace[d] starts at diagonal -d-1.
    const at = (k: number) => prev[k + d + 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ kind: 'same', text: a[x]! });
    }
    if (d === 0) break;
    if (x === prevX) ops.push({ kind: 'add', text: b[--y]! });
    else ops.push({ kind: 'remove', text: a[--x]! });
  }
  return ops.reverse();
}

/**
 * For texts too different for `myers`: the lines that occur exactly once in each text, in
 * the longest run that keeps their order in both (patience diff), are kept as they are, and
 * the stretches between them are diffed on their own.
 */
function anchored(a: string[], b: string[]): Op[] {
  const counts = new Map<string, { a: number; b: number; at: number }>();
  a.forEach((line) => {
    const count = counts.get(line) ?? { a: 0, b: 0, at: -1 };
    count.a++;
    counts.set(line, count);
  });
  b.forEach((line, at) => {
    const count = counts.get(line);
    if (!count) return;
    count.b++;
    count.at = at;
  });
  const pairs: [number, number][] = [];
  a.forEach((line, i) => {
    const count = counts.get(line)!;
    if (count.a === 1 && count.b === 1) pairs.push([i, count.at]);
  });
  const anchors = longestIncreasing(pairs);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  for (const [ai, bj] of [...anchors, [a.length, b.length] as [number, number]]) {
    const stretchA = a.slice(i, ai);
    const stretchB = b.slice(j, bj);
    ops.push(...(myers(stretchA, stretchB) ?? wholesale(stretchA, stretchB)));
    if (ai < a.length) ops.push({ kind: 'same', text: a[ai]! });
    i = ai + 1;
    j = bj + 1;
  }
  return ops;
}

/** The longest subsequence of `pairs` (in order of their first number) whose second numbers increase. */
function longestIncreasing(pairs: [number, number][]): [number, number][] {
  const tails: number[] = [];
  const previous = new Array<number>(pairs.length).fill(-1);
  pairs.forEach(([, value], index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (pairs[tails[mid]!]![1] < value) low = mid + 1;
      else high = mid;
    }
    if (low > 0) previous[index] = tails[low - 1]!;
    tails[low] = index;
  });
  const run: [number, number][] = [];
  for (let index = tails.at(-1) ?? -1; index >= 0; index = previous[index]!) run.push(pairs[index]!);
  return run.reverse();
}

function wholesale(a: string[], b: string[]): Op[] {
  return [...a.map((text): Op => ({ kind: 'remove', text })), ...b.map((text): Op => ({ kind: 'add', text }))];
}

/** Changes with CONTEXT_LINES around them; changes closer than twice that share a hunk. */
function toHunks(script: DiffLine[]): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  let current: DiffLine[] | undefined;
  let lastChange = -Infinity;
  script.forEach((line, index) => {
    if (line.kind === 'same') return;
    const from = Math.max(0, index - CONTEXT_LINES);
    if (current && from <= lastChange + CONTEXT_LINES + 1) {
      current.push(...script.slice(lastChange + 1, index + 1));
    } else {
      if (current) current.push(...script.slice(lastChange + 1, Math.min(script.length, lastChange + 1 + CONTEXT_LINES)));
      current = script.slice(from, index + 1);
      hunks.push({ oldStart: 0, newStart: 0, lines: current });
    }
    lastChange = index;
  });
  if (current) current.push(...script.slice(lastChange + 1, Math.min(script.length, lastChange + 1 + CONTEXT_LINES)));
  for (const hunk of hunks) {
    hunk.oldStart = hunk.lines.find((line) => line.oldLine !== undefined)?.oldLine ?? 0;
    hunk.newStart = hunk.lines.find((line) => line.newLine !== undefined)?.newLine ?? 0;
  }
  return hunks;
}
