import { afterEach, describe, expect, it } from 'vitest';
import type { PaneInfo } from '../../src/shared/protocol';
import { hostDetail, sshChoices } from '../../src/renderer/src/ssh/sshChoices';
import { shellReady } from '../../src/renderer/src/ssh/shellReady';
import { usePanesStore } from '../../src/renderer/src/terminal/panesStore';

const hosts = [
  { alias: 'web', hostName: 'web.example.com', user: 'alice', port: 2222 },
  { alias: 'db', hostName: '10.0.0.9' },
  { alias: 'bare' },
];

describe('sshChoices', () => {
  it('lists every host in config order for an empty query, with user@hostname:port beside the alias', () => {
    expect(sshChoices(hosts, '')).toEqual([
      { destination: 'web', detail: 'alice@web.example.com:2222', typed: false },
      { destination: 'db', detail: '10.0.0.9', typed: false },
      { destination: 'bare', detail: '', typed: false },
    ]);
    expect(hostDetail({ alias: 'x', user: 'root' })).toBe('root@x');
  });

  it('filters fuzzily on the alias and its details, and offers what was typed when it names no host', () => {
    const choices = sshChoices(hosts, 'exam');
    expect(choices.map((choice) => choice.destination)).toEqual(['web', 'exam']);
    expect(choices[1]).toEqual({ destination: 'exam', detail: 'not in ~/.ssh/config', typed: true, problem: undefined });
    expect(sshChoices(hosts, 'db').filter((choice) => choice.typed)).toEqual([]);
    expect(sshChoices(hosts, ' bob@new-host ').at(-1)).toMatchObject({ destination: 'bob@new-host', typed: true, problem: undefined });
  });

  it('offers a typed text that is no destination only as a refused line, saying why', () => {
    for (const typed of ['-oProxyCommand=id', 'web; rm -rf ~', 'host -p 22']) {
      const last = sshChoices(hosts, typed).at(-1)!;
      expect(last.typed).toBe(true);
      expect(last.problem).toMatch(/one word|cannot start with "-"/);
      expect(last.detail).toBe(last.problem);
    }
  });
});

function pane(paneId: number, change: Partial<PaneInfo> = {}): PaneInfo {
  return { paneId, shell: '/bin/bash', shellName: 'bash', integration: true, cwd: '/', state: 'IDLE', cols: 80, rows: 24, streamOffset: 0, ...change };
}

describe('shellReady', () => {
  afterEach(() => usePanesStore.getState().clear());

  it('waits for the first prompt of a shell with integration', async () => {
    usePanesStore.getState().addPane(pane(1));
    let ready: boolean | undefined;
    const waiting = shellReady(1).then((value) => (ready = value));
    usePanesStore.getState().applyState({ paneId: 1, state: 'EXECUTING', cwd: '/', integration: true });
    await Promise.resolve();
    expect(ready).toBeUndefined();
    usePanesStore.getState().applyState({ paneId: 1, state: 'PROMPT', cwd: '/', integration: true });
    await waiting;
    expect(ready).toBe(true);
  });

  it('does not wait for a prompt a shell without integration never reports', async () => {
    usePanesStore.getState().addPane(pane(2, { integration: false }));
    expect(await shellReady(2)).toBe(true);
    usePanesStore.getState().addPane(pane(3));
    const waiting = shellReady(3);
    // The integration went silent: blocks now come from heuristics.
    usePanesStore.getState().applyState({ paneId: 3, state: 'IDLE', cwd: '/', integration: false });
    expect(await waiting).toBe(true);
  });

  it('gives up when the shell exits or its pane closes before a prompt', async () => {
    usePanesStore.getState().addPane(pane(4));
    const exited = shellReady(4);
    usePanesStore.getState().markExited({ paneId: 4, exitCode: 1, message: 'gone' });
    expect(await exited).toBe(false);
    usePanesStore.getState().addPane(pane(5));
    const closed = shellReady(5);
    usePanesStore.getState().removePane(5);
    expect(await closed).toBe(false);
    expect(await shellReady(99)).toBe(false);
  });
});
