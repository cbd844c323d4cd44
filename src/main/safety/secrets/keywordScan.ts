/**
 * The scrubber's one pass over a text: an Aho–Corasick automaton of every detector's keywords
 * (token prefixes such as `ghp_`, words such as `token` or `curl`) finds all of them in a single
 * walk, and each detector then looks only where its keywords are. The same walk notes where
 * runs of at least `TOKEN_RUN` token characters start (the values the entropy rule judges), so
 * that no detector has to look at every `:` or `=` for one. The text is walked in stretches,
 * each handed on while it is still in the cache; a detector may locate its places then (Locator).
 *
 * The walk folds ASCII case (keywords are ASCII; a character above it is in none); a hit of a
 * keyword that must match exactly is checked against the text before it is handed on.
 *
 * The automaton (some 60,000 table entries for the scrubber's 280 keywords) takes 15 ms to build in
 * a fresh process, before V8 has compiled the loops that build it: more than the first texts a
 * run scrubs are worth (`tandem agent`'s first request scrubs the instruction and a few environment
 * values, all short). So until the texts scanned reach SEARCH_BUDGET characters in all, each is
 * searched for each keyword in turn (20–80 µs for texts of up to 1,000 characters, against 15 ms
 * once), which finds the same hits and runs (tested against the walk); then the automaton is built.
 *
 * Why not one regex of all keywords: V8's regex engine tries each alternative at nearly every
 * character, and a dozen keywords already cost more than this walk does for a hundred and fifty
 * (measured on the bench's 10 MB: 37 ms for ten keywords in one regex, 36 ms for the automaton of 45).
 */

import { RUN_MARK, STRETCH, TOKEN_RUN, walkOf } from './keywordWalk';

/** Characters scanned in all (a text's included) below which it is searched keyword by keyword instead of walked (see above). */
export const SEARCH_BUDGET = 16_384;

/** Where a run of TOKEN_RUN token characters starts (what the walk notes). */
const TOKEN_RUN_START = new RegExp(`(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{${TOKEN_RUN}}`, 'g');

export { TOKEN_RUN } from './keywordWalk';

export interface Keyword {
  text: string;
  ignoreCase: boolean;
}

/**
 * How a detector turns what the walk finds into the places it will look at, while the stretch
 * of text around them is still in the processor's cache (a later look at 100,000 places
 * scattered over a large text costs a cache miss each): each keyword hit [start, end), and each
 * run of TOKEN_RUN token characters or more (from its start), gives the places it hands to
 * `place`. Such a detector's hits are then its places, [place, place + 1), in order, each once.
 */
export interface Locator {
  atKeyword: (text: string, start: number, end: number, place: (at: number) => void) => void;
  /** A stretch's runs, runStarts[0 … count) in order, in one call. None: the detector's places come from its keywords alone. */
  atTokenRuns?: (text: string, runStarts: Int32Array, count: number, place: (at: number) => void) => void;
}

/** Where the keywords of one detector stand: starts in increasing order (ties by end), each with its end. */
export interface KeywordHits {
  starts: Int32Array;
  ends: Int32Array;
}

const fold = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

const isTokenCharacter = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;

export interface KeywordScannerOptions {
  /** The walk in JavaScript rather than WebAssembly (tests; a host without WebAssembly gets it anyway). */
  javaScriptWalk?: boolean;
  /** Texts are searched keyword by keyword while the characters scanned in all stay below this (default SEARCH_BUDGET; 0: always the automaton). */
  searchBudget?: number;
}

export class KeywordScanner {
  /**
   * `keywords[i]` → the detectors (indexes) that look for it; `locators[d]`: how detector d
   * locates its places, if it does (see Locator). The automaton is built at the first text it
   * is used for (see SEARCH_BUDGET).
   */
  constructor(
    private readonly keywords: readonly Keyword[],
    private readonly consumers: readonly (readonly number[])[],
    private readonly locators: readonly (Locator | undefined)[] = [],
    private readonly options: KeywordScannerOptions = {},
  ) {
    for (const k of keywords) if (!/^[\x20-\x7e]+$/.test(k.text)) throw new Error(`A keyword must be printable ASCII: ${JSON.stringify(k.text)}`);
    const lists = this.lists;
    this.placers = locators.map((locator, d) => (locator ? (at: number): void => lists.push(d, at, at + 1) : undefined));
    this.runLocators = locators.flatMap((locator, d): RunLocator[] => (locator?.atTokenRuns ? [{ atTokenRuns: locator.atTokenRuns, place: this.placers[d] as (at: number) => void }] : []));
  }

