/**
 * The scrubber's one pass over a text: an Aho–Corasick automaton of every detector's keywords
 * (token prefixes such as `ghp_`, words such as `token` or `curl`, operators `:` and `=`) finds
 * all of them in a single walk, and each detector then looks only where its keywords are.
 *
 * The walk folds ASCII case and reads the low byte of each UTF-16 unit, so it finds every
 * place a keyword stands and a few more (`Ők` reads as `Pk`); each hit is checked against the
 * text (exactly as written, or in any case for a case-blind keyword) before it is handed on.
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

export class KeywordScanner {
  /** UTF-16 unit → character class (0: no keyword holds it); a unit above 255 is read as its low byte. */
  private readonly classOf = new Uint8Array(65536);
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
  /** By keyword id: its length, its text when it must match exactly, and its detectors (consumerList[consumerStart[id] … consumerStart[id + 1])). */
  private readonly keywordLength: Int32Array;
  private readonly exactText: (string | undefined)[];
  private readonly consumerStart: Int32Array;
  private readonly consumerList: Int32Array;

  /** `keywords[i]` → the detectors (indexes) that look for it. */
  constructor(keywords: readonly Keyword[], consumers: readonly (readonly number[])[]) {
    this.keywordLength = Int32Array.from(keywords, (k) => k.text.length);
    this.exactText = keywords.map((k) => (k.ignoreCase ? undefined : k.text));
    this.consumerStart = Int32Array.from([0, ...consumers.map((_, id) => consumers.slice(0, id + 1).reduce((n, c) => n + c.length, 0))]);
    this.consumerList = Int32Array.from(consumers.flat());
    let classes = 1;
    for (const k of keywords) {
      for (let i = 0; i < k.text.length; i++) {
        const c = fold(k.text.charCodeAt(i) & 255);
        if (this.classOf[c] === 0) this.classOf[c] = classes++;
      }
    }
    for (let c = 65; c <= 90; c++) this.classOf[c] = this.classOf[c + 32] as number;
    for (let c = 256; c < 65536; c++) this.classOf[c] = this.classOf[c & 255] as number;
    // The trie.
    const trie: number[][] = [new Array<number>(classes).fill(-1)];
    const ends: number[][] = [[]];
    keywords.forEach((k, id) => {
      let s = 0;
      for (let i = 0; i < k.text.length; i++) {
        const cls = this.classOf[fold(k.text.charCodeAt(i) & 255)] as number;
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
  }

  /**
   * Room for the walk's hits and each detector's, kept from scan to scan: a scan of a large text
   * would otherwise make megabytes of garbage each time. It stays the size the largest text
   * needed (about 12 MB after 10 MB of dense output).
   */
  private readonly walk: Walk = { at: 0, state: 0, hits: 0, hitEnds: new Int32Array(1024), hitStates: new Int32Array(1024) };
  private readonly lists: HitList[] = [];

  /**
   * Every detector's hits, by detector index (an empty list for a detector none of whose
   * keywords is in the text): views of the scanner's own arrays, good until its next scan.
   */
  scan(text: string, detectorCount: number): KeywordHits[] {
    const { outputCount } = this;
    const walk = this.walk;
    walk.at = 0;
    walk.state = this.start;
    walk.hits = 0;
    while (walkUntilFull(text, this.next, this.classOf, this.hitLimit, walk) < text.length) {
      if (walk.hitEnds.length - walk.hits > walk.hitEnds.length >> 2) continue;
      walk.hitEnds = grown(walk.hitEnds);
      walk.hitStates = grown(walk.hitStates);
    }
    const { hits, hitEnds, hitStates } = walk;
    // Each hit's keywords (a hit may end several), checked against the text, handed to their detectors.
    const { outputStart, outputs, keywordLength, exactText, consumerStart, consumerList } = this;
    while (this.lists.length < detectorCount) this.lists.push(new HitList());
    const lists = this.lists;
    for (const list of lists) list.clear();
    for (let h = 0; h < hits; h++) {
      const end = hitEnds[h] as number;
      const state = hitStates[h] as number;
      for (let o = outputStart[state] as number, last = o + (outputCount[state] as number); o < last; o++) {
        const id = outputs[o] as number;
        const start = end - (keywordLength[id] as number);
        const exact = exactText[id];
        if (exact !== undefined ? !text.startsWith(exact, start) : !withinLatin1(text, start, end)) continue;
        for (let c = consumerStart[id] as number, stop = consumerStart[id + 1] as number; c < stop; c++) (lists[consumerList[c] as number] as HitList).add(start, end);
      }
    }
    const byDetector: KeywordHits[] = [];
    for (let d = 0; d < detectorCount; d++) {
      const mine = (lists[d] as HitList).hits();
      sortHits(mine);
      byDetector.push(mine);
    }
    return byDetector;
  }
}

const NO_HITS: KeywordHits = { starts: new Int32Array(0), ends: new Int32Array(0) };

/** Hits of one detector as they are found, in typed arrays that grow. */
class HitList {
  private starts: Int32Array<ArrayBuffer> = new Int32Array(16);
  private ends: Int32Array<ArrayBuffer> = new Int32Array(16);
  private count = 0;

  clear(): void {
    this.count = 0;
  }

  add(start: number, end: number): void {
    if (this.count === this.starts.length) {
      this.starts = grown(this.starts);
      this.ends = grown(this.ends);
    }
    this.starts[this.count] = start;
    this.ends[this.count++] = end;
  }

  hits(): KeywordHits {
    return this.count === 0 ? NO_HITS : { starts: this.starts.subarray(0, this.count), ends: this.ends.subarray(0, this.count) };
  }
}

/** Whether no character of text[start, end) lies above Latin-1 (where the walk reads only the low byte, it may have seen a keyword that is not there). */
function withinLatin1(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (text.charCodeAt(i) > 255) return false;
  return true;
}

interface Walk {
  /** Where the walk stands, and in which state (pre-multiplied). */
  at: number;
  state: number;
  /** Keyword ends and the states they were found in, `hits` of them. */
  hits: number;
  hitEnds: Int32Array<ArrayBuffer>;
  hitStates: Int32Array<ArrayBuffer>;
}

/** The automaton's walk over `text` from `walk.at`, as far as the room for hits surely lasts; returns where it stopped. Kept apart so V8 compiles the loop alone. */
function walkUntilFull(text: string, next: Uint16Array | Int32Array, classOf: Uint8Array, hitLimit: number, walk: Walk): number {
  const { hitEnds, hitStates } = walk;
  let hits = walk.hits;
  let s = walk.state;
  let i = walk.at;
  // A character ends at most one hit, so this stretch cannot run out of room: the loop checks nothing else.
  for (const stop = Math.min(text.length, i + hitEnds.length - hits); i < stop; i++) {
    s = next[s + (classOf[text.charCodeAt(i)] as number)] as number;
    if (s < hitLimit) {
      hitEnds[hits] = i + 1;
      hitStates[hits++] = s;
    }
  }
  walk.at = i;
  walk.state = s;
  walk.hits = hits;
  return i;
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
