import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HistoryEntry } from '../../src/shared/history';
import { importRendererModule } from './support/rendererModule';

type PreviewModule = typeof import('../../src/renderer/src/history/HistoryPreview');
type ListModule = typeof import('../../src/renderer/src/history/HistoryResultList');
type ActionsModule = typeof import('../../src/renderer/src/history/HistoryActionBar');
type ChipsModule = typeof import('../../src/renderer/src/history/HistoryChips');
type FiltersModule = typeof import('../../src/renderer/src/history/historyFilters');

// The overlay's parts rendered to the HTML the browser gets (no DOM here): a result row with
// its facts, the preview as text only, the action buttons with their keys and the reasons
// they are off, the chips. Clicking and typing are covered by e2e/history-search.spec.ts.

let preview: PreviewModule;
let list: ListModule;
let actions: ActionsModule;
let chips: ChipsModule;
let filters: FiltersModule;

beforeAll(async () => {
  vi.stubGlobal('window', { ...globalThis, tandemElectron: undefined });
  vi.stubGlobal('navigator', { platform: 'Linux x86_64', userAgent: 'vitest', maxTouchPoints: 0 });
  preview = await importRendererModule<PreviewModule>('history/HistoryPreview.tsx');
  list = await importRendererModule<ListModule>('history/HistoryResultList.tsx');
  actions = await importRendererModule<ActionsModule>('history/HistoryActionBar.tsx');
  chips = await importRendererModule<ChipsModule>('history/HistoryChips.tsx');
  filters = await importRendererModule<FiltersModule>('history/historyFilters.ts');
});

afterAll(() => vi.unstubAllGlobals());

function entry(overrides: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    id: 7,
    command: 'make test',
    cwd: '/srv/app',
    host: 'box',
    otherHost: false,
    shell: 'bash',
    startedAt: Date.now() - 5 * 60_000,
    durationMs: 1_200,
    exitCode: 2,
    author: 'agent-step',
    decision: 'approved',
    rule: null,
    gitBranch: null,
    repoRoot: null,
    imported: false,
    outputDigest: 'error: 3 tests failed',
    digestCut: false,
    blockId: null,
    ...overrides,
  };
}

describe('a result row', () => {
  it('shows the command, where, when (exact time on hover), exit code marked failed, duration and who', () => {
    const html = renderToStaticMarkup(createElement(list.HistoryResultList, { records: [entry()], selected: 0, onSelect: () => {}, onChoose: () => {} }));
    expect(html).toContain('data-command="make test"');
    expect(html).toContain('aria-selected="true"');
    expect(html).toContain('history-result--failure');
    expect(html).toContain('aria-label="failed"');
    expect(html).toContain('/srv/app');
    expect(html).toContain('5 min ago');
    expect(html).toMatch(/<time[^>]*title="\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"/);
    expect(html).toContain('exit 2');
    expect(html).toContain('1.20 s');
    expect(html).toContain('agent step');
  });

  it("another host's record shows its host before its directory; this machine's does not", () => {
    const remote = renderToStaticMarkup(createElement(list.HistoryResultList, { records: [entry({ host: 'db1', otherHost: true, cwd: '/home/alice' })], selected: 0, onSelect: () => {}, onChoose: () => {} }));
    expect(remote).toMatch(/data-testid="history-host" title="Ran on db1">db1<\/span><span class="history-result__cwd" title="\/home\/alice">\/home\/alice</);
    const local = renderToStaticMarkup(createElement(list.HistoryResultList, { records: [entry()], selected: 0, onSelect: () => {}, onChoose: () => {} }));
    expect(local).not.toContain('history-host');
    expect(renderToStaticMarkup(createElement(preview.HistoryPreview, { record: entry({ host: 'db1', otherHost: true }) }))).toContain('on db1 · bash');
  });

  it('the record the neighbours are shown around is marked', () => {
    const html = renderToStaticMarkup(createElement(list.HistoryResultList, { records: [entry({ id: 1, exitCode: 0 }), entry({ id: 7 })], selected: 1, anchorId: 7, onSelect: () => {}, onChoose: () => {} }));
    expect(html.match(/data-anchor="true"/g)).toHaveLength(1);
    expect(html).toMatch(/data-record-id="7"[^>]*data-anchor="true"/);
  });
});