  /** Each detector's hits, kept from scan to scan (a scan of a large text would otherwise make megabytes of garbage each time). */
  private readonly lists = new HitLists();
  /** Detector d's `place` for its Locator (undefined: it has none). */
  private readonly placers: readonly (((at: number) => void) | undefined)[];
  private readonly runLocators: readonly RunLocator[];
  /** The automaton's walk and hand-out, once built. */
  private walk: AutomatonWalk | undefined;
  /** Characters searched keyword by keyword so far. */
  private searched = 0;

  /**
   * Every detector's hits, by detector index (an empty list for a detector none of whose
   * keywords is in the text): views of the scanner's own arrays, good until its next scan.
   */
  scan(text: string, detectorCount: number): KeywordHits[] {
    const lists = this.lists;
    lists.reset(detectorCount);
    if (this.walk === undefined && this.searched + text.length < (this.options.searchBudget ?? SEARCH_BUDGET)) {
      this.searched += text.length;
      this.search(text);
    } else {
      const { walkStretch, handOut } = (this.walk ??= automatonWalk(this.keywords, this.consumers, this.locators, this.placers, this.runLocators, this.lists, this.options.javaScriptWalk));
      for (let from = 0; from < text.length; from += STRETCH) handOut(text, from, walkStretch(text, from, Math.min(text.length, from + STRETCH)));
    }
    const byDetector: KeywordHits[] = [];
    for (let d = 0; d < detectorCount; d++) {
      const n = lists.count[d] as number;
      if (n === 0) {
        byDetector.push(NO_HITS); // shared: nothing to order (a short text leaves most detectors without hits)
        continue;
      }
      const mine = { starts: (lists.starts[d] as Int32Array).subarray(0, n), ends: (lists.ends[d] as Int32Array).subarray(0, n) };
      if (this.locators[d]) placesInOrder(mine);
      else sortHits(mine);
      byDetector.push(mine);
    }
    return byDetector;
  }

  /**
   * A text, without the automaton: each keyword found by a search of its own (in any ASCII
   * case where it may be, as written otherwise), each run of token characters by a regex. What the
   * detectors are handed is what the walk hands them, in another order, which `scan` sorts away.
   */
  private search(text: string): void {
    const folded = text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
    this.keywords.forEach((keyword, id) => {
      const haystack = keyword.ignoreCase ? folded : text;
      const needle = keyword.ignoreCase ? keyword.text.toLowerCase() : keyword.text;
      for (let start = haystack.indexOf(needle); start !== -1; start = haystack.indexOf(needle, start + 1)) {
        const end = start + needle.length;
        for (const d of this.consumers[id] ?? []) {
          const locator = this.locators[d];
          if (locator === undefined) this.lists.push(d, start, end);
          else locator.atKeyword(text, start, end, this.placers[d] as (at: number) => void);
        }
      }
    });
    if (this.runLocators.length === 0) return;
    const runStarts = Int32Array.from(text.matchAll(TOKEN_RUN_START), (m) => m.index);
    if (runStarts.length > 0) for (const { atTokenRuns, place } of this.runLocators) atTokenRuns(text, runStarts, runStarts.length, place);
  }
}

/** The automaton's walk over a stretch and the hand-out of its hits (see keywordWalk.ts and handOuter). */
interface AutomatonWalk {
  walkStretch: (text: string, from: number, to: number) => number;
  handOut: (text: string, from: number, hits: number) => void;
}

