import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desktop } from '../../../src/main/desktop/desktop';
import { WindowExclusion } from '../../../src/main/desktop/privacy/windowExclusion';
import { X11Desktop } from '../../../src/main/desktop/x11/x11Desktop';
import { Emitter } from '../../../src/shared/events';
import { ProjectTrust } from '../../../src/main/watchers/projectTrust';
import type { UserBlock } from '../../../src/main/watchers/triggers/userBlocks';
import type { WatcherFiring } from '../../../src/main/watchers/watcherFiring';
import { WatchersService } from '../../../src/main/watchers/watchersService';
import { missingDesktopPrograms, startXvfb, type XvfbDisplay } from '../../support/desktop/xvfbDisplay';
import { waitUntil } from '../../support/waitUntil';

const missing = missingDesktopPrograms();

/** The real X11 desktop, with its captures and OCR readings counted (the edge: what the watcher asked of the screen). */
function counted(desktop: Desktop) {
  const counts = { screenshots: 0, readings: 0 };
  const wrapped: Desktop = Object.assign(Object.create(desktop) as Desktop, {
    screenshot: (...args: Parameters<Desktop['screenshot']>) => {
      counts.screenshots++;
      return desktop.screenshot(...args);
    },
    readText: (...args: Parameters<Desktop['readText']>) => {
      counts.readings++;
      return desktop.readText(...args);
    },
  });
  return { desktop: wrapped, counts };
}

describe.skipIf(missing.length > 0)(`screen_change watcher under Xvfb${missing.length > 0 ? ` (skipped: ${missing.join(', ')} not installed)` : ''}`, () => {
  let xvfb: XvfbDisplay;
  let scratch: string;
  const programs: ChildProcess[] = [];
  let service: WatchersService | undefined;

  beforeAll(async () => {
    xvfb = await startXvfb(1280, 800);
    scratch = mkdtempSync(join(tmpdir(), 'tandem-screen-watch-'));
  });
  afterAll(async () => {
    service?.dispose();
    for (const child of programs) if (child.exitCode === null) child.kill();
    await xvfb?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('fires once when "Build failed" appears in the window; unchanged pixels are not read again', async () => {
    const go = join(scratch, 'go');
    const terminal = spawn('xterm', ['-fa', 'DejaVu Sans Mono', '-fs', '18', '-bg', 'white', '-fg', 'black', '-geometry', '40x5+100+100', '-T', 'build log', '-e', 'sh', '-c', `echo '   compiling'; while [ ! -f '${go}' ]; do sleep 0.2; done; echo '   Build failed'; exec sleep 600`], {
      env: { ...process.env, DISPLAY: xvfb.display },
      stdio: 'ignore',
    });
    programs.push(terminal);
    const { desktop, counts } = counted(new X11Desktop(xvfb.display, new WindowExclusion()));
    const firings: WatcherFiring[] = [];
    writeFileSync(join(scratch, 'watchers.toml'), `[[watcher]]\nname = "build"\ntrigger = "screen_change"\ntitle = "build*"\npattern = "Build failed"\ninterval = "5s"\ndebounce = "0ms"\ninstruction = "# explain the failure"\n`);
    service = new WatchersService({
      userFile: join(scratch, 'watchers.toml'),
      home: scratch,
      trust: new ProjectTrust(join(scratch, 'trust.json')),
      finishedBlocks: new Emitter<UserBlock>().event,
      focusedPane: () => undefined,
      desktop,
      onFiring: (firing) => void firings.push(firing),
      log: { info: () => undefined, warning: () => undefined },
    });
    // The baseline reading, then two looks at the same pixels: no OCR for them.
    await waitUntil(() => counts.readings >= 1, 'the first reading', 60_000);
    const readingsAtRest = counts.readings;
    const shotsAtRest = counts.screenshots;
    await waitUntil(() => counts.screenshots >= shotsAtRest + 2, 'two more looks', 60_000);
    expect(counts.readings).toBe(readingsAtRest);
    expect(firings).toEqual([]);

    writeFileSync(go, '');
    await waitUntil(() => firings.length >= 1, 'the firing', 60_000);
    expect(firings[0]!.reason).toMatch(/^window "build log" \(XTerm\): .*Build failed/);
    expect(firings[0]!.details).toContain('Build failed');
    const readingsAfter = counts.readings;
    const shotsAfter = counts.screenshots;
    await waitUntil(() => counts.screenshots >= shotsAfter + 2, 'two looks after the firing', 60_000);
    expect(counts.readings).toBe(readingsAfter);
    expect(firings).toHaveLength(1);
    expect(service.view().watchers[0]!.inactive).toBeUndefined();
  }, 240_000);
});
