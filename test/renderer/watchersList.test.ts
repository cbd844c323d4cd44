import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Events } from '../../src/shared/protocol';
import type { WatcherView, WatchersView } from '../../src/shared/watchers';
import type { EngineConnection } from '../../src/renderer/src/transport/engineConnection';
import { holdEngineRequests, type SentRequest } from './support/heldRequests';
import { importRendererModule } from './support/rendererModule';

type WordsModule = typeof import('../../src/renderer/src/watchers/watcherWords');
type ListModule = typeof import('../../src/renderer/src/watchers/watchersList');
type StoreModule = typeof import('../../src/renderer/src/watchers/watchersStore');
type OverlayModule = typeof import('../../src/renderer/src/watchers/WatchersOverlay');

// The watchers list without a browser: how a watcher's state is put in words, what the list
// asks the engine for and when, and the HTML it renders. The engine connection is a stand-in
// at the edge whose answers the test releases by hand; e2e/watchers-list.spec.ts drives the
// real one in Chromium.

let words: WordsModule;
let list: ListModule;
let store: StoreModule;
let overlay: OverlayModule;

const sent: SentRequest[] = [];
const listeners = new Map<string, (payload: unknown) => void>();

beforeAll(async () => {
  await holdEngineRequests(sent);
  words = await importRendererModule<WordsModule>('watchers/watcherWords.ts');
  list = await importRendererModule<ListModule>('watchers/watchersList.ts');
  store = await importRendererModule<StoreModule>('watchers/watchersStore.ts');
  overlay = await importRendererModule<OverlayModule>('watchers/WatchersOverlay.tsx');
  list.wireWatchers({ on: (event: string, listener: (payload: unknown) => void) => listeners.set(event, listener) } as unknown as EngineConnection);
});

afterAll(() => vi.unstubAllGlobals());

beforeEach(() => {
  sent.length = 0;
  store.useWatchersList.getState().set({ open: false, view: undefined, error: undefined, switching: [] });
});

const NOW = new Date(2026, 10, 30, 12, 0, 0).getTime();

function watcher(overrides: Partial<WatcherView> = {}): WatcherView {
  return {
    name: 'tests',
    source: 'user',
    file: '/home/u/.config/tandem/watchers.toml',
    trigger: 'file_change',
    summary: 'src/**/*.ts in ~/proj',
    action: 'notify',
    instruction: 'run the tests',
    enabled: true,
    ...overrides,
  };
}

function viewOf(...watchers: WatcherView[]): WatchersView {
  return { files: [{ path: '/home/u/.config/tandem/watchers.toml', source: 'user' }], watchers };
}

function emit<E extends keyof Events>(event: E, payload: Events[E]): void {
  listeners.get(event)!(payload);
}

describe('watcher words', () => {
  it('says when a watcher last fired and why, and when a schedule runs next', () => {
    expect(words.lastFiredText(watcher(), NOW)).toBe('never since Tandem started');
    expect(words.lastFiredText(watcher({ lastFired: { at: NOW - 3 * 60_000, reason: 'src/a.ts changed' } }), NOW)).toBe('3 min ago: src/a.ts changed');
    expect(words.timeAgo(NOW - 2_000, NOW)).toBe('just now');
    expect(words.timeAgo(NOW - 3 * 3_600_000, NOW)).toBe('3 h ago');
    expect(words.nextRunText(watcher(), NOW)).toBeUndefined();
    const next = words.nextRunText(watcher({ trigger: 'schedule', nextRun: NOW + 90 * 60_000 }), NOW)!;
    expect(next).toMatch(/^13:30 \(in 2 h\)$|^01:30 PM \(in 2 h\)$/);
    expect(words.timeUntil(NOW + 40_000, NOW)).toBe('in 40 s');
    expect(words.timeUntil(NOW - 1, NOW)).toBe('due now');
  });

  it('says off, not watching (why) and held (why), in that order of importance', () => {
    expect(words.watcherState(watcher(), NOW)).toBeUndefined();
    expect(words.watcherState(watcher({ enabled: false, inactive: 'no folder' }), NOW)).toBe('off');
    expect(words.watcherState(watcher({ inactive: 'the folder src does not exist' }), NOW)).toBe('not watching: the folder src does not exist');
    expect(words.watcherState(watcher({ inactive: 'starting (a save is not seen until its folders are watched)' }), NOW)).toBe('starting (a save is not seen until its folders are watched)');
    expect(words.watcherState(watcher({ held: { kind: 'running', since: NOW } }), NOW)).toBe('held: its previous run is still going; one firing waits for it');
    expect(words.watcherState(watcher({ held: { kind: 'rate', until: NOW + 60_000, limit: 6 } }), NOW)).toMatch(/^held: 6 runs an hour reached, next possible /);
  });

  it('names the source, and says how to allow an untrusted project file and where a broken one is wrong', () => {
    expect(words.sourceLabel(watcher())).toBe('yours');
    expect(words.sourceLabel(watcher({ source: 'project', file: '/srv/app/.tandem/watchers.toml' }))).toBe('project /srv/app');
    expect(words.fileProblem({ path: '/srv/app/.tandem/watchers.toml', source: 'project', untrusted: true })).toContain('`tandem watchers allow /srv/app`');
    expect(words.fileProblem({ path: '/x/watchers.toml', source: 'user', error: '[[watcher]] #2, cron (line 14): bad' })).toBe(
      'cannot be used: [[watcher]] #2, cron (line 14): bad. The watchers it had before stay in effect.',
    );
    expect(words.fileProblem({ path: '/x/watchers.toml', source: 'user' })).toBeUndefined();
  });
});

