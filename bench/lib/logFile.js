// A deterministic, colored, log-like file for throughput runs: SGR colors (16, 256 and
// truecolor), ISO timestamps, mixed line lengths (some wrap), some Unicode (accents, CJK,
// box drawing, a few emoji). Same seed → byte-identical file.
import { closeSync, openSync, statSync, writeSync, existsSync } from 'node:fs';

const WORDS = [
  'request', 'handled', 'upstream', 'cache', 'miss', 'hit', 'retry', 'backoff', 'timeout', 'connection',
  'accepted', 'closed', 'worker', 'queue', 'drained', 'flush', 'commit', 'rollback', 'lease', 'renewed',
  'shard', 'replica', 'leader', 'election', 'snapshot', 'compaction', 'bytes', 'latency', 'p99', 'ok',
  'données', 'über', 'naïve', 'façade', 'Größe', 'café', 'résumé', 'ñandú', 'Ωmega', 'λambda',
  '数据', '服务器', '請求', 'キャッシュ', '완료', '─┼─', '│', '✓', '✗', '→', '🚀', '🔥', '⚠️',
];
const LEVELS = [
  ['\x1b[32mINFO \x1b[0m', 60],
  ['\x1b[36mDEBUG\x1b[0m', 20],
  ['\x1b[33mWARN \x1b[0m', 12],
  ['\x1b[1;31mERROR\x1b[0m', 6],
  ['\x1b[7;35mFATAL\x1b[0m', 2],
];
const MODULES = ['http', 'db.pool', 'scheduler', 'auth', 'storage/s3', 'grpc', 'metrics', 'raft'];

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pickLevel(r) {
  let x = r * 100;
  for (const [text, weight] of LEVELS) {
    if (x < weight) return text;
    x -= weight;
  }
  return LEVELS[0][0];
}

/** Writes `size` bytes (cut at a line end just past it) to `path`; returns line count and byte size. */
export function writeLogFile(path, size = 50 * 1024 * 1024, seed = 42) {
  const random = mulberry32(seed);
  const fd = openSync(path, 'w');
  let time = Date.UTC(2024, 0, 1, 0, 0, 0);
  let written = 0;
  let lines = 0;
  let parts = [];
  let pending = 0;
  try {
    while (written + pending < size) {
      time += Math.floor(random() * 40);
      const mod = MODULES[Math.floor(random() * MODULES.length)];
      const color = 16 + Math.floor(random() * 216);
      // Mixed lengths: mostly short-to-medium, sometimes long enough to wrap twice.
      const shape = random();
      const wordCount = shape < 0.1 ? 0 : shape < 0.7 ? 3 + Math.floor(random() * 10) : shape < 0.95 ? 12 + Math.floor(random() * 20) : 40 + Math.floor(random() * 40);
      let message = '';
      for (let i = 0; i < wordCount; i++) {
        const word = WORDS[Math.floor(random() * WORDS.length)];
        const roll = random();
        if (roll < 0.05) message += `\x1b[38;2;${Math.floor(random() * 256)};${Math.floor(random() * 256)};200m${word}\x1b[39m `;
        else if (roll < 0.1) message += `\x1b[1m${word}\x1b[22m `;
        else if (roll < 0.15) message += `${Math.floor(random() * 1e6)} `;
        else message += word + ' ';
      }
      const line = `\x1b[90m${new Date(time).toISOString()}\x1b[0m ${pickLevel(random())} \x1b[38;5;${color}m[${mod}]\x1b[0m ${message.trimEnd()}\n`;
      parts.push(line);
      pending += Buffer.byteLength(line);
      lines++;
      if (pending > 1 << 20) {
        const chunk = Buffer.from(parts.join(''));
        writeSync(fd, chunk);
        written += chunk.length;
        parts = [];
        pending = 0;
      }
    }
    if (parts.length > 0) {
      const chunk = Buffer.from(parts.join(''));
      writeSync(fd, chunk);
      written += chunk.length;
    }
  } finally {
    closeSync(fd);
  }
  return { path, bytes: written, lines };
}

/** Reuses a file of the right size when a previous run left one (same seed, same bytes). */
export function ensureLogFile(path, size, seed) {
  if (existsSync(path) && statSync(path).size >= size && statSync(path).size < size + 4096) {
    return { path, bytes: statSync(path).size, lines: undefined };
  }
  return writeLogFile(path, size, seed);
}

/** What the file looks like after a tty with `onlcr` has passed it through: LF → CRLF. */
export function toCrlf(bytes) {
  let newlines = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) newlines++;
  const out = Buffer.allocUnsafe(bytes.length + newlines);
  let o = 0;
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 10) {
      bytes.copy(out, o, start, i);
      o += i - start;
      out[o++] = 13;
      out[o++] = 10;
      start = i + 1;
    }
  }
  bytes.copy(out, o, start);
  return out;
}
