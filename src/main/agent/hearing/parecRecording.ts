import { spawn } from 'node:child_process';
import { VOICE_SAMPLE_RATE } from '../../../shared/voice';

/** Bytes of one second of 16 kHz mono s16le. */
const BYTES_PER_SECOND = VOICE_SAMPLE_RATE * 2;
/** How long parec may take to end after SIGINT before it is killed. */
const STOP_GRACE_MS = 3_000;

export interface Recording {
  /** Raw 16 kHz mono s16le samples; held in memory only, never written to disk. */
  pcm: Buffer;
  seconds: number;
  /** Stopped before its time (Esc, a cancelled plan). */
  stoppedEarly: boolean;
  /** parec ended on its own before its time: the recorded stream ended (its application stopped playing). */
  streamEnded: boolean;
}

/** What parec records: a source (`@DEFAULT_MONITOR@`, `@DEFAULT_SOURCE@`) or one stream playing into a sink (its sink input's index). */
export type ParecTarget = { device: string } | { sinkInput: number };

/**
 * Records `seconds` of a source or of one stream (`--monitor-stream`) with parec, stopped by
 * SIGINT at the time limit or when `signal` aborts. What was heard until then is kept either
 * way, and so it is when the stream ends first.
 */
export function recordWithParec(target: ParecTarget, seconds: number, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<Recording> {
  // A stream's monitor with --latency-msec=50 delivered about a quarter of the audio on PulseAudio 16; its default latency delivers all of it.
  const from = 'device' in target ? ['-d', target.device, '--latency-msec=50'] : [`--monitor-stream=${target.sinkInput}`];
  const limit = seconds * BYTES_PER_SECOND;
  return new Promise((resolve, reject) => {
    const child = spawn('parec', [...from, '--raw', `--rate=${VOICE_SAMPLE_RATE}`, '--channels=1', '--format=s16le'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    let stoppedEarly = false;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (early: boolean) => {
      if (child.exitCode !== null || child.signalCode !== null || killTimer) return;
      stoppedEarly = early;
      child.kill('SIGINT');
      killTimer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    };
    const timer = setTimeout(() => stop(false), seconds * 1000);
    const onAbort = () => stop(true);
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      const kept = chunk.subarray(0, Math.max(0, limit - bytes));
      chunks.push(kept);
      bytes += kept.length;
      if (bytes >= limit) stop(false);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()).length > 4_000 && (stderr = stderr.slice(-4_000)));
    const finish = () => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error) => {
      finish();
      reject(new Error(`parec could not start: ${error.message}`));
    });
    child.on('close', (code) => {
      finish();
      const pcm = Buffer.concat(chunks);
      // SIGINT makes parec exit non-zero; only a recording that never got going is a failure.
      if (pcm.length === 0 && code !== 0 && !stoppedEarly) reject(new Error(`parec failed: ${stderr.trim() || `exit ${code}`}`));
      else resolve({ pcm, seconds: pcm.length / BYTES_PER_SECOND, stoppedEarly, streamEnded: killTimer === undefined });
    });
    if (signal?.aborted) stop(true);
  });
}
