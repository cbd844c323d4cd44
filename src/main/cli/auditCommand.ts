import { stat } from 'node:fs/promises';
import { plural } from '../../shared/countWords';
import { verifyAuditLog } from '../safety/audit/auditVerify';
import { tandemPaths } from '../settings/paths';

export interface AuditVerifyOutcome {
  stream: 'stdout' | 'stderr';
  text: string;
  exitCode: number;
}

/** The head that belongs to a log: `audit.jsonl` → `audit.head`, next to it. */
export function auditHeadFileFor(logFile: string): string {
  return `${logFile.replace(/\.jsonl$/, '')}.head`;
}

/**
 * `tandem audit verify`: 0 when the chain is intact (or the default log does not exist yet), 1 when
 * it is broken, 2 when it cannot be read — a file named with `--file` that does not exist included.
 */
export async function runAuditVerify(file: string | undefined, env: NodeJS.ProcessEnv): Promise<AuditVerifyOutcome> {
  const paths = tandemPaths(env);
  const logFile = file ?? paths.auditFile;
  const headFile = file === undefined ? paths.auditHeadFile : auditHeadFileFor(logFile);
  try {
    const exists = await stat(logFile).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
    const result = await verifyAuditLog(logFile, headFile);
    if (!result.ok) return { stream: 'stdout', text: `audit log broken at line ${result.line}: ${result.problem} (${logFile})`, exitCode: 1 };
    if (!exists && file !== undefined) return { stream: 'stderr', text: `tandem: no audit log at ${logFile}: the file given with --file does not exist`, exitCode: 2 };
    if (!exists) return { stream: 'stdout', text: `no audit log yet at ${logFile}`, exitCode: 0 };
    return { stream: 'stdout', text: `audit log intact: ${plural(result.lines, 'entry', 'entries')} (${logFile})`, exitCode: 0 };
  } catch (error) {
    return { stream: 'stderr', text: `tandem: cannot read the audit log ${logFile}: ${(error as Error).message}`, exitCode: 2 };
  }
}
