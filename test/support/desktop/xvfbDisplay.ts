import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

/** Programs the desktop integration tests run; .ci/run installs them from apt. */
const REQUIRED = ['Xvfb', 'xdotool', 'xwd', 'xwininfo', 'xprop', 'xmessage', 'xterm', 'xclip', 'tesseract', 'identify'];

/** The required programs that are not installed (empty when the tests can run). */
export function missingDesktopPrograms(): string[] {
  return REQUIRED.filter((program) => spawnSync('sh', ['-c', `command -v ${program}`]).status !== 0);
}

export interface XvfbDisplay {
  /** ":N" */
  display: string;
  stop(): Promise<void>;
}

/**
 * A private Xvfb with one screen of the given size and a black root. `-displayfd` lets the
 * server pick a free display number and tell it, so tests never race for one.
 */
export function startXvfb(width = 1920, height = 1080): Promise<XvfbDisplay> {
  return new Promise((resolve, reject) => {
    const server: ChildProcess = spawn(
      'Xvfb',
      ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-br', '-noreset'],
      { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
    );
    let errors = '';
    let announced = '';
    server.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const displayFd = server.stdio[3] as NodeJS.ReadableStream;
    displayFd.on('data', (chunk: Buffer) => {
      announced += chunk.toString();
      if (!announced.includes('\n')) return;
      resolve({
        display: `:${announced.trim()}`,
        stop: () =>
          new Promise((done) => {
            if (server.exitCode !== null) return done();
            server.once('exit', () => done());
            server.kill('SIGTERM');
          }),
      });
    });
    server.once('exit', (code) => reject(new Error(`Xvfb exited with ${code} before announcing its display: ${errors.trim()}`)));
    server.once('error', reject);
  });
}

/** Polls an async `probe` until it returns a value (not undefined); fails naming `what`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
