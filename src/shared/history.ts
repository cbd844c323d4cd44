import { z } from 'zod';

/**
 * The history search overlay's API between the renderer and the engine: search the block
 * history, the commands around a record, forget records, and what "this directory / repo /
 * host" mean for the active pane. The engine checks every query again against the store's
 * own schema (src/main/history/historyRecord.ts), which these mirror.
 */

/** Who ran a block (the store's AUTHORS; a unit test keeps the two lists equal). */
export const HISTORY_AUTHORS = ['you', 'agent-step', 'auto-run', 'child-agent'] as const;
export type HistoryAuthor = (typeof HISTORY_AUTHORS)[number];

/** The most records one overlay search asks for. */
export const HISTORY_SEARCH_LIMIT = 200;
/** The most of a record's output digest a search result carries (the preview shows it). */
export const HISTORY_DIGEST_PREVIEW_CHARS = 4_000;

const text = z.string().max(4_096);
const paneId = z.number().int().nonnegative();

export const HistoryRequestSchemas = {
  'history.search': z
    .object({
      query: z.string().max(1_000).optional(),
      match: z.enum(['substring', 'fuzzy']).optional(),
      failed: z.boolean().optional(),
      cwd: text.optional(),
      repo: text.optional(),
      host: text.optional(),
      author: z.enum(HISTORY_AUTHORS).optional(),
      since: z.number().int().nonnegative().optional(),
      limit: z.number().int().positive().max(HISTORY_SEARCH_LIMIT).optional(),
      /** The directory the search is made from (the active pane's cwd): same-directory commands rank higher. */
      from: text.optional(),
    })
    .strict(),
  /** The record and up to `count` commands either side of it in its session, oldest first. */
  'history.neighbours': z.object({ id: z.number().int(), count: z.number().int().positive().max(100) }).strict(),
  /** Records by id, or every run of a command (a result ranked by relevance stands for all its runs). */
  'history.forget': z.union([
    z.object({ ids: z.array(z.number().int()).min(1).max(1_000) }).strict(),
    z.object({ command: z.string().min(1).max(64 * 1024) }).strict(),
  ]),
  /** The pane's directory, its repository's root (if it is in one) and its host (a remote one while it is on one): what the overlay's chips filter by. */
  'history.scope': z.object({ paneId }).strict(),
} as const;

/** One stored record as the overlay shows it. */
export interface HistoryEntry {
  id: number;
  command: string;
  cwd: string | null;
  host: string;
  /** It ran on another host than the engine's (a remote shell reached with `ssh`, or an imported record of another machine). */
  otherHost: boolean;
  shell: string | null;
  startedAt: number;
  durationMs: number | null;
  exitCode: number | null;
  author: HistoryAuthor;
  /** For agent steps: how the gate decided, and the rule. */
  decision: string | null;
  rule: string | null;
  gitBranch: string | null;
  repoRoot: string | null;
  imported: boolean;
  /** The output digest (scrubbed before it was stored), cut to HISTORY_DIGEST_PREVIEW_CHARS. */
  outputDigest: string | null;
  /** The digest was longer than what is here. */
  digestCut: boolean;
  /** A result ranked by relevance stands for every run of its command: how many there are. */
  runs?: number;
  /** The block this record came from, when it ran in this engine and its pane is still open (`p3b7`). */
  blockId: string | null;
}

export interface HistoryScope {
  cwd: string;
  host: string;
  /** The pane is on a remote shell (reached with `ssh`): `cwd` is a directory of `host`, not of this machine. */
  remote?: boolean;
  /** The git work tree the pane's directory is in, or null. */
  repoRoot: string | null;
  /** Why there is no repo root, for the chip's tooltip. */
  repoUnknown?: string;
}

export interface HistoryResults {
  'history.search': { records: HistoryEntry[] };
  'history.neighbours': { records: HistoryEntry[] };
  'history.forget': { forgotten: number };
  'history.scope': HistoryScope;
}
