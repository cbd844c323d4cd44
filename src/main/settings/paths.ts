import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where Tandem keeps its files, honouring the XDG base-directory variables. */
export interface TandemPaths {
  configDir: string;
  configFile: string;
  dataDir: string;
  stateDir: string;
  sessionFile: string;
  /** The agent's audit trail (append-only, hash-chained JSONL) and the seq/hash of its last line. */
  auditFile: string;
  auditHeadFile: string;
  /** The engine's own log of what went wrong inside it (docs/architecture.md). */
  logFile: string;
  /** Finished spans, one JSON object a line (docs/telemetry.md). */
  traceFile: string;
  /** Instructions queued while no backend answers (§14.8, docs/ai.md), kept with the session. */
  queueFile: string;
  /** Every finished block (SQLite, docs/architecture.md "Block history store"). */
  historyFile: string;
  /** The user's watchers (docs/watchers.md). */
  watchersFile: string;
  /** Which project `.tandem/watchers.toml` files the user allowed, by content hash. */
  watcherTrustFile: string;
}

export function tandemPaths(env: NodeJS.ProcessEnv = process.env): TandemPaths {
  const home = env.HOME || homedir();
  const xdg = (name: string, fallback: string) => {
    const value = env[name];
    // The spec says relative paths are invalid and must be ignored.
    return value && value.startsWith('/') ? value : join(home, fallback);
  };
  const configDir = join(xdg('XDG_CONFIG_HOME', '.config'), 'tandem');
  const dataDir = join(xdg('XDG_DATA_HOME', '.local/share'), 'tandem');
  const stateDir = join(xdg('XDG_STATE_HOME', '.local/state'), 'tandem');
  return {
    configDir,
    configFile: join(configDir, 'config.toml'),
    dataDir,
    stateDir,
    sessionFile: join(stateDir, 'session.json'),
    auditFile: join(dataDir, 'audit.jsonl'),
    auditHeadFile: join(dataDir, 'audit.head'),
    logFile: join(stateDir, 'engine.log'),
    traceFile: join(stateDir, 'traces.jsonl'),
    queueFile: join(stateDir, 'queued.json'),
    historyFile: join(dataDir, 'history.sqlite'),
    watchersFile: join(configDir, 'watchers.toml'),
    watcherTrustFile: join(dataDir, 'trusted-watchers.json'),
  };
}
