/**
 * The keyword pass's walk over a stretch of text (see keywordScan.ts): the automaton's steps over
 * the stretch's UTF-16 units, noting where keywords end (the states that end one) and where runs
 * of TOKEN_RUN token characters reach that length. It runs as a WebAssembly function
 * (wasmWalk.ts) where it can, in two thirds of the time of the same loop in JavaScript, which is
 * kept for a host without it (and tested against it).
 */
import { wasmWalk, type WasmWalk } from './wasmWalk';

/** The shortest run of token characters (letters, digits, `_`, `-`) the walk notes: a value the entropy rule may judge. */
export const TOKEN_RUN = 20;

/** Characters walked before their hits are handed on: the room for hits stays small, and the text they are checked against is still in the cache. */
export const STRETCH = 16384;

/** The state a hit is recorded with where a run of TOKEN_RUN token characters ends (the run's start is its end − TOKEN_RUN). */
export const RUN_MARK = -1;

/** Whether a Uint16Array reads the bytes of `utf16le` swapped. */
const BIG_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 0;

/** Where the second walk records its hits: past the first's (at most two a character, one character in two). */
const SECOND_HITS = STRETCH + 2;

/** The automaton the walk follows (see KeywordScanner's constructor). */
export interface Automaton {
  /** The start state, pre-multiplied by the number of classes, as every state. */
  start: number;
  /** Next state, indexed by state + class. */
  next: Uint16Array | Int32Array;
  classOf: Uint8Array;
  /** Token characters have this class or a higher one. */
  firstTokenClass: number;
  /** States below it end a keyword. */
  hitLimit: number;
}

/** A walk and the room it records hits in: hitEnds[h] (from the stretch's start) and hitStates[h] (RUN_MARK for a run), h below what it returns. */
export interface Walk {
  walkStretch: (text: string, from: number, to: number) => number;
  hitEnds: Int32Array;
  hitStates: Int32Array;
}

/**
 * The walk for an automaton whose longest keyword (at least TOKEN_RUN) is `overlap` long: in
 * WebAssembly unless `javaScript` (or the host has none, or is big-endian).
 */
export function walkOf(automaton: Automaton, overlap: number, javaScript = false): Walk {
  const hitRoom = 2 * STRETCH + 8 * overlap;
  const wasm = javaScript ? undefined : wasmWalk({ ...automaton, stretch: STRETCH, hitRoom, secondHits: SECOND_HITS, tokenRun: TOKEN_RUN, runMark: RUN_MARK });
  if (wasm) return { walkStretch: wasmWalker(automaton.start, wasm, overlap), hitEnds: wasm.hitEnds, hitStates: wasm.hitStates };
  const hitEnds = new Int32Array(hitRoom);
  const hitStates = new Int32Array(hitRoom);
  const { start, next, classOf, firstTokenClass, hitLimit } = automaton;
  return { walkStretch: walker(start, next, classOf, firstTokenClass, hitLimit, hitEnds, hitStates, overlap), hitEnds, hitStates };
}

/** Moves the second walk's hits, those ending past the middle, after the first's; returns how many hits there are then. */
function keepSecondHalf(hitEnds: Int32Array, hitStates: Int32Array, firstHits: number, secondHits: number, secondEnd: number, mid: number): number {
  let hits = firstHits;
  for (let h = secondHits; h < secondEnd; h++) {
    if ((hitEnds[h] as number) <= mid) continue;
    hitEnds[hits] = hitEnds[h] as number;
    hitStates[hits++] = hitStates[h] as number;
  }
  return hits;
}

/**
 * The automaton's walk over text[from, to) (at most STRETCH characters), on from the state
 * the last stretch ended in (`from` 0 starts anew): records the ends of the hits, counted from
 * `from`, and the states they were found in (RUN_MARK: the end of a run's first TOKEN_RUN
 * characters) in hitEnds and hitStates, in order, and returns how many. Made once per scanner,
 * around its own tables and room: V8 then compiles the loop with them as constants (a third
 * faster than a walk taking them as arguments) — while the process makes one scanner (the
 * scrubber's table), as it does.
 *
 * Each step waits for the last (the next state is read at the one before), so a stretch's two
 * halves are walked at once, each step of one beside a step of the other (a sixth faster). The
 * second half's walk starts anew `overlap` characters (the longest keyword, at least TOKEN_RUN)
 * before the middle: by the middle it is in the state a walk from the start would be in, and
 * counts the same runs; its hits ending by the middle are the first half's, and dropped.
 */
