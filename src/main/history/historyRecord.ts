import { z } from 'zod';

/** Who ran a block: the person, a step of an agent's plan, `!auto`, or a child agent. */
export const AUTHORS = ['you', 'agent-step', 'auto-run', 'child-agent'] as const;
export type Author = (typeof AUTHORS)[number];

/** Caps per field, so one runaway block cannot bloat the database or a request line. */
export const LIMITS = {
  commandChars: 64 * 1024,
  digestChars: 16 * 1024,
  outputChars: 1024 * 1024,
  textChars: 4 * 1024,
  batchRecords: 1000,
  searchLimit: 1000,
} as const;

const text = z.string().max(LIMITS.textChars);
const time = z.number().int().nonnegative();

/**
 * One finished block as the recorder hands it over. `key` makes a write idempotent: a batch
 * that is sent again after the owner died (and maybe had already stored it) is not stored twice.
 * The store leaves `key` to the client when it is missing.
 */
export const blockRecordSchema = z
  .object({
    key: z.string().min(1).max(200).optional(),
    command: z.string().min(1).max(LIMITS.commandChars),
    cwd: text.nullish(),
    host: text.min(1),
    shell: text.nullish(),
    pane: text.nullish(),
    session: text.nullish(),
    startedAt: time,
    endedAt: time.nullish(),
    durationMs: time.nullish(),
    exitCode: z.number().int().nullish(),
    author: z.enum(AUTHORS),
    /** For agent steps: how the gate decided (e.g. "approved", "auto") and the rule that decided it. */
    decision: text.nullish(),
    rule: text.nullish(),
    /** The agent conversation (plan) a step belonged to. */
    conversation: text.nullish(),
    gitBranch: text.nullish(),
    repoRoot: text.nullish(),
    /** First and last lines plus the detected error lines, already capped by the recorder. */
    outputDigest: z.string().max(LIMITS.digestChars).nullish(),
    /** The whole output, only with `keep_output = "full"`. */
    output: z.string().max(LIMITS.outputChars).nullish(),
    imported: z.boolean().optional(),
  })
  // Not strict: a field from a newer Tandem, sent to an older owner, is dropped, not the record.
  .strip();
export type BlockRecord = z.input<typeof blockRecordSchema>;

/** A record as stored: every field present, absent ones as null. */
export interface StoredRecord {
  id: number;
  command: string;
  cwd: string | null;
  host: string;
  shell: string | null;
  pane: string | null;
  session: string | null;
  startedAt: number;
  endedAt: number | null;
  durationMs: number | null;
  exitCode: number | null;
  author: Author;
  decision: string | null;
  rule: string | null;
  conversation: string | null;
  gitBranch: string | null;
  repoRoot: string | null;
  outputDigest: string | null;
  output: string | null;
  imported: boolean;
  recordedAt: number;
  /**
   * Ranked by relevance, results are one per command text: this is how many runs of it the
   * search kept (the record is the newest of them). Absent when ranked by recency.
   */
  runs?: number;
}

/**
 * How results are ordered: newest first, or by relevance (recency, how often the command was
 * run, and whether it ran in `from`, the directory the search is made from).
 */
export const RANKINGS = ['recency', 'relevance'] as const;

/** How the text matches a command: as a substring, or fuzzily (its characters in order). */
export const MATCHES = ['substring', 'fuzzy'] as const;

export const searchQuerySchema = z
  .object({
    /** Substring of the command (or of the digest too with `fields: "all"`); with `match: "fuzzy"`, of the command only. */
    query: z.string().max(1000).optional(),
    fields: z.enum(['command', 'all']).optional(),
    failed: z.boolean().optional(),
    cwd: text.optional(),
    repo: text.optional(),
    host: text.optional(),
    author: z.enum(AUTHORS).optional(),
    session: text.optional(),
    since: time.optional(),
    until: time.optional(),
    limit: z.number().int().positive().max(LIMITS.searchLimit).optional(),
    rank: z.enum(RANKINGS).optional(),
    match: z.enum(MATCHES).optional(),
    /** The directory the search is made from, for same-directory ranking. */
    from: text.optional(),
  })
  .strict();
export type SearchQuery = z.input<typeof searchQuerySchema>;

export const forgetRequestSchema = z.union([
  z.object({ ids: z.array(z.number().int()).min(1).max(100_000) }).strict(),
  z.object({ query: searchQuerySchema }).strict(),
  /** Every run of these exact commands (what a relevance search shows once). */
  z.object({ commands: z.array(z.string().min(1).max(LIMITS.commandChars)).min(1).max(100) }).strict(),
]);
export type ForgetRequest = z.input<typeof forgetRequestSchema>;

export const neighboursRequestSchema = z.object({ id: z.number().int(), count: z.number().int().positive().max(500) }).strict();

export interface RecordOutcome {
  stored: number;
  /** Records whose key was already stored (a batch sent again after a handover). */
  duplicates: number;
  rejected: { index: number; reason: string }[];
}

export interface HistoryStats {
  file: string;
  schemaVersion: number;
  records: number;
  imported: number;
  byAuthor: Record<Author, number>;
  oldestStartedAt: number | null;
  newestStartedAt: number | null;
  /** Bytes in use (pages not on the free list). */
  bytes: number;
}

/** What every store call gives back: a value, or a message meant for a person. Never a throw. */
export type HistoryResult<T> = { ok: true; value: T } | { ok: false; error: string };

export function describeZodError(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : 'request'}: ${issue.message}`).join('; ');
}
