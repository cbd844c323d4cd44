import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DesktopError } from '../../../src/main/desktop/desktopError';
import { runToolBatch } from '../../../src/main/desktop/toolBatch';

// Several tools started as one process (sh): each one's stdout or error, and an interrupted
// batch kills every tool in it. Real processes: sh, echo, printf and sleep.

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-batch-'));
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('runToolBatch', () => {
  it("gives each tool's own stdout, words passed as they are, and each failure as runTool would", async () => {
    const results = await runToolBatch([
      { command: 'echo', args: ["it's", 'a  b', '$HOME', '`true`'] },
      { command: 'sh', args: ['-c', 'echo partial; echo broken >&2; exit 3'] },
      { command: 'tandem-no-such-tool', args: [] },
      { command: 'printf', args: ['%s', ''] },
      { command: 'sh', args: ['-c', 'head -c 300000 /dev/zero'] },
    ]);
    expect(results[0]).toEqual(Buffer.from("it's a  b $HOME `true`\n"));
    expect(results[1]).toBeInstanceOf(DesktopError);
    expect(results[1]).toMatchObject({ code: 'failed', message: expect.stringMatching(/^sh exited with 3: .*broken/) });
    expect(results[2]).toMatchObject({ code: 'unavailable', message: 'tandem-no-such-tool is not installed' });
    expect(results[3]).toEqual(Buffer.alloc(0));
    expect((results[4] as Buffer).length).toBe(300_000);
  });

  it('aborting kills every tool of the batch and rejects as interrupted; an aborted signal starts nothing', async () => {
    const pidFile = (i: number) => join(dir, `pid${i}`);
    const abort = new AbortController();
    const running = runToolBatch(
      [0, 1].map((i) => ({ command: 'sh', args: ['-c', `echo $$ > ${pidFile(i)}; exec sleep 30`] })),
      { signal: abort.signal },
    );
    const pids = await vi.waitFor(
      () => {
        const read = [0, 1].map((i) => (existsSync(pidFile(i)) ? readFileSync(pidFile(i), 'utf8') : ''));
        expect(read.every((text) => text.endsWith('\n'))).toBe(true);
        return read.map(Number);
      },
      { timeout: 10_000 },
    );
    abort.abort();
    await expect(running).rejects.toMatchObject({ code: 'interrupted' });
    await vi.waitFor(() => expect(pids.filter(alive)).toEqual([]), { timeout: 10_000 });
    await expect(runToolBatch([{ command: 'tandem-no-such-tool', args: [] }], { signal: abort.signal })).rejects.toMatchObject({ code: 'interrupted' });
  });
});
