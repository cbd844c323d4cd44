import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Block } from '../../../src/shared/blocks';
import { Emitter } from '../../../src/shared/events';
import { HistoryRequests } from '../../../src/main/engine/historyRequests';
import { HistoryStore } from '../../../src/main/history/historyStore';
import { BlockAuthors } from '../../../src/main/history/recording/blockAuthors';
import { BlockRecorder, type RecordedPane } from '../../../src/main/history/recording/blockRecorder';
import type { PaneWatcher } from '../../../src/main/panes/paneWatcher';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { repositoryWithCommits } from '../../support/gitRepository';

// The history of a pane that went onto another host with `ssh`: its blocks there are recorded
// with that host and shell (not this machine's, and no git facts of this machine's folder at
// the same path), a `host:` search finds them, and the overlay's "This host" is the pane's
// host. A real store (SQLite file); the pane is played by the test, the blocks are as the
// engine's tracker makes them (shell sessions in sshSessions.test.ts, real sshd in
// test/integration/ssh and e2e/ssh-remote-ui.spec.ts).

const SESSION = randomUUID();

class PlayedPane implements RecordedPane {
  readonly id = 4;
  readonly shellName = 'bash';
  remote: { host: string; user: string; shell: string } | undefined;
  cwd = '/';
  private readonly finished = new Emitter<Block>();
  readonly shown: Block[] = [];

  observe(watcher: PaneWatcher) {
    return this.finished.event((block) => watcher.blockFinished?.(block));
  }

  async outputOf() {
    return { text: 'output\n' };
  }

  blocks() {
    return this.shown;
  }

  finish(block: Block) {
    this.shown.push(block);
    this.finished.fire(block);
  }
}

let dir: string;
let store: HistoryStore;
let pane: PlayedPane;
let recorder: BlockRecorder;
let ordinal = 0;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-remote-history-'));
  store = await HistoryStore.open({ file: join(dir, 'history.db') });
  pane = new PlayedPane();
  recorder = new BlockRecorder({ settings: () => DEFAULT_SETTINGS.history, store: async () => store, authors: new BlockAuthors(), host: hostname(), session: SESSION, report: (message) => expect.fail(message), batchMs: 10 });
  recorder.watch(pane);
});

afterEach(async () => {
  await recorder.flush();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function block(command: string, cwd: string, where: { host?: string; user?: string } = {}): Block {
  ordinal++;
  return { id: `p4b${ordinal}`, paneId: 4, command, cwd, ...where, startedAt: 1_000 + ordinal, endedAt: 2_000 + ordinal, exitCode: 0, trusted: true, outputOffset: ordinal, usedAlternateScreen: false };
}

async function stored() {
  await recorder.flush();
  const result = await store.search({});
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

describe('history of a pane on another host', () => {
  it("records a remote block with its host and the remote shell, without this machine's git facts for its path", async () => {
    // The same path is a git repository here: a remote block there is not in it.
    const repo = join(dir, 'repo');
    repositoryWithCommits(repo, 1);
    pane.finish(block('make here', repo));
    pane.remote = { host: 'db1', user: 'alice', shell: '/usr/bin/zsh' };
    pane.finish(block('make there', repo, { host: 'db1', user: 'alice' }));
    pane.remote = undefined;

    const records = await stored();
    expect(records.find((record) => record.command === 'make here')).toMatchObject({ host: hostname(), shell: 'bash', repoRoot: repo });
    expect(records.find((record) => record.command === 'make there')).toMatchObject({ host: 'db1', shell: 'zsh', cwd: repo, repoRoot: null, gitBranch: null });

    const onDb1 = await store.search({ host: 'db1' });
    expect(onDb1.ok && onDb1.value.map((record) => record.command)).toEqual(['make there']);
    const here = await store.search({ host: hostname() });
    expect(here.ok && here.value.map((record) => record.command)).toEqual(['make here']);
  });

  it('a remote that gave no name is still not this machine', async () => {
    pane.remote = { host: '', user: '', shell: '' };
    pane.finish(block('uptime', '/', { host: '' }));
    expect(await stored()).toMatchObject([{ command: 'uptime', host: 'unnamed-host', shell: null }]);
  });

  it("the overlay's scope is the pane's host, and each result says whether it ran on another host", async () => {
    const requests = new HistoryRequests({
      history: { search: (query) => store.search(query), neighbours: (id, count) => store.neighbours(id, count), forget: (which) => store.forget(which), session: SESSION, recorder },
      pane: (paneId) => (paneId === pane.id ? pane : undefined),
    });
    pane.cwd = '/home/me';
    expect(await requests.scope({ paneId: 4 })).toMatchObject({ host: hostname(), cwd: '/home/me' });
    expect(await requests.scope({ paneId: 4 })).not.toHaveProperty('remote');
    pane.finish(block('ls', '/home/me'));

    pane.remote = { host: 'db1', user: 'alice', shell: '/bin/bash' };
    pane.cwd = '/srv';
    expect(await requests.scope({ paneId: 4 })).toEqual({ cwd: '/srv', host: 'db1', remote: true, repoRoot: null, repoUnknown: 'The pane is on db1: its repository is not looked up from this machine' });
    pane.finish(block('ls /srv', '/srv', { host: 'db1', user: 'alice' }));

    const { records } = await requests.search({ query: 'ls' });
    expect(records.map(({ command, host, otherHost }) => ({ command, host, otherHost })).sort((a, b) => a.command.localeCompare(b.command))).toEqual([
      { command: 'ls', host: hostname(), otherHost: false },
      { command: 'ls /srv', host: 'db1', otherHost: true },
    ]);
    // The "This host" chip on db1 finds db1's commands only.
    expect((await requests.search({ query: 'ls', host: 'db1' })).records.map((record) => record.command)).toEqual(['ls /srv']);
  });
});
