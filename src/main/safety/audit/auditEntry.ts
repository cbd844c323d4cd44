import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * What happened to an agent action. `tamper`: the log itself was found damaged when opened.
 * `watcher-fired` / `watcher-held`: a watcher's firing went, or was held back (docs/watchers.md).
 */
export type AuditEvent = 'proposed' | 'approved' | 'denied' | 'edited' | 'executed' | 'blocked' | 'failed' | 'tamper' | 'watcher-fired' | 'watcher-held';

/** What callers record; the log adds seq, ts and prev. */
export interface AuditRecord {
  event: AuditEvent;
  conversation?: string;
  plan?: string;
  step?: number;
  command?: string;
  /** The command as proposed, when a person edited it before it ran. */
  originalCommand?: string;
  cwd?: string;
  /** The step ran (or would have) on this other host, reached with `ssh` from the pane; `cwd` is a directory there. */
  host?: string;
  pane?: number;
  level?: 'green' | 'yellow' | 'red';
  decision?: 'allow' | 'ask' | 'deny';
  /** Who decided: a person, a policy rule, a hook, a standing grant or a built-in rule. */
  decidedBy?: { kind: 'person' | 'auto' | 'headless' | 'policy' | 'hook' | 'grant' | 'builtin'; rule: string };
  reason?: string;
  exitCode?: number;
  durationMs?: number;
  /** A file edit: the file, and the sha256 of its bytes before and after (of nothing when it did not exist). */
  path?: string;
  sha256Before?: string;
  sha256After?: string;
  /** The watcher a `watcher-fired` / `watcher-held` line is about. */
  watcher?: string;
}

/** One line of the log: its position, time, the hash of the line before it, and the record. */
export interface AuditEntry extends AuditRecord {
  seq: number;
  ts: string;
  prev: string;
}

/** The `prev` of line 1. */
export const GENESIS_HASH = '0'.repeat(64);

export function hashLine(line: string | Buffer): string {
  return createHash('sha256').update(line).digest('hex');
}

/**
 * The keys of a line in the order they are written. The hash covers the exact bytes, so the
 * order must never depend on how the caller built its object.
 */
const RECORD_KEYS = [
  'event',
  'conversation',
  'plan',
  'step',
  'command',
  'originalCommand',
  'cwd',
  'host',
  'pane',
  'level',
  'decision',
  'decidedBy',
  'reason',
  'exitCode',
  'durationMs',
  'path',
  'sha256Before',
  'sha256After',
  // Keys added later go last: a line written before them hashes as it always did.
  'watcher',
] as const satisfies readonly (keyof AuditRecord)[];

/** The text of one line (no newline). Only the known fields of the record are written. */
export function formatAuditLine(seq: number, ts: string, prev: string, record: AuditRecord): string {
  const ordered: Record<string, unknown> = { seq, ts, prev };
  for (const key of RECORD_KEYS) {
    const value = record[key];
    if (value === undefined) continue;
    ordered[key] = key === 'decidedBy' && record.decidedBy ? { kind: record.decidedBy.kind, rule: record.decidedBy.rule } : value;
  }
  return JSON.stringify(ordered);
}

/** What a line must hold to count as an entry; extra fields are tolerated (they are hashed all the same). */
export const auditEntrySchema = z.object({
  seq: z.number().int().min(1),
  ts: z.string().min(1),
  prev: z.string().regex(/^[0-9a-f]{64}$/, 'not a sha256 hex digest'),
  event: z.enum(['proposed', 'approved', 'denied', 'edited', 'executed', 'blocked', 'failed', 'tamper', 'watcher-fired', 'watcher-held']),
  conversation: z.string().optional(),
  plan: z.string().optional(),
  step: z.number().optional(),
  command: z.string().optional(),
  originalCommand: z.string().optional(),
  cwd: z.string().optional(),
  host: z.string().optional(),
  pane: z.number().optional(),
  level: z.enum(['green', 'yellow', 'red']).optional(),
  decision: z.enum(['allow', 'ask', 'deny']).optional(),
  decidedBy: z.object({ kind: z.enum(['person', 'auto', 'headless', 'policy', 'hook', 'grant', 'builtin']), rule: z.string() }).optional(),
  reason: z.string().optional(),
  exitCode: z.number().optional(),
  durationMs: z.number().optional(),
  path: z.string().optional(),
  sha256Before: z.string().optional(),
  sha256After: z.string().optional(),
  watcher: z.string().optional(),
});