function walker(start: number, next: Uint16Array | Int32Array, classOf: Uint8Array, firstTokenClass: number, hitLimit: number, hitEnds: Int32Array, hitStates: Int32Array, overlap: number): (text: string, from: number, to: number) => number {
  // Where the last stretch ended: its state, and how many token characters stood just before.
  const carried = new Int32Array(2);
  // The stretch's UTF-16 units, copied at once: reading a typed array costs less than `charCodeAt`, which checks the string's kind at every character.
  // (Copied the same way however short the stretch: a second way for the last, short stretch of a text made V8 drop the compiled loop each time it met it.)
  const units = new Uint16Array(STRETCH);
  const unitBytes = Buffer.from(units.buffer);
  const runMark = RUN_MARK; // a constant of the closure (a module's constant is read from memory at each use)
  return (text, from, to) => {
    unitBytes.write(text.slice(from, to), 0, 'utf16le');
    if (BIG_ENDIAN) unitBytes.swap16();
    const n = to - from;
    // A short stretch is walked by the second walk alone, from where the last stretch ended, with no overlap.
    const halves = n >= 4 * overlap;
    const mid = halves ? n >> 1 : 0;
    const secondStart = halves ? mid - overlap : 0;
    // Locals in the loops (a variable of the closure would be read and written through memory at every character).
    let s1 = from === 0 ? start : (carried[0] as number);
    let run1 = from === 0 ? 0 : (carried[1] as number);
    let s2 = halves ? start : s1;
    let run2 = halves ? 0 : run1;
    let h1 = 0;
    let h2 = SECOND_HITS;
    // A character ends at most one hit and one run, and the room holds two a character: the loops check nothing else.
    // Hits are recorded by their end within the stretch (`from` added in the hand-out), and the second half has its own index: fewer values live in the loop, none kept in memory.
    for (let k = 0, k2 = secondStart; k < mid; k++, k2++) {
      const c1 = classOf[units[k] as number] as number;
      const c2 = classOf[units[k2] as number] as number;
      s1 = next[s1 + c1] as number;
      s2 = next[s2 + c2] as number;
      run1 = (run1 + 1) & ((firstTokenClass - 1 - c1) >> 31); // all ones for a token character
      run2 = (run2 + 1) & ((firstTokenClass - 1 - c2) >> 31);
      if (s1 < hitLimit) {
        hitEnds[h1] = k + 1;
        hitStates[h1++] = s1;
      }
      if (run1 === TOKEN_RUN) {
        hitEnds[h1] = k + 1;
        hitStates[h1++] = runMark;
      }
      if (s2 < hitLimit) {
        hitEnds[h2] = k2 + 1;
        hitStates[h2++] = s2;
      }
      if (run2 === TOKEN_RUN) {
        hitEnds[h2] = k2 + 1;
        hitStates[h2++] = runMark;
      }
    }
    // The rest of the second half (the overlap, and an odd character), or a short stretch.
    for (let k = secondStart + mid; k < n; k++) {
      const c2 = classOf[units[k] as number] as number;
      s2 = next[s2 + c2] as number;
      run2 = (run2 + 1) & ((firstTokenClass - 1 - c2) >> 31);
      if (s2 < hitLimit) {
        hitEnds[h2] = k + 1;
        hitStates[h2++] = s2;
      }
      if (run2 === TOKEN_RUN) {
        hitEnds[h2] = k + 1;
        hitStates[h2++] = runMark;
      }
    }
    const hits = keepSecondHalf(hitEnds, hitStates, h1, SECOND_HITS, h2, mid);
    carried[0] = s2;
    carried[1] = run2;
    return hits;
  };
}

/** walker's walk, by wasmWalk.ts: the same stretches, halves and hits. */
function wasmWalker(start: number, wasm: WasmWalk, overlap: number): (text: string, from: number, to: number) => number {
  const carried = new Int32Array(2);
  const { unitBytes, hitEnds, hitStates } = wasm;
  return (text, from, to) => {
    unitBytes.write(text.slice(from, to), 0, 'utf16le');
    const n = to - from;
    const halves = n >= 4 * overlap;
    const mid = halves ? n >> 1 : 0;
    const secondStart = halves ? mid - overlap : 0;
    const s1 = from === 0 ? start : (carried[0] as number);
    const run1 = from === 0 ? 0 : (carried[1] as number);
    const firstHits = wasm.walk(n, mid, secondStart, s1 * 4, run1, (halves ? start : s1) * 4, halves ? 0 : run1);
    carried[0] = wasm.lastState();
    carried[1] = wasm.lastRun();
    return keepSecondHalf(hitEnds, hitStates, firstHits, SECOND_HITS, wasm.secondEnd(), mid);
  };
}
