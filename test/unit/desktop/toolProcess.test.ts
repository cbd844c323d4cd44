import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DesktopError } from '../../../src/main/desktop/desktopError';
import { runTool } from '../../../src/main/desktop/toolProcess';

// A desktop tool (tesseract, xwd …) run for a request the user interrupts is killed at once,
// and the request rejects as `interrupted`. Real processes: sh and sleep.

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-tool-'));
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

describe('runTool with a signal', () => {
  it('aborting kills the running tool and rejects as interrupted', async () => {
    const pidFile = join(dir, 'pid');
    const abort = new AbortController();
    const running = runTool('sh', ['-c', `echo $$ > ${pidFile}; exec sleep 30`], { signal: abort.signal });
    await vi.waitFor(() => expect(existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n')).toBe(true), { timeout: 10_000 });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);
    abort.abort();
    const error = await running.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DesktopError);
    expect(error).toMatchObject({ code: 'interrupted', message: expect.stringContaining('sh was stopped') });
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 10_000 });
  });

  it('an aborted signal starts nothing', async () => {
    const abort = new AbortController();
    abort.abort();
    // Had it tried to start this (missing) tool, it would say it is not installed.
    await expect(runTool('tandem-no-such-tool', [], { signal: abort.signal })).rejects.toMatchObject({ code: 'interrupted' });
    await expect(runTool('tandem-no-such-tool', [])).rejects.toMatchObject({ code: 'unavailable' });
  });
});