/** Builds the automaton of `keywords` and the walk over it; the tables built here are kept only by the walk and the hand-out that use them. */
function automatonWalk(
  keywords: readonly Keyword[],
  consumers: readonly (readonly number[])[],
  locators: readonly (Locator | undefined)[],
  placers: readonly (((at: number) => void) | undefined)[],
  runLocators: readonly RunLocator[],
  lists: HitLists,
  javaScriptWalk: boolean | undefined,
): AutomatonWalk {
  const classOf = new Uint8Array(65536);
  const keywordCharacters = new Set<number>();
  for (const k of keywords) for (let i = 0; i < k.text.length; i++) keywordCharacters.add(fold(k.text.charCodeAt(i)));
  const ordered = [...keywordCharacters].sort((a, b) => Number(isTokenCharacter(a)) - Number(isTokenCharacter(b)) || a - b);
  ordered.forEach((c, i) => (classOf[c] = i + 1));
  const firstTokenClass = ordered.filter((c) => !isTokenCharacter(c)).length + 1;
  const classes = ordered.length + 2;
  // Token characters no keyword holds: one class, the last.
  for (let c = 0; c < 128; c++) if (isTokenCharacter(c) && !keywordCharacters.has(fold(c))) classOf[c] = classes - 1;
  for (let c = 65; c <= 90; c++) classOf[c] = classOf[c + 32] as number;
  // The trie.
  const trie: number[][] = [new Array<number>(classes).fill(-1)];
  const ends: number[][] = [[]];
  keywords.forEach((k, id) => {
    let s = 0;
    for (let i = 0; i < k.text.length; i++) {
      const cls = classOf[fold(k.text.charCodeAt(i))] as number;
      let t = (trie[s] as number[])[cls] as number;
      if (t === -1) {
        t = trie.length;
        (trie[s] as number[])[cls] = t;
        trie.push(new Array<number>(classes).fill(-1));
        ends.push([]);
      }
      s = t;
    }
    (ends[s] as number[]).push(id);
  });
  // Failure links, breadth first, folded into the transitions.
  const failure = new Array<number>(trie.length).fill(0);
  const queue: number[] = [];
  const root = trie[0] as number[];
  for (let cls = 0; cls < classes; cls++) {
    if (root[cls] === -1) root[cls] = 0;
    else queue.push(root[cls] as number);
  }
  for (let q = 0; q < queue.length; q++) {
    const r = queue[q] as number;
    const row = trie[r] as number[];
    for (let cls = 0; cls < classes; cls++) {
      const t = row[cls] as number;
      const viaFailure = (trie[failure[r] as number] as number[])[cls] as number;
      if (t === -1) {
        row[cls] = viaFailure;
      } else {
        failure[t] = viaFailure;
        (ends[t] as number[]).push(...(ends[viaFailure] as number[]));
        queue.push(t);
      }
    }
  }
  // States that end a keyword get the lowest numbers, so the walk tells a hit by one comparison.
  const order = trie.map((_, state) => state).sort((a, b) => Number((ends[b] as number[]).length > 0) - Number((ends[a] as number[]).length > 0) || a - b);
  const renumbered = new Array<number>(trie.length);
  order.forEach((state, i) => (renumbered[state] = i));
  // Next state, pre-multiplied by `classes`, indexed by state × classes + class (16 bits while it fits: a smaller table walks faster).
  const next = trie.length * classes <= 0xffff ? new Uint16Array(trie.length * classes) : new Int32Array(trie.length * classes);
  // What a hit at (pre-multiplied) state s hands on: actions[actionStart[s] … + actionCount[s]), one for each keyword it ends and each of that keyword's detectors.
  const codeStart = keywords.map((_, id) => keywords.slice(0, id).reduce((n, k) => n + k.text.length, 0));
  const actions: { length: number; code: number; detector: number }[] = [];
  const actionStart = new Int32Array(trie.length * classes);
  const actionCount = new Uint8Array(trie.length * classes);
  order.forEach((state, i) => {
    (trie[state] as number[]).forEach((t, cls) => (next[i * classes + cls] = (renumbered[t] as number) * classes));
    actionStart[i * classes] = actions.length;
    for (const id of ends[state] as number[]) {
      const keyword = keywords[id] as Keyword;
      // A keyword that must match exactly and holds a letter is checked against the text (the walk folds case).
      const code = !keyword.ignoreCase && /[A-Za-z]/.test(keyword.text) ? (codeStart[id] as number) : -1;
      for (const detector of consumers[id] ?? []) actions.push({ length: keyword.text.length, code, detector });
    }
    const count = actions.length - (actionStart[i * classes] as number);
    if (count > 255) throw new Error(`Too many detectors wait for the keywords ending at one place: ${count}`);
    actionCount[i * classes] = count;
  });
  const tables: HandOutTables = {
    actionStart,
    actionCount,
    actionLength: Int32Array.from(actions, (a) => a.length),
    actionCode: Int32Array.from(actions, (a) => a.code),
    actionDetector: Int32Array.from(actions, (a) => a.detector),
    codes: Uint16Array.from(keywords.flatMap((k) => Array.from(k.text, (ch) => ch.charCodeAt(0)))),
  };
  const start = (renumbered[0] as number) * classes;
  const hitLimit = order.filter((state) => (ends[state] as number[]).length > 0).length * classes;
  // How far before the middle of a stretch the walk of its second half starts (see keywordWalk.ts): at least a keyword's length, and a run's.
  const overlap = Math.max(TOKEN_RUN, ...keywords.map((k) => k.text.length));
  const { walkStretch, hitEnds, hitStates } = walkOf({ start, next, classOf, firstTokenClass, hitLimit }, overlap, javaScriptWalk);
  return { walkStretch, handOut: handOuter(tables, lists, locators, placers, runLocators, hitEnds, hitStates) };
}


const NO_HITS: KeywordHits = { starts: new Int32Array(0), ends: new Int32Array(0) };

/** Each detector's hits as they are found, in typed arrays that grow (by detector index). */
class HitLists {
  readonly starts: Int32Array<ArrayBuffer>[] = [];
  readonly ends: Int32Array<ArrayBuffer>[] = [];
  count = new Int32Array(0);

