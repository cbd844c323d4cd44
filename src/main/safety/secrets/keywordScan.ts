/**
 * The scrubber's one pass over a text: an Aho–Corasick automaton of every detector's keywords
 * (token prefixes such as `ghp_`, words such as `token` or `curl`) finds all of them in a single
 * walk, and each detector then looks only where its keywords are. The same walk notes where
 * runs of at least `TOKEN_RUN` token characters start (the values the entropy rule judges), so
 * that no detector has to look at every `:` or `=` for one.
 *
 * The walk folds ASCII case (keywords are ASCII; a character above it is in none); a hit of a
 * keyword that must match exactly is checked against the text before it is handed on.
 *
 * Why not one regex of all keywords: V8's regex engine tries each alternative at nearly every
 * character, and a dozen keywords already cost more than this walk does for a hundred and fifty
 * (measured on the bench's 10 MB: 37 ms for ten keywords in one regex, 36 ms for the automaton of 45).
 */

export interface Keyword {
  text: string;
  ignoreCase: boolean;
}

/** Where the keywords of one detector stand: starts in increasing order (ties by end), each with its end. */
export interface KeywordHits {
  starts: Int32Array;
  ends: Int32Array;
}

const fold = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

/** The shortest run of token characters (letters, digits, `_`, `-`) the walk notes: a value the entropy rule may judge. */
export const TOKEN_RUN = 20;
const isTokenCharacter = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;

export class KeywordScanner {
  /**
   * UTF-16 unit → character class: 0 for the characters no keyword holds but token characters,
   * then the other characters keywords hold, then the token characters (from `firstTokenClass`),
   * so that the walk tells a token character by its class alone.
   */
  private readonly classOf = new Uint8Array(65536);
  private readonly firstTokenClass: number;
  /** Next state, pre-multiplied by `classes`, indexed by state × classes + class (16 bits while it fits: a smaller table walks faster). */
  private readonly next: Uint16Array | Int32Array;
  /** The walk's first state, pre-multiplied. */
  private readonly start: number;
  /** States below this (pre-multiplied) end at least one keyword. */
  private readonly hitLimit: number;
  /** Keyword ids ending at (pre-multiplied) state s: outputs[outputStart[s] … outputStart[s] + outputCount[s]). */
  private readonly outputStart: Int32Array;
  private readonly outputCount: Uint8Array;
  private readonly outputs: Int32Array;
  /**
   * By keyword id: its length, its characters (codes[codeStart[id] …]), whether the walk's match
   * must be checked against them (it must match exactly, and holds a letter), and its detectors
   * (consumerList[consumerStart[id] … consumerStart[id + 1])).
   */
  private readonly keywordLength: Int32Array;
  private readonly codeStart: Int32Array;
  private readonly codes: Uint16Array;
  private readonly exact: Uint8Array;
  private readonly consumerStart: Int32Array;
  private readonly consumerList: Int32Array;

