import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Emitter } from '../../../src/shared/events';
import { ProjectTrust } from '../../../src/main/watchers/projectTrust';
import type { UserBlock } from '../../../src/main/watchers/triggers/userBlocks';
import type { WatcherFiring } from '../../../src/main/watchers/watcherFiring';
import { WatchersService } from '../../../src/main/watchers/watchersService';
import { waitUntil } from '../../support/waitUntil';

describe('WatchersService', () => {
  let dir: string;
  let service: WatchersService | undefined;
  const firings: WatcherFiring[] = [];
  const blocks = new Emitter<UserBlock>();

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tandem-watchers-service-'));
    mkdirSync(join(dir, 'config'));
    firings.length = 0;
  });
  afterEach(() => {
    service?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  function start(watchersToml: string, onFiring: (firing: WatcherFiring) => Promise<void> | void = (firing) => void firings.push(firing)) {
    writeFileSync(join(dir, 'config', 'watchers.toml'), watchersToml);
    service = new WatchersService({
      userFile: join(dir, 'config', 'watchers.toml'),
      home: dir,
      trust: new ProjectTrust(join(dir, 'data', 'trusted-watchers.json')),
      finishedBlocks: blocks.event,
      focusedPane: () => undefined,
      onFiring,
      log: { info: () => undefined, warning: () => undefined },
    });
    return service;
  }

  const VOICE = `[[watcher]]\nname = "deploy"\ntrigger = "voice"\nphrase = "deploy to staging"\ndebounce = "0ms"\ninstruction = "# deploy"\n[[watcher]]\nname = "quiet"\ntrigger = "voice"\nphrase = "deploy to staging"\nenabled = false\ninstruction = "x"\n`;

  it('voicePhraseHeard fires the enabled voice watchers whose phrase the transcript says, and names them', async () => {
    const watchers = start(VOICE);
    expect(watchers.voicePhraseHeard('what is the weather')).toEqual([]);
    expect(watchers.voicePhraseHeard('OK, deploy to staging please')).toEqual(['deploy']);
    await waitUntil(() => firings.length === 1, 'the firing');
    expect(firings[0]).toMatchObject({ watcher: { name: 'deploy', action: 'notify' }, source: 'user', cwd: dir, reason: 'heard "deploy to staging"', details: 'The user said: "OK, deploy to staging please"' });
    expect(watchers.view().watchers.find((watcher) => watcher.name === 'deploy')!.lastFired?.reason).toBe('heard "deploy to staging"');
  });

  it('a watcher switched off at run time does not fire; switched on, it does; the file is not touched', async () => {
    const watchers = start(VOICE);
    expect(watchers.setEnabled('deploy', false)).toBe(true);
    expect(watchers.voicePhraseHeard('deploy to staging')).toEqual([]);
    expect(watchers.setEnabled('quiet', true)).toBe(true);
    expect(watchers.voicePhraseHeard('deploy to staging')).toEqual(['quiet']);
    expect(watchers.view().watchers.map((watcher) => [watcher.name, watcher.enabled])).toEqual([
      ['deploy', false],
      ['quiet', true],
    ]);
    expect(watchers.setEnabled('nope', true)).toBe(false);
  });

  it('switched off while a firing waits for its run, the waiting firing goes with it', async () => {
    let endRun: () => void = () => undefined;
    const watchers = start(VOICE, (firing) => {
      firings.push(firing);
      return new Promise<void>((resolve) => (endRun = resolve));
    });
    watchers.voicePhraseHeard('deploy to staging');
    await waitUntil(() => firings.length === 1, 'the first firing');
    watchers.voicePhraseHeard('deploy to staging again');
    await waitUntil(() => watchers.view().watchers[0]!.held !== undefined, 'the hold');
    watchers.setEnabled('deploy', false);
    endRun();
    await waitUntil(() => watchers.view().watchers[0]!.held === undefined, 'the hold to end');
    expect(firings).toHaveLength(1);
  });

  it('the view says why a firing is held while its run goes, and the secrets in details are scrubbed', async () => {
    let endRun: () => void = () => undefined;
    const watchers = start(VOICE, (firing) => {
      firings.push(firing);
      return new Promise<void>((resolve) => (endRun = resolve));
    });
    watchers.voicePhraseHeard('deploy to staging with token ghp_R8xk2Lq9ZpT4vN7mW3cY6bH1jF5dS0aE2gK8');
    await waitUntil(() => firings.length === 1, 'the first firing');
    expect(firings[0]!.details).not.toContain('ghp_R8xk2Lq9ZpT4vN7mW3cY6bH1jF5dS0aE2gK8');
    expect(firings[0]!.details).toContain('REDACTED');
    watchers.voicePhraseHeard('deploy to staging again');
    await waitUntil(() => watchers.view().watchers[0]!.held !== undefined, 'the hold');
    expect(watchers.view().watchers[0]!.held).toMatchObject({ kind: 'running' });
    endRun();
    await waitUntil(() => firings.length === 2, 'the held firing, after the run');
    expect(firings[1]!.reason).toBe('heard "deploy to staging"');
  });

  it('a schedule shows its next run; screen_change without a desktop says so; a missing folder says so; a file watcher says starting until it watches', async () => {
    mkdirSync(join(dir, 'present'), { recursive: true });
    const watchers = start(
      `[[watcher]]\nname = "morning"\ntrigger = "schedule"\ncron = "0 9 * * *"\ninstruction = "x"\n` +
        `[[watcher]]\nname = "screen"\ntrigger = "screen_change"\ntitle = "build"\ninstruction = "x"\n` +
        `[[watcher]]\nname = "files"\ntrigger = "file_change"\npath = "nowhere/**"\ninstruction = "x"\n` +
        `[[watcher]]\nname = "present"\ntrigger = "file_change"\npath = "present/**"\ninstruction = "x"\n`,
    );
    const view = () => Object.fromEntries(watchers.view().watchers.map((watcher) => [watcher.name, watcher]));
    expect(view().morning!.nextRun).toBeGreaterThan(Date.now());
    expect(view().present!.inactive).toBe('starting (a save is not seen until its folders are watched)');
    await waitUntil(() => view().screen!.inactive !== undefined, 'the screen watcher’s reason');
    expect(view().screen!.inactive).toBe('screen_change needs a desktop, and this Tandem has none');
    await waitUntil(() => view().files!.inactive !== undefined, 'the missing folder');
    expect(view().files!.inactive).toBe(`${join(dir, 'nowhere')} does not exist`);
    await waitUntil(() => view().present!.inactive === undefined, 'the present folder watched');
  });
});