  /** Empty lists for `detectorCount` detectors. */
  reset(detectorCount: number): void {
    while (this.starts.length < detectorCount) {
      this.starts.push(new Int32Array(16));
      this.ends.push(new Int32Array(16));
    }
    if (this.count.length < detectorCount) this.count = new Int32Array(detectorCount);
    this.count.fill(0);
  }

  push(d: number, start: number, end: number): void {
    const n = this.count[d] as number;
    if (n === (this.starts[d] as Int32Array).length) {
      this.starts[d] = grown(this.starts[d] as Int32Array<ArrayBuffer>);
      this.ends[d] = grown(this.ends[d] as Int32Array<ArrayBuffer>);
    }
    (this.starts[d] as Int32Array)[n] = start;
    (this.ends[d] as Int32Array)[n] = end;
    this.count[d] = n + 1;
  }
}

/** A located detector's places (they come in the order of the hits they were found from) in order, each once; ends are places + 1. */
function placesInOrder(hits: KeywordHits): void {
  const places = hits.starts.sort();
  let n = 0;
  for (let i = 0; i < places.length; i++) if (i === 0 || places[i] !== places[i - 1]) places[n++] = places[i] as number;
  for (let i = 0; i < n; i++) hits.ends[i] = (places[i] as number) + 1;
  hits.starts = places.subarray(0, n);
  hits.ends = hits.ends.subarray(0, n);
}

/**
 * The tables the hand-out reads. By (pre-multiplied) state s: its actions, from actionStart[s],
 * actionCount[s] of them. By action: the length of the keyword it is for, where that keyword's
 * characters start in `codes` if the walk's match must be checked against them (-1: no need),
 * and the detector it hands the keyword to.
 */
interface HandOutTables {
  actionStart: Int32Array;
  actionCount: Uint8Array;
  actionLength: Int32Array;
  actionCode: Int32Array;
  actionDetector: Int32Array;
  codes: Uint16Array;
}

/**
 * Hands the hits of the stretch just walked on: each hit's keywords (a hit may end several),
 * checked against the text where they must match exactly, to their detectors; each run start
 * to the runs. Made once per automaton around its tables, like the walk.
 */
function handOuter(
  tables: HandOutTables,
  lists: HitLists,
  locators: readonly (Locator | undefined)[],
  placers: readonly (((at: number) => void) | undefined)[],
  runLocators: readonly RunLocator[],
  hitEnds: Int32Array,
  hitStates: Int32Array,
): (text: string, from: number, hits: number) => void {
  const { actionStart, actionCount, actionLength, actionCode, actionDetector, codes } = tables;
  // The stretch's run starts, handed to each run locator at once after its keywords (a call for each run and locator cost more than the look each takes).
  const runStarts = new Int32Array(hitEnds.length);
  return (text, from, hits) => {
    let runs = 0;
    for (let h = 0; h < hits; h++) {
      const end = from + (hitEnds[h] as number);
      const state = hitStates[h] as number;
      if (state === RUN_MARK) {
        runStarts[runs++] = end - TOKEN_RUN;
        continue;
      }
      for (let a = actionStart[state] as number, last = a + (actionCount[state] as number); a < last; a++) {
        const start = end - (actionLength[a] as number);
        const code = actionCode[a] as number;
        if (code >= 0) {
          let k = start;
          for (let c = code; k < end && text.charCodeAt(k) === codes[c]; k++, c++);
          if (k < end) continue;
        }
        const d = actionDetector[a] as number;
        const locator = locators[d];
        if (locator === undefined) lists.push(d, start, end);
        else locator.atKeyword(text, start, end, placers[d] as (at: number) => void);
      }
    }
    if (runs > 0) for (const { atTokenRuns, place } of runLocators) atTokenRuns(text, runStarts, runs, place);
  };
}

interface RunLocator {
  atTokenRuns: NonNullable<Locator['atTokenRuns']>;
  place: (at: number) => void;
}

function grown(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** Hits arrive by their end; a detector whose keywords differ in length may see starts out of order. */
function sortHits(hits: KeywordHits): void {
  const { starts, ends } = hits;
  let sorted = true;
  for (let i = 1; i < starts.length && sorted; i++) sorted = (starts[i - 1] as number) < (starts[i] as number) || (starts[i - 1] === starts[i] && (ends[i - 1] as number) <= (ends[i] as number));
  if (sorted) return;
  const order = Array.from(starts, (_, i) => i).sort((a, b) => (starts[a] as number) - (starts[b] as number) || (ends[a] as number) - (ends[b] as number));
  hits.starts = Int32Array.from(order, (i) => starts[i] as number);
  hits.ends = Int32Array.from(order, (i) => ends[i] as number);
}
