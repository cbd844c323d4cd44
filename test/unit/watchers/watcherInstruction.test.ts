import { describe, expect, it } from 'vitest';
import { watcherInstruction } from '../../../src/main/watchers/firing/watcherRun';
import type { WatcherFiring } from '../../../src/main/watchers/watcherFiring';
import { RunActivity, RUN_SETTLE_MS } from '../../../src/main/watchers/firing/runActivity';

const AWS = `AKIA${'Z2Y3X4W5V6U7T8S9'}`;

function firing(reason: string, details: string): WatcherFiring {
  return {
    watcher: { name: 'deploys', instruction: '# explain the failure', action: 'auto' } as WatcherFiring['watcher'],
    source: 'user',
    cwd: '/srv/app',
    reason,
    details,
    at: 0,
  };
}

describe('what a watcher run tells the model', () => {
  it('the instruction, then why the watcher fired; a secret on the command line or in the output is scrubbed', () => {
    const text = watcherInstruction(firing(`\`AWS_ACCESS_KEY_ID=${AWS} ./deploy\` exited 1 in pane 2`, `output:\nkey ${AWS} rejected`));
    expect(text.startsWith('# explain the failure\n\nThe watcher "deploys" fired: `AWS_ACCESS_KEY_ID=')).toBe(true);
    expect(text).toContain('./deploy` exited 1 in pane 2');
    expect(text).toContain('rejected');
    expect(text).not.toContain(AWS);
  });
});

describe("a watcher run's own file changes", () => {
  it('count under its folder while it runs and for the settle time after, not elsewhere and not later', () => {
    let now = 1_000;
    const activity = new RunActivity(() => now);
    expect(activity.owns('/p/a/x.txt')).toBe(false);
    activity.started('/p/a');
    expect(activity.owns('/p/a/x.txt')).toBe(true);
    expect(activity.owns('/p/a')).toBe(true);
    expect(activity.owns('/p/ab/x.txt')).toBe(false);
    expect(activity.owns('/p/x.txt')).toBe(false);
    activity.stopped('/p/a');
    now += RUN_SETTLE_MS;
    expect(activity.owns('/p/a/x.txt')).toBe(true);
    now += 1;
    expect(activity.owns('/p/a/x.txt')).toBe(false);
  });

  it('two runs in one folder: it stays theirs until the last one ends', () => {
    let now = 0;
    const activity = new RunActivity(() => now);
    activity.started('/p');
    activity.started('/p');
    activity.stopped('/p');
    now += RUN_SETTLE_MS * 10;
    expect(activity.owns('/p/x')).toBe(true);
  });
});