describe('the list and the engine', () => {
  it('opening asks for the list; an answer overtaken by a newer one is dropped', async () => {
    list.openWatchersList();
    expect(store.useWatchersList.getState().open).toBe(true);
    expect(sent.map((request) => request.method)).toEqual(['watchers.list']);
    list.refreshWatchers();
    sent[1]!.answer(viewOf(watcher({ name: 'newer' })));
    sent[0]!.answer(viewOf(watcher({ name: 'older' })));
    await vi.waitFor(() => expect(store.useWatchersList.getState().view?.watchers[0]?.name).toBe('newer'));
    await Promise.resolve();
    expect(store.useWatchersList.getState().view?.watchers[0]?.name).toBe('newer');
  });

  it('a firing and a change refresh the list while it is open, and not while it is closed', () => {
    emit('watcher.fired', { firingId: 'f1', name: 'tests', source: 'user', action: 'notify', reason: 'a.ts changed', at: NOW });
    emit('watchers.changed', {});
    expect(sent).toEqual([]);
    list.openWatchersList();
    emit('watcher.fired', { firingId: 'f1', name: 'tests', source: 'user', action: 'notify', reason: 'a.ts changed', at: NOW });
    emit('watchers.changed', {});
    expect(sent.map((request) => request.method)).toEqual(['watchers.list', 'watchers.list', 'watchers.list']);
  });

  it('the switch sends watchers.setEnabled with the name, source and file, and shows the answer', async () => {
    const tests = watcher({ source: 'project', file: '/srv/app/.tandem/watchers.toml' });
    store.useWatchersList.getState().set({ open: true, view: viewOf(tests) });
    const done = list.setWatcherEnabled(tests, false);
    expect(sent[0]).toMatchObject({ method: 'watchers.setEnabled', params: { name: 'tests', source: 'project', file: '/srv/app/.tandem/watchers.toml', enabled: false } });
    expect(store.useWatchersList.getState().switching).toEqual([words.watcherKey(tests)]);
    sent[0]!.answer(viewOf({ ...tests, enabled: false }));
    await done;
    expect(store.useWatchersList.getState().view!.watchers[0]!.enabled).toBe(false);
    expect(store.useWatchersList.getState().switching).toEqual([]);
  });

  it('a refused switch says why and leaves the list as it was', async () => {
    store.useWatchersList.getState().set({ open: true, view: viewOf(watcher()) });
    const done = list.setWatcherEnabled(watcher(), false);
    sent[0]!.fail(new Error('There is no watcher "tests" in your watchers.toml'));
    await done;
    expect(store.useWatchersList.getState().error).toBe('tests was not switched off: There is no watcher "tests" in your watchers.toml');
    expect(store.useWatchersList.getState().view!.watchers[0]!.enabled).toBe(true);
  });
});

describe('the rendered list', () => {
  const render = (view: WatchersView | undefined, error?: string) =>
    renderToStaticMarkup(createElement(overlay.WatchersListBody, { view, error, switching: [], now: NOW }));

  it('shows each watcher with its source, trigger, action, switch, last fired, next run and hold', () => {
    const html = render(
      viewOf(
        watcher({ lastFired: { at: NOW - 60_000, reason: 'src/a.ts changed' } }),
        watcher({ name: 'morning', trigger: 'schedule', summary: 'cron 0 9 * * 1-5', action: 'auto', enabled: false, nextRun: undefined }),
        watcher({ name: 'busy', held: { kind: 'busy', limit: 2 } }),
      ),
    );
    expect(html).toContain('data-watcher="tests"');
    expect(html).toContain('yours');
    expect(html).toContain('src/**/*.ts in ~/proj');
    expect(html).toContain('1 min ago: src/a.ts changed');
    expect(html).toMatch(/data-watcher="morning".*aria-checked="false".*cron 0 9 \* \* 1-5/s);
    expect(html).toContain('held: 2 watcher runs are going (the most at once); it waits for one to end');
  });

  it('shows the file troubles first, an empty list says where to write watchers, and an error is an alert', () => {
    const html = render({
      files: [
        { path: '/home/u/.config/tandem/watchers.toml', source: 'user', error: '[[watcher]] #1, name (line 2): required' },
        { path: '/srv/app/.tandem/watchers.toml', source: 'project', untrusted: true },
      ],
      watchers: [],
    });
    expect(html).toContain('cannot be used: [[watcher]] #1, name (line 2): required');
    expect(html).toContain('tandem watchers allow /srv/app');
    expect(html).toContain('No watchers. Write them in <code>/home/u/.config/tandem/watchers.toml</code>');
    expect(render(undefined, 'The watchers cannot be listed: gone')).toContain('role="alert"');
  });
});
