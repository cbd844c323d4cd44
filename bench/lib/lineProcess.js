// A child process whose stdout is read line by line, each line stamped with its arrival on
// this process's performance.now() clock (so it compares with the model stub's request times).
// `--json` output of `tandem agent` is parsed as NDJSON; other lines are kept as text.
import { spawn } from 'node:child_process';

export class LineProcess {
  /** Every stdout line: { at, text, event (the parsed JSON object, or undefined) }. */
  lines = [];
  stderr = '';
  #partial = '';
  #checks = new Set();

  /** Spawns `node ...args`; `startedAt` is taken just before spawn. */
  constructor(args, { cwd, env, stdin = 'ignore' }) {
    this.startedAt = performance.now();
    this.child = spawn(process.execPath, args, { cwd, env, stdio: [stdin, 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk) => {
      const at = performance.now();
      const parts = (this.#partial + chunk).split('\n');
      this.#partial = parts.pop() ?? '';
      for (const text of parts.filter((line) => line.trim())) this.lines.push({ at, text, event: parseJson(text) });
      this.#poke();
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk) => (this.stderr += chunk));
    this.exited = new Promise((resolve, reject) => {
      this.child.once('error', reject);
      this.child.once('close', (code, signal) => {
        this.#poke();
        resolve({ code, signal });
      });
    });
    this.exited.catch(() => undefined);
  }

  /** Writes one JSON message and a newline to stdin; returns the time just before the write. */
  send(message) {
    const at = performance.now();
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
    return at;
  }

  /** The first line from index `from` on whose parsed event matches: { at, event, index }. */
  waitForEvent(predicate, what, { from = 0, ms = 20_000 } = {}) {
    return new Promise((resolve, reject) => {
      const check = () => {
        const index = this.lines.findIndex((line, i) => i >= from && line.event && predicate(line.event));
        if (index >= 0) {
          done();
          resolve({ ...this.lines[index], index });
        } else if (this.child.exitCode !== null || this.child.signalCode !== null) {
          done();
          reject(new Error(`the process exited (${this.child.exitCode ?? this.child.signalCode}) before ${what}. ${this.#tail()}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out after ${ms} ms waiting for ${what}. ${this.#tail()}`));
      }, ms);
      const done = () => {
        clearTimeout(timer);
        this.#checks.delete(check);
      };
      this.#checks.add(check);
      check();
    });
  }

  /** Resolves with the exit code; rejects when it does not exit within `ms` (the process is killed). */
  async exitCode(ms = 20_000) {
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        reject(new Error(`the process did not exit within ${ms} ms. ${this.#tail()}`));
      }, ms);
    });
    try {
      return (await Promise.race([this.exited, late])).code;
    } finally {
      clearTimeout(timer);
    }
  }

  kill() {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  #tail() {
    const events = this.lines.map((line) => line.event?.type ?? 'text').join(', ');
    return `Lines: ${events || 'none'}; stderr: ${this.stderr.trim().slice(-400) || 'empty'}`;
  }

  #poke() {
    for (const check of [...this.#checks]) check();
  }
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
