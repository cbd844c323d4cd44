import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChildAgentView } from '../../src/shared/agent';
import type { EngineConnection } from '../../src/renderer/src/transport/engineConnection';
import { importRendererModule } from './support/rendererModule';

type CardsModule = typeof import('../../src/renderer/src/ai/WatcherCards');
type StoreModule = typeof import('../../src/renderer/src/ai/watcherCardsStore');
type RequestsModule = typeof import('../../src/renderer/src/ai/watcherRequests');
type EngineModule = typeof import('../../src/renderer/src/app/engine');

// A watcher's firing in the AI panel, rendered to the HTML the browser gets: a notify card with
// Run / Dismiss, a run's card (the child agent's card, its asking steps answered with
// `watchers.answer`), Close once it ended. The engine connection is a stand-in at the edge.

let cards: CardsModule;
let store: StoreModule;
let requests: RequestsModule;
const sent: { method: string; params: unknown }[] = [];

beforeAll(async () => {
  vi.stubGlobal('window', { ...globalThis, tandemElectron: undefined });
  vi.stubGlobal('navigator', { platform: 'Linux x86_64' });
  const { setEngine } = await importRendererModule<EngineModule>('app/engine.ts');
  setEngine({
    async request(method: string, params: unknown) {
      sent.push({ method, params });
      return {};
    },
  } as unknown as EngineConnection);
  cards = await importRendererModule<CardsModule>('ai/WatcherCards.tsx');
  store = await importRendererModule<StoreModule>('ai/watcherCardsStore.ts');
  requests = await importRendererModule<RequestsModule>('ai/watcherRequests.ts');
});

afterAll(() => vi.unstubAllGlobals());

beforeEach(() => {
  sent.length = 0;
  store.useWatcherCards.setState({ cards: [] });
});

const run = (overrides: Partial<ChildAgentView> = {}): ChildAgentView => ({
  instruction: '# explain the failure',
  may: ['Only what your policy allows runs; a step that would ask waits here; RED steps are refused.'],
  depth: 1,
  state: 'running',
  steps: [{ index: 1, command: 'ls -a', status: 'done', exitCode: 0 }],
  filesChanged: [],
  asking: [{ id: 'r1', kind: 'command', command: 'touch x', purpose: 'make x', level: 'yellow', reasons: [], rule: 'builtin: yellow asks' }],
  ...overrides,
});

// Server rendering reads a zustand store's initial state: the cards in the store are rendered one by one, as WatcherCards does.
const render = () => store.useWatcherCards.getState().cards.map((card) => renderToStaticMarkup(createElement(cards.WatcherCardView, { card }))).join('');
const testIds = (html: string) => [...html.matchAll(/data-testid="([^"]*)"/g)].map((match) => match[1]);

describe('watcher cards in the AI panel', () => {
  it('a notify firing: "Watcher tests fired: …" with Run and Dismiss; ask and auto firings wait for their run', () => {
    expect(render()).toBe('');
    store.useWatcherCards.getState().fired({ firingId: 'f1', name: 'tests', source: 'user', action: 'notify', reason: 'src/a.ts changed', at: 1 });
    store.useWatcherCards.getState().fired({ firingId: 'f2', name: 'fixer', source: 'user', action: 'auto', reason: 'x', at: 2 });
    const html = render();
    expect(html).toContain('Watcher <em>tests</em> fired: src/a.ts changed');
    expect(html).toMatch(/data-testid="watcher-card" data-firing-id="f1" data-action="notify"/);
    expect(testIds(html)).toEqual(['watcher-card', 'watcher-run', 'watcher-dismiss']);
    expect(html).toMatch(/data-testid="watcher-run">Run</);
    expect(html).toMatch(/data-testid="watcher-dismiss">Dismiss</);
  });

  it("a run's card: the child agent card with its asking step and Stop; Close once it ended; null takes it away", () => {
    store.useWatcherCards.getState().runChanged({ firingId: 'f3', name: 'failures', action: 'auto', reason: '`npm test` exited 1 in pane 2', run: run() });
    let html = render();
    expect(html).toContain('Watcher <em>failures</em> fired: `npm test` exited 1 in pane 2');
    expect(testIds(html)).toContain('child-agent');
    expect(html).toMatch(/data-testid="child-approval" data-request-id="r1"/);
    expect(testIds(html)).toContain('watcher-stop');
    expect(testIds(html)).not.toContain('watcher-run');
    expect(testIds(html)).not.toContain('watcher-dismiss');

    store.useWatcherCards.getState().runChanged({ firingId: 'f3', name: 'failures', action: 'auto', reason: 'r', run: run({ state: 'done', asking: [], answer: 'All explained.' }) });
    html = render();
    expect(store.useWatcherCards.getState().cards).toHaveLength(1);
    expect(html).toMatch(/data-testid="watcher-dismiss">Close</);
    expect(html).toContain('All explained.');

    store.useWatcherCards.getState().runChanged({ firingId: 'f3', name: 'failures', action: 'auto', reason: 'r', run: null });
    expect(render()).toBe('');
  });

  it('Run while every run slot is taken: the card says it waits, without Run; its run replaces that when it starts', () => {
    store.useWatcherCards.getState().fired({ firingId: 'f4', name: 'tests', source: 'user', action: 'notify', reason: 'src/a.ts changed', at: 1 });
    store.useWatcherCards.getState().waitsForSlot({ firingId: 'f4', limit: 2 });
    let html = render();
    expect(html).toContain('Waits: 2 watcher runs are going already. It starts when one ends.');
    expect(testIds(html)).toEqual(['watcher-card', 'watcher-dismiss', 'watcher-waits-for-slot']);
    store.useWatcherCards.getState().runChanged({ firingId: 'f4', name: 'tests', action: 'notify', reason: 'src/a.ts changed', run: run() });
    html = render();
    expect(testIds(html)).not.toContain('watcher-waits-for-slot');
    expect(testIds(html)).toContain('child-agent');
  });

  it("the engine's cards replace the panel's on each connection", () => {
    store.useWatcherCards.getState().fired({ firingId: 'stale', name: 'old', source: 'user', action: 'notify', reason: 'r', at: 1 });
    store.useWatcherCards.getState().replace([
      { firingId: 'f5', name: 'tests', action: 'notify', reason: 'src/b.ts changed', waitsForSlot: { limit: 2 } },
      { firingId: 'f6', name: 'failures', action: 'auto', reason: 'x', run: run() },
    ]);
    expect(store.useWatcherCards.getState().cards.map((card) => card.firingId)).toEqual(['f5', 'f6']);
    expect(render()).toContain('Waits: 2 watcher runs');
  });

  it('Run, Dismiss and a decision go to the engine as watchers.run / watchers.dismiss / watchers.answer', async () => {
    store.useWatcherCards.getState().fired({ firingId: 'f1', name: 'tests', source: 'user', action: 'notify', reason: 'r', at: 1 });
    await requests.runWatcherFiring('f1');
    await requests.answerWatcherStep('f1', 'r1', 'deny', 'not now');
    await requests.dismissWatcherFiring('f1');
    expect(sent).toEqual([
      { method: 'watchers.run', params: { firingId: 'f1' } },
      { method: 'watchers.answer', params: { firingId: 'f1', requestId: 'r1', decision: 'deny', note: 'not now' } },
      { method: 'watchers.dismiss', params: { firingId: 'f1' } },
    ]);
    expect(store.useWatcherCards.getState().cards).toEqual([]);
  });
});
