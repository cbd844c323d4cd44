import { FoldedCommands } from './foldedCommands';

/** What the index keeps of a stored record: enough to filter, match and rank it without SQL. */
export interface IndexedRecord {
  id: number;
  command: string;
  cwd: string | null;
  repoRoot: string | null;
  host: string;
  author: string;
  session: string | null;
  startedAt: number;
  exitCode: number | null;
}

/** Strings stored once and named by a number; 0 is null. */
export class InternedStrings {
  private readonly numbers = new Map<string, number>();

  intern(value: string | null): number {
    if (value === null) return 0;
    let number = this.numbers.get(value);
    if (number === undefined) {
      number = this.numbers.size + 1;
      this.numbers.set(value, number);
    }
    return number;
  }

  /** The value's number, or undefined when no record has it (a filter on it finds nothing). */
  find(value: string): number | undefined {
    return this.numbers.get(value);
  }
}

/**
 * The owner's in-memory copy of every record's searchable fields, as columns ordered by id, and
 * the distinct command texts (with their lower-case form) that fuzzy and relevance search scan:
 * at 100,000 records a scan takes a few milliseconds where SQL cannot rank by frequency or
 * match fuzzily at all. The database stays the source of truth: the index is built from it when
 * first needed, and the owner adds what it stores and removes what it deletes, in step.
 */
export class CommandIndex {
  /** Distinct command texts, numbered in the order first seen. */
  readonly commands: string[] = [];
  /** The same, lower-cased, for matching. */
  readonly folded = new FoldedCommands();
  readonly values = new InternedStrings();
  readonly rows = new RecordColumns();
  private readonly commandNumbers = new Map<string, number>();
  private totals: CommandTotals | null = null;
  /** The last directory asked for by `commandsRunIn` (search as you type asks from one pane's cwd). */
  private ranIn: { directory: number; commands: Uint8Array } | null = null;

  add(records: Iterable<IndexedRecord>): void {
    this.totals = null;
    this.ranIn = null;
    for (const record of records) {
      let command = this.commandNumbers.get(record.command);
      if (command === undefined) {
        command = this.commands.length;
        this.commands.push(record.command);
        this.folded.add(record.command.toLowerCase());
        this.commandNumbers.set(record.command, command);
      }
      const { values } = this;
      this.rows.push(record.id, record.startedAt, command, [
        values.intern(record.cwd),
        values.intern(record.repoRoot),
        values.intern(record.host),
        values.intern(record.author),
        values.intern(record.session),
      ], record.exitCode);
    }
  }

  remove(ids: Iterable<number>): void {
    this.totals = null;
    this.ranIn = null;
    this.rows.remove(new Set(ids));
  }

  /**
   * Every command's runs and newest run (a row), for searches without filters: counted once
   * after the index changes, not at every keystroke.
   */
  commandTotals(): CommandTotals {
    if (this.totals) return this.totals;
    const { rows } = this;
    rows.sortById();
    const runs = new Int32Array(this.commands.length);
    const newest = new Int32Array(this.commands.length);
    for (let row = 0; row < rows.length; row++) {
      const command = rows.command[row]!;
      runs[command] = runs[command]! + 1;
      if (runs[command] === 1 || rows.startedAt[row]! >= rows.startedAt[newest[command]!]!) newest[command] = row;
    }
    this.totals = { runs, newest };
    return this.totals;
  }

  /** Which commands (1 at their number) ran at least once in the directory (an interned cwd). */
  commandsRunIn(directory: number): Uint8Array {
    if (this.ranIn?.directory === directory) return this.ranIn.commands;
    const commands = new Uint8Array(this.commands.length);
    const { fields, command, length } = this.rows;
    for (let row = 0; row < length; row++) if (fields[row * FIELDS + FIELD.cwd] === directory) commands[command[row]!] = 1;
    this.ranIn = { directory, commands };
    return commands;
  }
}

/** Per command number: how many records have it, and the row of the newest (latest start, then highest id). */
export interface CommandTotals {
  runs: Int32Array;
  newest: Int32Array;
}

/** Which interned field of a row: the order of `RecordColumns.push`'s `fields`. */
export const FIELD = { cwd: 0, repo: 1, host: 2, author: 3, session: 4 } as const;
/** Interned fields a row has in `RecordColumns.fields`. */
const FIELDS = 5;

/** Per-record columns, kept sorted by id (imported records arrive with ids below the rest). */
export class RecordColumns {
  ids: number[] = [];
  startedAt: number[] = [];
  command: number[] = [];
  /** FIELDS interned numbers a row, row after row. */
  fields: number[] = [];
  /** NaN where the exit code is unknown. */
  exitCode: number[] = [];
  /** The latest start of any record ever added: recency is measured back from it. */
  newestStart = 0;
  private sorted = true;

  get length(): number {
    return this.ids.length;
  }

  push(id: number, startedAt: number, command: number, fields: number[], exitCode: number | null): void {
    if (this.ids.length > 0 && id < this.ids[this.ids.length - 1]!) this.sorted = false;
    this.ids.push(id);
    this.startedAt.push(startedAt);
    this.command.push(command);
    this.fields.push(...fields);
    this.exitCode.push(exitCode ?? NaN);
    this.newestStart = Math.max(this.newestStart, startedAt);
  }

  field(row: number, field: number): number {
    return this.fields[row * FIELDS + field]!;
  }

  /** Orders the rows by id if some arrived out of order; call before scanning. */
  sortById(): void {
    if (this.sorted) return;
    const order = this.ids.map((_, row) => row).sort((a, b) => this.ids[a]! - this.ids[b]!);
    this.keep(order);
    this.sorted = true;
  }

  remove(ids: Set<number>): void {
    if (ids.size === 0) return;
    this.keep(this.ids.flatMap((id, row) => (ids.has(id) ? [] : [row])));
  }

  private keep(rows: number[]): void {
    const pick = <T>(column: T[]) => rows.map((row) => column[row]!);
    this.ids = pick(this.ids);
    this.startedAt = pick(this.startedAt);
    this.command = pick(this.command);
    this.exitCode = pick(this.exitCode);
    this.fields = rows.flatMap((row) => this.fields.slice(row * FIELDS, row * FIELDS + FIELDS));
  }
}
