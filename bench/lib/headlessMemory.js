// Run as a child process: `node headlessMemory.js N cols rows scrollback`. Creates one
// @xterm/headless terminal filled with `seq 1 10000` output, prints its RSS, then N-1 more,
// prints RSS again (JSON on stdout). The per-terminal reference for the engine's panes.
import headless from '@xterm/headless';

const [count = 4, cols = 120, rows = 40, scrollback = 10_000] = process.argv.slice(2).map(Number);
const SETTLE_MS = 1_500;
const seq = Array.from({ length: 10_000 }, (_, i) => `${i + 1}\r\n`).join('');
const terminals = [];

async function fill() {
  const term = new headless.Terminal({ cols, rows, scrollback, allowProposedApi: true });
  terminals.push(term);
  await new Promise((resolve) => term.write(seq, resolve));
}

await fill();
await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
const one = process.memoryUsage().rss;
for (let i = 1; i < count; i++) await fill();
await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
const all = process.memoryUsage().rss;
process.stdout.write(JSON.stringify({ one, all, count, lines: terminals[0].buffer.normal.length }) + '\n');
