import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { writeFileAtomic } from '../settings/atomicWrite';

interface TrustRecord {
  sha256: string;
  allowedAt: string;
  by: 'cli' | 'panel';
}

interface TrustFile {
  version: 1;
  files: Record<string, TrustRecord>;
}

export function sha256Of(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A file's real path (through symlinks), or the path itself while it does not exist. */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Which project watchers files the user allowed, direnv-style (docs/watchers.md "Trust"):
 * a record per file, keyed by its real path, holding the sha256 of the content allowed. Any
 * edit of the file (by the user, the agent, a `git pull`) makes it untrusted until allowed
 * again. The record lives in Tandem's data folder (0600, written atomically), among the
 * files agent steps may not write.
 */
export class ProjectTrust {
  constructor(readonly file: string) {}

  isTrusted(watchersFile: string, content: string): boolean {
    return this.read().files[realPath(watchersFile)]?.sha256 === sha256Of(content);
  }

  /** Allows the file with exactly this content (what the user was shown); returns the hash allowed. */
  allow(watchersFile: string, content: string, by: TrustRecord['by']): string {
    const trust = this.read();
    const sha256 = sha256Of(content);
    trust.files[realPath(watchersFile)] = { sha256, allowedAt: new Date().toISOString(), by };
    writeFileAtomic(this.file, `${JSON.stringify(trust, null, 2)}\n`, 0o600);
    return sha256;
  }

  /** Forgets the file's record; true when there was one. */
  deny(watchersFile: string): boolean {
    const trust = this.read();
    const key = realPath(watchersFile);
    if (!(key in trust.files)) return false;
    delete trust.files[key];
    writeFileAtomic(this.file, `${JSON.stringify(trust, null, 2)}\n`, 0o600);
    return true;
  }

  /** The records; a missing or unreadable file trusts nothing. */
  private read(): TrustFile {
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<TrustFile>;
      if (parsed && typeof parsed.files === 'object' && parsed.files !== null) return { version: 1, files: parsed.files };
    } catch {
      // Nothing allowed yet, or a damaged record: nothing is trusted.
    }
    return { version: 1, files: {} };
  }
}
