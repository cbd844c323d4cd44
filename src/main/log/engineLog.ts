import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { scrubSecrets } from '../safety/secretScrubber';

/**
 * The engine's own log: what went wrong inside it, for the user (or whoever they send it
 * to) to read later. One JSON object a line in `$XDG_STATE_HOME/tandem/engine.log`, kept
 * under a size cap by rotating to `engine.log.1`. Everything is scrubbed of secrets the
 * way model traffic is, so the file can be attached to a bug report as it is.
 */

export type LogLevel = 'error' | 'warning' | 'info';

/** Which part of the engine a record is about. */
export type LogArea = 'engine' | 'client' | 'shell' | 'pane' | 'mirror' | 'model' | 'hook' | 'audit' | 'settings' | 'session' | 'window' | 'telemetry' | 'history' | 'watchers' | 'voice';

export interface LogRecord {
  time: string;
  level: LogLevel;
  area: LogArea;
  message: string;
  /** An error's stack, or more text; scrubbed like the message. */
  detail?: string;
}

export interface EngineLogOptions {
  /** The log file; missing folders are created (mode 0700). */
  file: string;
  /** At this size the file is renamed to `<file>.1` (replacing the older one) and a new one begun. */
  maxBytes?: number;
  /** Also given every line as it is written (`tandem web --verbose` prints them). */
  echo?: (line: string) => void;
  /** The clock, for tests. */
  now?: () => Date;
}

export const DEFAULT_LOG_MAX_BYTES = 1024 * 1024;
/** A record's text is cut to this many characters (a runaway stack must not fill the file). */
const MAX_FIELD_CHARS = 8_000;

export class EngineLog {
  private size: number | undefined;
  private writeFailed = false;

  constructor(private readonly options: EngineLogOptions) {}

  get file(): string {
    return this.options.file;
  }

  error(area: LogArea, message: string, detail?: unknown): void {
    this.write('error', area, message, detail);
  }

  warning(area: LogArea, message: string, detail?: unknown): void {
    this.write('warning', area, message, detail);
  }

  info(area: LogArea, message: string, detail?: unknown): void {
    this.write('info', area, message, detail);
  }

  /** Never throws: a log that cannot be written must not take anything else down. */
  private write(level: LogLevel, area: LogArea, message: string, detail: unknown): void {
    const record: LogRecord = {
      time: (this.options.now?.() ?? new Date()).toISOString(),
      level,
      area,
      message: clean(message),
    };
    const detailText = describeDetail(detail);
    if (detailText) record.detail = clean(detailText);
    const line = `${JSON.stringify(record)}\n`;
    this.options.echo?.(line);
    try {
      this.rotateIfFull(Buffer.byteLength(line));
      appendFileSync(this.options.file, line, { mode: 0o600 });
      this.size = (this.size ?? 0) + Buffer.byteLength(line);
      this.writeFailed = false;
    } catch (error) {
      if (!this.writeFailed) process.stderr.write(`tandem: the engine log ${this.options.file} cannot be written: ${(error as Error).message}\n`);
      this.writeFailed = true;
    }
  }

  private rotateIfFull(adding: number): void {
    if (this.size === undefined) {
      mkdirSync(dirname(this.options.file), { recursive: true, mode: 0o700 });
      this.size = fileSize(this.options.file);
    }
    if (this.size + adding <= (this.options.maxBytes ?? DEFAULT_LOG_MAX_BYTES)) return;
    if (this.size > 0) renameSync(this.options.file, `${this.options.file}.1`);
    this.size = 0;
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function describeDetail(detail: unknown): string | undefined {
  if (detail === undefined || detail === null) return undefined;
  if (detail instanceof Error) return detail.stack ?? `${detail.name}: ${detail.message}`;
  return typeof detail === 'string' ? detail : safeJson(detail);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function clean(text: string): string {
  const scrubbed = scrubSecrets(text).text;
  return scrubbed.length > MAX_FIELD_CHARS ? `${scrubbed.slice(0, MAX_FIELD_CHARS)}… (${scrubbed.length - MAX_FIELD_CHARS} more characters)` : scrubbed;
}