describe('the preview', () => {
  it('renders the digest as text, never as HTML', () => {
    const html = renderToStaticMarkup(createElement(preview.HistoryPreview, { record: entry({ outputDigest: '<img src=x onerror="alert(1)"> done' }) }));
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt; done');
    expect(html).toContain('gate: approved');
  });

  it('says when no output was kept, and when the digest was cut', () => {
    expect(renderToStaticMarkup(createElement(preview.HistoryPreview, { record: entry({ outputDigest: null, imported: true }) }))).toContain('Imported: no output was kept.');
    expect(renderToStaticMarkup(createElement(preview.HistoryPreview, { record: entry({ digestCut: true }) }))).toContain('the rest of the digest is not shown');
  });
});

describe('the action buttons', () => {
  it('each shows its key', () => {
    const html = renderToStaticMarkup(createElement(actions.HistoryActionBar, { record: entry(), showingNeighbours: false }));
    for (const [label, key] of [
      ['Insert', 'Enter'],
      ['Run', 'Shift+Enter'],
      ['Copy', 'Alt+C'],
      ['Commands around it', 'Alt+N'],
      ['Open block', 'Alt+O'],
      ['Ask AI', 'Alt+A'],
      ['Forget', 'Shift+Delete'],
    ]) {
      expect(html).toContain(`${label} <kbd>${key}</kbd>`);
    }
  });

  it('"Open block" is off with the reason when the record is not in a pane', () => {
    const imported = renderToStaticMarkup(createElement(actions.HistoryActionBar, { record: entry({ imported: true }), showingNeighbours: false }));
    expect(imported).toMatch(/data-action="open" disabled="" title="Imported from a shell&#x27;s history file: it never ran in a pane"/);
    const earlier = renderToStaticMarkup(createElement(actions.HistoryActionBar, { record: entry(), showingNeighbours: false }));
    expect(earlier).toMatch(/data-action="open" disabled="" title="Not in any open pane: it ran in an earlier Tandem run or in a pane since closed"/);
  });

  it('with nothing selected every action is off', () => {
    const html = renderToStaticMarkup(createElement(actions.HistoryActionBar, { record: undefined, showingNeighbours: false }));
    expect(html.match(/disabled=""/g)).toHaveLength(7);
  });
});

describe('the chips', () => {
  it('"This repo" is off with the reason when the pane is in no repository', () => {
    const html = renderToStaticMarkup(
      createElement(chips.HistoryChips, { filters: filters.NO_FILTERS, scope: { cwd: '/tmp', host: 'box', repoRoot: null, repoUnknown: '/tmp is not in a git repository' } }),
    );
    expect(html).toMatch(/data-chip="repo" aria-pressed="false" disabled="" title="\/tmp is not in a git repository"/);
    expect(html).toMatch(/data-chip="failed" aria-pressed="false" title="Only commands that exited non-zero"/);
  });

  it('"This host" names the pane\'s host, a remote one while the pane is on it', () => {
    const html = renderToStaticMarkup(createElement(chips.HistoryChips, { filters: filters.NO_FILTERS, scope: { cwd: '/home/alice', host: 'db1', repoRoot: null } }));
    expect(html).toMatch(/data-chip="host" data-host="db1" aria-pressed="false" title="Only commands run on db1 /);
  });

  it('chips that are on say so', () => {
    const html = renderToStaticMarkup(
      createElement(chips.HistoryChips, { filters: { ...filters.NO_FILTERS, failed: true, thisRepo: true }, scope: { cwd: '/srv/app', host: 'box', repoRoot: '/srv/app' } }),
    );
    expect(html).toMatch(/data-chip="failed" aria-pressed="true"/);
    expect(html).toMatch(/data-chip="repo" aria-pressed="true" title="Only commands run in \/srv\/app"/);
  });
});
