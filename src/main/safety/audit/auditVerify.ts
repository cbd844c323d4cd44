import { auditEntrySchema, GENESIS_HASH, hashLine } from './auditEntry';
import { readAuditHead, type HeadReading } from './auditHead';
import { readLines } from './auditLines';
import { plural } from '../../../shared/countWords';

export type AuditVerification = { ok: true; lines: number } | { ok: false; lines: number; line: number; problem: string };

/**
 * Checks the whole chain, streaming, and names the first broken line: bad JSON, missing fields,
 * a seq out of order (a line deleted, inserted or moved), or a prev hash that does not match
 * (a line edited). With the head file it also notices lines cut off the end. A `tamper` entry
 * (damage the writer found when it opened the log) counts as broken too. A missing log is
 * intact (nothing was written yet) unless the head says entries were written. Throws only when
 * the files cannot be read.
 */
export async function verifyAuditLog(file: string, headFile?: string): Promise<AuditVerification> {
  const head: HeadReading = headFile ? await readAuditHead(headFile) : { kind: 'missing' };
  const checker = new ChainChecker(head);
  try {
    for await (const line of readLines(file)) checker.add(line);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return checker.missingLog(headFile ?? '');
  }
  return checker.finish(headFile ?? '');
}

interface Failure {
  line: number;
  problem: string;
}

class ChainChecker {
  private lines = 0;
  private previousHash = GENESIS_HASH;
  /** A line whose prev does not match the line before it: which of the two changed is decided by the next line. */
  private suspect: { line: number; hash: string } | undefined;
  private hashAtHeadSeq: string | undefined;
  private failure: Failure | undefined;

  constructor(private readonly head: HeadReading) {}

  add(bytes: Buffer): void {
    const number = ++this.lines;
    if (this.failure) return;
    const parsed = parseEntry(bytes);
    if (this.suspect) {
      // This line still holds the hash of the suspect line: the suspect is intact, the line before it changed.
      const suspectIntact = 'entry' in parsed && parsed.entry.prev === this.suspect.hash;
      const { line } = this.suspect;
      this.failure = suspectIntact ? editedLine(line - 1) : { line, problem: `its prev hash does not match line ${line - 1} (this line was edited)` };
      return;
    }
    if ('problem' in parsed) {
      this.failure = { line: number, problem: parsed.problem };
      return;
    }
    const { seq, prev, event, reason } = parsed.entry;
    if (seq !== number) {
      this.failure = { line: number, problem: `seq is ${seq}, expected ${number} (a line was deleted, inserted or moved here)` };
      return;
    }
    const hash = hashLine(bytes);
    if (prev !== this.previousHash) {
      if (number === 1) {
        this.failure = { line: 1, problem: 'the first line must have a prev of 64 zeros (lines before it were removed)' };
        return;
      }
      this.suspect = { line: number, hash };
    }
    if (this.head.kind === 'ok' && seq === this.head.head.seq) this.hashAtHeadSeq = hash;
    this.previousHash = hash;
    // The writer found the log damaged and said so here; chaining on does not make that damage go away.
    if (event === 'tamper' && !this.suspect) this.failure = { line: number, problem: `Tandem found the log damaged when it opened it: ${reason ?? 'no reason recorded'}` };
  }

  missingLog(headFile: string): AuditVerification {
    if (this.head.kind === 'invalid') return { ok: false, lines: 0, line: 1, problem: this.head.problem };
    if (this.head.kind === 'ok' && this.head.head.seq > 0) {
      return { ok: false, lines: 0, line: 1, problem: `the log is missing but ${headFile} records ${plural(this.head.head.seq, 'entry', 'entries')}` };
    }
    return { ok: true, lines: 0 };
  }

  finish(headFile: string): AuditVerification {
    const failure = this.failure ?? this.lastLineFailure() ?? this.headFailure(headFile);
    return failure ? { ok: false, lines: this.lines, ...failure } : { ok: true, lines: this.lines };
  }

  /** A suspect on the last line: no next line to tell which changed, unless the head holds its hash. */
  private lastLineFailure(): Failure | undefined {
    if (!this.suspect) return undefined;
    const { line, hash } = this.suspect;
    const confirmedByHead = this.head.kind === 'ok' && this.head.head.seq === line && this.head.head.hash === hash;
    if (confirmedByHead) return editedLine(line - 1);
    return { line: line - 1, problem: `line ${line - 1} does not match the prev hash recorded in line ${line} (one of the two was edited)` };
  }

  private headFailure(headFile: string): Failure | undefined {
    if (this.head.kind === 'missing') return undefined;
    if (this.head.kind === 'invalid') return { line: Math.max(this.lines, 1), problem: `${this.head.problem}, so lines removed from the end cannot be ruled out` };
    const { seq, hash } = this.head.head;
    if (seq > this.lines) {
      return { line: this.lines + 1, problem: `the log ends at line ${this.lines} but the last recorded entry was ${seq} (lines were removed from the end)` };
    }
    if (seq > 0 && this.hashAtHeadSeq !== hash) {
      return { line: seq, problem: `line ${seq} is not the entry recorded in ${headFile} (the end of the log was rewritten)` };
    }
    return undefined;
  }
}

function editedLine(line: number): Failure {
  return { line, problem: `line ${line} was changed after it was written: it no longer matches the hash recorded in line ${line + 1}` };
}

function parseEntry(bytes: Buffer): { entry: { seq: number; prev: string; event: string; reason?: string } } | { problem: string } {
  if (bytes.length === 0) return { problem: 'empty line' };
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { problem: 'not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'not a JSON object' };
  const parsed = auditEntrySchema.safeParse(value);
  if (parsed.success) return { entry: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  const present = issue.path.length === 0 || (issue.path[0] as string) in value;
  return { problem: present ? `field "${field}" is invalid (${issue.message})` : `missing field "${field}"` };
}
