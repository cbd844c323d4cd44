import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { startScriptedModelServer, type ScriptedModelServer } from './modelServer';
import { makeTestHome, removeTestHome, testHomeEnv } from './testHome';
import { shellTimeout } from './shellTimeout';

export const TANDEM_BIN = join(__dirname, '../../bin/tandem.js');

/** A line `tandem agent` printed, parsed (NDJSON), with `type` at least. */
export type AgentEvent = { type: string } & Record<string, unknown>;

/** A running `tandem agent` process with its NDJSON output parsed as it comes. */
export class AgentProcess {
  readonly events: AgentEvent[] = [];
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private partial = '';
  private waiters: (() => void)[] = [];

  constructor(readonly child: ChildProcess) {
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (text: string) => {
      this.stdout += text;
      this.partial += text;
      const lines = this.partial.split('\n');
      this.partial = lines.pop() ?? '';
      // Lines of NDJSON are parsed; the terminal form and --quiet print text, kept in `stdout` only.
      for (const line of lines) if (line.startsWith('{')) this.events.push(JSON.parse(line) as AgentEvent);
      this.wake();
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      this.stderr += text;
    });
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => {
      this.wake();
      resolve({ code, signal });
    }));
  }

  /** Writes one NDJSON message to the agent's stdin. */
  send(message: unknown): void {
    this.child.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  /** The first event (from `from` on) that matches, once it has been printed. */
  async waitFor(predicate: (event: AgentEvent) => boolean, what: string, timeoutMs = 30_000, from = 0): Promise<AgentEvent> {
    const until = Date.now() + shellTimeout(timeoutMs);
    for (;;) {
      const found = this.events.slice(from).find(predicate);
      if (found) return found;
      if (this.child.exitCode !== null || this.child.signalCode !== null) throw new Error(`tandem agent exited (${this.child.exitCode ?? this.child.signalCode}) before ${what}; stderr: ${this.stderr}\nstdout: ${this.stdout.slice(-3000)}`);
      if (Date.now() > until) throw new Error(`Timed out waiting for ${what}; events so far: ${this.events.map((event) => event.type).join(', ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async exitCode(timeoutMs = 60_000): Promise<number | null> {
    const timer = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`tandem agent did not exit; stderr: ${this.stderr}\nevents: ${this.events.map((event) => event.type).join(', ')}`)), shellTimeout(timeoutMs)).unref());
    return (await Promise.race([this.exited, timer])).code;
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }
}

export interface AgentCliOptions {
  stdin?: string | 'inherit-closed' | 'pipe';
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/**
 * `tandem agent` as a user runs it — the built `bin/tandem.js` under plain Node, in a test
 * home of its own, the real SDK talking to the scripted model server on loopback. Register
 * once per file; everything is torn down after each test.
 */
export function useAgentCli() {
  const children: ChildProcess[] = [];
  let home: string | undefined;
  let model: ScriptedModelServer | undefined;
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await model?.close();
    model = undefined;
    if (home) removeTestHome(home);
    home = undefined;
  });

  async function setup() {
    if (!existsSync(join(__dirname, '../../out/main/cli.js'))) throw new Error('tandem agent tests run the built CLI: run `npm run build` first.');
    model = await startScriptedModelServer();
    home = makeTestHome('tandem-agent-');
    const env: NodeJS.ProcessEnv = { ...testHomeEnv(home), ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-ant-test', TANDEM_MODEL: 'claude-sonnet-5-5' };
    return { model, home, env };
  }

  function start(args: string[], env: NodeJS.ProcessEnv, options: AgentCliOptions = {}): AgentProcess {
    const child = spawn(process.execPath, [TANDEM_BIN, 'agent', ...args], {
      cwd: options.cwd ?? env.HOME,
      env: { ...env, ...options.env },
      stdio: [options.stdin === 'inherit-closed' ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    const agent = new AgentProcess(child);
    if (typeof options.stdin === 'string' && options.stdin !== 'pipe' && options.stdin !== 'inherit-closed') child.stdin!.end(options.stdin);
    return agent;
  }

  return { setup, start };
}