  /** `keywords[i]` → the detectors (indexes) that look for it. */
  constructor(keywords: readonly Keyword[], consumers: readonly (readonly number[])[]) {
    this.keywordLength = Int32Array.from(keywords, (k) => k.text.length);
    this.codeStart = Int32Array.from(keywords, (_, id) => keywords.slice(0, id).reduce((n, k) => n + k.text.length, 0));
    this.codes = Uint16Array.from(keywords.flatMap((k) => Array.from(k.text, (ch) => ch.charCodeAt(0))));
    this.exact = Uint8Array.from(keywords, (k) => Number(!k.ignoreCase && /[A-Za-z]/.test(k.text)));
    this.consumerStart = Int32Array.from([0, ...consumers.map((_, id) => consumers.slice(0, id + 1).reduce((n, c) => n + c.length, 0))]);
    this.consumerList = Int32Array.from(consumers.flat());
    const keywordCharacters = new Set<number>();
    for (const k of keywords) {
      if (!/^[\x20-\x7e]+$/.test(k.text)) throw new Error(`A keyword must be printable ASCII: ${JSON.stringify(k.text)}`);
      for (let i = 0; i < k.text.length; i++) keywordCharacters.add(fold(k.text.charCodeAt(i)));
    }
    const ordered = [...keywordCharacters].sort((a, b) => Number(isTokenCharacter(a)) - Number(isTokenCharacter(b)) || a - b);
    ordered.forEach((c, i) => (this.classOf[c] = i + 1));
    this.firstTokenClass = ordered.filter((c) => !isTokenCharacter(c)).length + 1;
    const classes = ordered.length + 2;
    // Token characters no keyword holds: one class, the last.
    for (let c = 0; c < 128; c++) if (isTokenCharacter(c) && !keywordCharacters.has(fold(c))) this.classOf[c] = classes - 1;
    for (let c = 65; c <= 90; c++) this.classOf[c] = this.classOf[c + 32] as number;
    // The trie.
    const trie: number[][] = [new Array<number>(classes).fill(-1)];
    const ends: number[][] = [[]];
    keywords.forEach((k, id) => {
      let s = 0;
      for (let i = 0; i < k.text.length; i++) {
        const cls = this.classOf[fold(k.text.charCodeAt(i))] as number;
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
    this.next = trie.length * classes <= 0xffff ? new Uint16Array(trie.length * classes) : new Int32Array(trie.length * classes);
    this.outputStart = new Int32Array(trie.length * classes);
    this.outputCount = new Uint8Array(trie.length * classes);
    const outputs: number[] = [];
    order.forEach((state, i) => {
      (trie[state] as number[]).forEach((t, cls) => (this.next[i * classes + cls] = (renumbered[t] as number) * classes));
      this.outputStart[i * classes] = outputs.length;
      this.outputCount[i * classes] = (ends[state] as number[]).length;
      outputs.push(...(ends[state] as number[]));
    });
    this.outputs = Int32Array.from(outputs);
    this.start = (renumbered[0] as number) * classes;
    this.hitLimit = order.filter((state) => (ends[state] as number[]).length > 0).length * classes;
    this.walkUntilFull = walker(this.next, this.classOf, this.firstTokenClass, this.hitLimit);
  }

  /**
   * Room for the walk's hits, its token runs and each detector's hits, kept from scan to scan: a
   * scan of a large text would otherwise make megabytes of garbage each time. It stays the size
   * the largest text needed (about 5 MB after 10 MB of dense output).
   */
  private readonly walk: Walk = { at: 0, state: 0, run: 0, hits: 0, hitEnds: new Int32Array(1024), hitStates: new Int32Array(1024) };
  private runStarts = new Int32Array(1024);
  private runs = 0;
  private readonly lists = new HitLists();
  private readonly walkUntilFull: (text: string, walk: Walk) => number;

  /**
   * Every detector's hits, by detector index (an empty list for a detector none of whose
   * keywords is in the text): views of the scanner's own arrays, good until its next scan.
   */
  scan(text: string, detectorCount: number): KeywordHits[] {
    const { outputCount } = this;
    const walk = this.walk;
    walk.at = 0;
    walk.state = this.start;
    walk.run = 0;
    walk.hits = 0;
    while (this.walkUntilFull(text, walk) < text.length) {
      if (walk.hitEnds.length - walk.hits > walk.hitEnds.length >> 2) continue;
      walk.hitEnds = grown(walk.hitEnds);
      walk.hitStates = grown(walk.hitStates);
    }
    const { hits, hitEnds, hitStates } = walk;
    // Each hit's keywords (a hit may end several), checked against the text where they must match exactly, handed to their detectors.
    const { outputStart, outputs, keywordLength, codeStart, codes, exact, consumerStart, consumerList } = this;
    const lists = this.lists;
    while (lists.count.length < detectorCount) lists.add();
    const { starts, ends, count } = lists;
    count.fill(0);
    let runs = 0;
    for (let h = 0; h < hits; h++) {
      const end = hitEnds[h] as number;
      const state = hitStates[h] as number;
      if (state === RUN_MARK) {
        if (runs === this.runStarts.length) this.runStarts = grown(this.runStarts);
        this.runStarts[runs++] = end - TOKEN_RUN;
        continue;
      }
      for (let o = outputStart[state] as number, last = o + (outputCount[state] as number); o < last; o++) {
        const id = outputs[o] as number;
        const start = end - (keywordLength[id] as number);
        if (exact[id] === 1) {
          let k = start;
          for (let c = codeStart[id] as number; k < end && text.charCodeAt(k) === codes[c]; k++, c++);
          if (k < end) continue;
        }
        for (let c = consumerStart[id] as number, stop = consumerStart[id + 1] as number; c < stop; c++) {
          const d = consumerList[c] as number;
          const n = count[d] as number;
          if (n === (starts[d] as Int32Array).length) lists.grow(d);
          (starts[d] as Int32Array)[n] = start;
          (ends[d] as Int32Array)[n] = end;
          count[d] = n + 1;
        }
      }
    }
    const byDetector: KeywordHits[] = [];
    for (let d = 0; d < detectorCount; d++) {
      const n = count[d] as number;
      const mine = n === 0 ? NO_HITS : { starts: (starts[d] as Int32Array).subarray(0, n), ends: (ends[d] as Int32Array).subarray(0, n) };
      sortHits(mine);
      byDetector.push(mine);
    }
    this.runs = runs;
    return byDetector;
  }

  /** Where the runs of at least TOKEN_RUN token characters start in the text of the last scan, in order (a view, good until the next scan). */
  tokenRuns(): Int32Array {
    return this.runStarts.subarray(0, this.runs);
  }
}

const NO_HITS: KeywordHits = { starts: new Int32Array(0), ends: new Int32Array(0) };

/** Each detector's hits as they are found, in typed arrays that grow (by detector index). */
class HitLists {
  readonly starts: Int32Array<ArrayBuffer>[] = [];
  readonly ends: Int32Array<ArrayBuffer>[] = [];
  count = new Int32Array(0);

  add(): void {
    this.starts.push(new Int32Array(16));
    this.ends.push(new Int32Array(16));
    const count = new Int32Array(this.count.length + 1);
    count.set(this.count);
    this.count = count;
  }

  grow(d: number): void {
    this.starts[d] = grown(this.starts[d] as Int32Array<ArrayBuffer>);
    this.ends[d] = grown(this.ends[d] as Int32Array<ArrayBuffer>);
  }
}

interface Walk {
  /** Where the walk stands, in which state (pre-multiplied), and how many token characters stand just before. */
  at: number;
  state: number;
  run: number;
  /** Keyword ends and the states they were found in (RUN_MARK: the end of a run's first TOKEN_RUN characters), `hits` of them. */
  hits: number;
  hitEnds: Int32Array<ArrayBuffer>;
  hitStates: Int32Array<ArrayBuffer>;
}

/** The state a hit is recorded with where a run of TOKEN_RUN token characters ends (the run's start is its end − TOKEN_RUN). */
const RUN_MARK = -1;

/**
 * The automaton's walk over `text` from `walk.at`, as far as the room for hits surely lasts;
 * returns where it stopped. Made once per scanner, around its own tables: V8 then compiles the
 * loop with the tables as constants (half the time of a walk that takes them as arguments).
 */
function walker(next: Uint16Array | Int32Array, classOf: Uint8Array, firstTokenClass: number, hitLimit: number): (text: string, walk: Walk) => number {
  return (text, walk) => {
    const { hitEnds, hitStates } = walk;
    let hits = walk.hits;
    let s = walk.state;
    let run = walk.run;
    let i = walk.at;
    // A character ends at most one hit and one run, so this stretch cannot run out of room: the loop checks nothing else.
    for (const stop = Math.min(text.length, i + ((hitEnds.length - hits) >> 1)); i < stop; i++) {
      const cls = classOf[text.charCodeAt(i)] as number;
      s = next[s + cls] as number;
      run = (run + 1) & ((firstTokenClass - 1 - cls) >> 31); // all ones for a token character
      if (s < hitLimit) {
        hitEnds[hits] = i + 1;
        hitStates[hits++] = s;
      }
      if (run === TOKEN_RUN) {
        hitEnds[hits] = i + 1;
        hitStates[hits++] = RUN_MARK;
      }
    }
    walk.at = i;
    walk.state = s;
    walk.run = run;
    walk.hits = hits;
    return i;
  };
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
