/**
 * The keyword pass's walk (see `walker` in keywordWalk.ts) as a WebAssembly function, built for
 * one scanner with its tables' places and limits as constants: the same two walks at once, the
 * same hits and runs, in two thirds of the time of the JavaScript loop (16 against 24 ms on the
 * bench's 10 MB), whose code V8 fills with bounds checks and with reloading the typed arrays.
 *
 * Its memory holds, at fixed byte offsets: the class of each UTF-16 unit (a byte, times 4), the
 * automaton's next states (32 bits, times 4: a state is a byte offset into that table), the
 * stretch's units, and the hits (ends, then states, in two arrays of `hitRoom` each).
 */

/** What the walk of one stretch reports besides its hits: the second walk's end state and run, and where its hits end. */
export interface WasmWalk {
  /** Walks units [0, n) (see walker): returns how many hits the first walk recorded (from index 0); the second's start at `secondHits`. */
  walk: (n: number, mid: number, secondStart: number, s1: number, run1: number, s2: number, run2: number) => number;
  /** After a walk: the index past the second walk's last hit, its state and its run. */
  secondEnd: () => number;
  lastState: () => number;
  lastRun: () => number;
  /** The stretch's units, written before each walk (UTF-16, little-endian: WebAssembly's order). */
  unitBytes: Buffer;
  hitEnds: Int32Array;
  hitStates: Int32Array;
}

export interface WalkTables {
  start: number;
  next: Uint16Array | Int32Array;
  classOf: Uint8Array;
  firstTokenClass: number;
  hitLimit: number;
  /** Units in a stretch, at most. */
  stretch: number;
  /** Hits the room holds: the first walk's from 0, the second's from `secondHits`. */
  hitRoom: number;
  secondHits: number;
  tokenRun: number;
  runMark: number;
}

const uleb = (value: number): number[] => {
  const out: number[] = [];
  let n = value >>> 0;
  do {
    const b = n & 0x7f;
    n >>>= 7;
    out.push(n === 0 ? b : b | 0x80);
  } while (n !== 0);
  return out;
};
const sleb = (value: number): number[] => {
  const out: number[] = [];
  let n = value | 0;
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
};
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vector = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (text: string): number[] => [...uleb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];

// The instructions used (WebAssembly's opcodes).
const I32 = 0x7f;
const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, depth],
  brIf: (depth: number) => [0x0d, depth],
  get: (local: number) => [0x20, local],
  set: (local: number) => [0x21, local],
  tee: (local: number) => [0x22, local],
  globalSet: (global: number) => [0x24, global],
  const: (value: number) => [0x41, ...sleb(value)],
  load: (offset: number) => [0x28, 2, ...uleb(offset)],
  load8: (offset: number) => [0x2d, 0, ...uleb(offset)],
  load16: (offset: number) => [0x2f, 1, ...uleb(offset)],
  store: (offset: number) => [0x36, 2, ...uleb(offset)],
  store8: (offset: number) => [0x3a, 0, ...uleb(offset)],
  eq: [0x46],
  ltU: [0x49],
  geU: [0x4f],
  add: [0x6a],
  sub: [0x6b],
  and: [0x71],
  shl: [0x74],
  shrS: [0x75],
  shrU: [0x76],
};

/** A walk over WebAssembly memory, or undefined where it cannot run (no WebAssembly, a big-endian processor, a module refused). */
export function wasmWalk(tables: WalkTables): WasmWalk | undefined {
  if (typeof WebAssembly !== 'object' || new Uint8Array(Uint16Array.of(1).buffer)[0] !== 1) return undefined;
  const CLASSES = 0;
  const NEXT = CLASSES + 65536;
  const UNITS = NEXT + tables.next.length * 4;
  const ENDS = UNITS + tables.stretch * 2;
  const STATES = ENDS + tables.hitRoom * 4;
  const bytes = STATES + tables.hitRoom * 4;
  const code = walkCode(tables, { CLASSES, NEXT, UNITS, ENDS, STATES });
  const scale = scaleCode({ CLASSES, NEXT });
  const pages = Math.ceil(bytes / 65536);
  const module = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([[0x60, ...vector([[I32], [I32], [I32], [I32], [I32], [I32], [I32]]), ...vector([[I32]])], [0x60, ...vector([[I32]]), ...vector([])]])),
    ...section(3, vector([[0], [1]])),
    ...section(5, vector([[0x00, ...uleb(pages)]])),
    ...section(6, vector([0, 1, 2].map(() => [I32, 0x01, ...op.const(0), ...op.end]))),
    ...section(7, vector([[...name('memory'), 0x02, 0], [...name('walk'), 0x00, 0], [...name('scale'), 0x00, 1], [...name('secondEnd'), 0x03, 0], [...name('lastState'), 0x03, 1], [...name('lastRun'), 0x03, 2]])),
    ...section(10, vector([[...uleb(code.length), ...code], [...uleb(scale.length), ...scale]])),
  ];
  let exports: WebAssembly.Exports;
  try {
    ({ exports } = new WebAssembly.Instance(new WebAssembly.Module(Uint8Array.from(module))));
  } catch {
    return undefined; // WebAssembly refused here (`--jitless`, a memory limit): the JavaScript walk does the same
  }
  const memory = exports.memory as WebAssembly.Memory;
  const globals = exports as unknown as Record<'secondEnd' | 'lastState' | 'lastRun', WebAssembly.Global>;
  // The tables copied as they are, then made byte offsets by the module itself: a loop over 65,536 entries in JavaScript costs milliseconds before V8 compiles it, at the scrubber's first use.
  new Uint8Array(memory.buffer, CLASSES, 65536).set(tables.classOf);
  new Int32Array(memory.buffer, NEXT, tables.next.length).set(tables.next);
  (exports.scale as (entries: number) => void)(tables.next.length);
  return {
    walk: exports.walk as WasmWalk['walk'],
    secondEnd: () => ((globals.secondEnd.value as number) - ENDS) / 4,
    lastState: () => (globals.lastState.value as number) / 4,
    lastRun: () => globals.lastRun.value as number,
    unitBytes: Buffer.from(memory.buffer, UNITS, tables.stretch * 2),
    hitEnds: new Int32Array(memory.buffer, ENDS, tables.hitRoom),
    hitStates: new Int32Array(memory.buffer, STATES, tables.hitRoom),
  };
}

/** A function that multiplies the next-state table's `entries` (parameter 0) and the 65,536 classes by 4, in place; local 1 counts. */
function scaleCode(at: { CLASSES: number; NEXT: number }): number[] {
  const [entries, i] = [0, 1];
  const loop = (count: number[], body: number[]): number[] => [
    ...op.const(0), ...op.set(i),
    ...op.block, ...op.loop, ...op.get(i), ...count, ...op.geU, ...op.brIf(1), ...body, ...op.get(i), ...op.const(1), ...op.add, ...op.set(i), ...op.br(0), ...op.end, ...op.end,
  ];
  const body = [
    ...loop(op.get(entries), [...op.get(i), ...op.const(2), ...op.shl, ...op.get(i), ...op.const(2), ...op.shl, ...op.load(at.NEXT), ...op.const(2), ...op.shl, ...op.store(at.NEXT)]),
    ...loop(op.const(65536), [...op.get(i), ...op.get(i), ...op.load8(at.CLASSES), ...op.const(2), ...op.shl, ...op.store8(at.CLASSES)]),
    ...op.end,
  ];
  return [...vector([[...uleb(1), I32]]), ...body];
}

/**
 * The function's body. Its parameters (0–6): n, mid, secondStart, s1, run1, s2, run2 (states as
 * offsets into the next-state table: times 4); its locals: byte offsets of the two walks' units
 * (7, 8), the first loop's end (9), the classes read (10, 11), the two walks' hit places (12,
 * 13), the second loop's end (14).
 */
function walkCode(tables: WalkTables, at: { CLASSES: number; NEXT: number; UNITS: number; ENDS: number; STATES: number }): number[] {
  const [n, mid, secondStart, s1, run1, s2, run2, u1, u2, limit, c1, c2, p1, p2, uEnd] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];
  const tokenMask = (run: number, cls: number): number[] => [...op.get(run), ...op.const(1), ...op.add, ...op.const(tables.firstTokenClass * 4 - 1), ...op.get(cls), ...op.sub, ...op.const(31), ...op.shrS, ...op.and, ...op.set(run)];
  const record = (place: number, unit: number, state: number[]): number[] => [
    ...op.get(place), ...op.get(unit), ...op.const(1), ...op.shrU, ...op.const(1), ...op.add, ...op.store(0),
    ...op.get(place), ...state, ...op.store(at.STATES - at.ENDS),
    ...op.get(place), ...op.const(4), ...op.add, ...op.set(place),
  ];
  const step = (unit: number, cls: number, state: number, run: number, place: number): number[] => [
    ...op.get(unit), ...op.load16(at.UNITS), ...op.load8(at.CLASSES), ...op.set(cls),
    ...op.get(state), ...op.get(cls), ...op.add, ...op.load(at.NEXT), ...op.set(state),
    ...tokenMask(run, cls),
    ...op.get(state), ...op.const(tables.hitLimit * 4), ...op.ltU, ...op.if, ...record(place, unit, [...op.get(state), ...op.const(2), ...op.shrU]), ...op.end,
    ...op.get(run), ...op.const(tables.tokenRun), ...op.eq, ...op.if, ...record(place, unit, op.const(tables.runMark)), ...op.end,
  ];
  const advance = (unit: number): number[] => [...op.get(unit), ...op.const(2), ...op.add, ...op.set(unit)];
  const body = [
    ...op.const(0), ...op.set(u1),
    ...op.get(secondStart), ...op.const(1), ...op.shl, ...op.set(u2),
    ...op.get(mid), ...op.const(1), ...op.shl, ...op.set(limit),
    ...op.const(at.ENDS), ...op.set(p1),
    ...op.const(at.ENDS + tables.secondHits * 4), ...op.set(p2),
    // Both walks, a step of each at a time.
    ...op.block, ...op.get(u1), ...op.get(limit), ...op.geU, ...op.brIf(0),
    ...op.loop, ...step(u1, c1, s1, run1, p1), ...step(u2, c2, s2, run2, p2), ...advance(u1), ...advance(u2),
    ...op.get(u1), ...op.get(limit), ...op.ltU, ...op.brIf(0), ...op.end, ...op.end,
    // The rest of the second half, or a short stretch.
    ...op.get(secondStart), ...op.get(mid), ...op.add, ...op.const(1), ...op.shl, ...op.set(u2),
    ...op.get(n), ...op.const(1), ...op.shl, ...op.set(uEnd),
    ...op.block, ...op.get(u2), ...op.get(uEnd), ...op.geU, ...op.brIf(0),
    ...op.loop, ...step(u2, c2, s2, run2, p2), ...advance(u2),
    ...op.get(u2), ...op.get(uEnd), ...op.ltU, ...op.brIf(0), ...op.end, ...op.end,
    ...op.get(p2), ...op.globalSet(0), ...op.get(s2), ...op.globalSet(1), ...op.get(run2), ...op.globalSet(2),
    ...op.get(p1), ...op.const(at.ENDS), ...op.sub, ...op.const(2), ...op.shrU,
    ...op.end,
  ];
  return [...vector([[...uleb(8), I32]]), ...body];
}
