import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HistoryEntry } from '../../src/shared/history';
import { keyChordProblem } from '../../src/shared/keyChord';
import { SettingsSchema } from '../../src/shared/settings';
import { holdEngineRequests, type SentRequest } from './support/heldRequests';
import { importRendererModule } from './support/rendererModule';

type FiltersModule = typeof import('../../src/renderer/src/history/historyFilters');
type LatestModule = typeof import('../../src/renderer/src/history/latestResponses');
type FormatModule = typeof import('../../src/renderer/src/history/recordFormat');
type KeysModule = typeof import('../../src/renderer/src/history/overlayKeys');
type QuestionModule = typeof import('../../src/renderer/src/history/historyQuestion');
type SearchModule = typeof import('../../src/renderer/src/history/historySearch');
type StoreModule = typeof import('../../src/renderer/src/history/historySearchStore');
type KeybindingsModule = typeof import('../../src/renderer/src/actions/keybindings');
type AppActionsModule = typeof import('../../src/renderer/src/actions/appActions');

// The overlay's logic without a browser: what a search asks the engine for, answers that come
// back out of order, how a record is shown, which key does what, and what "Ask AI" writes.
// The engine connection is a stand-in at the edge whose answers the test releases by hand.

let filters: FiltersModule;
let latest: LatestModule;
let format: FormatModule;
let keys: KeysModule;
let question: QuestionModule;
let searchModule: SearchModule;
let store: StoreModule;

const sent: SentRequest[] = [];

beforeAll(async () => {
  await holdEngineRequests(sent);
  filters = await importRendererModule<FiltersModule>('history/historyFilters.ts');
  latest = await importRendererModule<LatestModule>('history/latestResponses.ts');
  format = await importRendererModule<FormatModule>('history/recordFormat.ts');
  keys = await importRendererModule<KeysModule>('history/overlayKeys.ts');
  question = await importRendererModule<QuestionModule>('history/historyQuestion.ts');
  searchModule = await importRendererModule<SearchModule>('history/historySearch.ts');
  store = await importRendererModule<StoreModule>('history/historySearchStore.ts');
});

afterAll(() => vi.unstubAllGlobals());

beforeEach(() => {
  sent.length = 0;
});

function entry(overrides: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    id: 1,
    command: 'make test',
    cwd: '/home/ann/src/app',
    host: 'box',
    otherHost: false,
    shell: 'bash',
    startedAt: new Date(2026, 10, 29, 14, 3, 7).getTime(),
    durationMs: 2_500,
    exitCode: 0,
    author: 'you',
    decision: null,
    rule: null,
    gitBranch: null,
    repoRoot: null,
    imported: false,
    outputDigest: null,
    digestCut: false,
    blockId: null,
    ...overrides,
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('what a search asks for', () => {
  const now = new Date(2026, 10, 29, 15, 30);
  const scope = { cwd: '/home/ann/src/app', host: 'box', repoRoot: '/home/ann/src' };

  it('ranks from the pane directory; without chips it filters nothing', () => {
    expect(filters.searchParams('git', 'substring', filters.NO_FILTERS, scope, now)).toEqual({ query: 'git', match: 'substring', limit: filters.RESULT_LIMIT, from: '/home/ann/src/app' });
    expect(filters.searchParams('  ', 'fuzzy', filters.NO_FILTERS, undefined, now)).toEqual({ match: 'fuzzy', limit: filters.RESULT_LIMIT });
  });

  it('every chip becomes its filter', () => {
    const all = { failed: true, thisDirectory: true, thisRepo: true, thisHost: true, who: 'agent-step', time: 'today' } as const;
    expect(filters.searchParams('x', 'substring', all, scope, now)).toEqual({
      query: 'x',
      match: 'substring',
      limit: filters.RESULT_LIMIT,
      from: '/home/ann/src/app',
      failed: true,
      cwd: '/home/ann/src/app',
      repo: '/home/ann/src',
      host: 'box',
      author: 'agent-step',
      since: new Date(2026, 10, 29).getTime(),
    });
  });

  it("on a remote pane, This directory is that directory of the pane's host", () => {
    const remote = { cwd: '/tmp', host: 'db1', remote: true, repoRoot: null };
    expect(filters.searchParams('x', 'substring', { ...filters.NO_FILTERS, thisDirectory: true }, remote, now)).toMatchObject({ cwd: '/tmp', host: 'db1' });
    expect(filters.searchParams('x', 'substring', { ...filters.NO_FILTERS, thisDirectory: true }, { ...scope, cwd: '/tmp' }, now)).not.toHaveProperty('host');
  });

  it('the repo chip does nothing where the pane has no repository', () => {
    const params = filters.searchParams('x', 'substring', { ...filters.NO_FILTERS, thisRepo: true }, { ...scope, repoRoot: null }, now);
    expect(params).not.toHaveProperty('repo');
  });

  it('time ranges: today from local midnight, then 7 and 30 days back', () => {
    expect(filters.sinceOf('all', now)).toBeUndefined();
    expect(filters.sinceOf('today', now)).toBe(new Date(2026, 10, 29).getTime());
    expect(filters.sinceOf('7d', now)).toBe(now.getTime() - 7 * 86_400_000);
    expect(filters.sinceOf('30d', now)).toBe(now.getTime() - 30 * 86_400_000);
  });
});

describe('answers that come back out of order', () => {
  it('an older answer after a newer one is dropped; one before it is shown', () => {
    const responses = new latest.LatestResponses();
    const first = responses.next();
    const second = responses.next();
    const third = responses.next();
    expect(responses.accept(second)).toBe(true);
    expect(responses.accept(first)).toBe(false);
    expect(responses.isLatest(second)).toBe(false);
    expect(responses.accept(third)).toBe(true);
    expect(responses.isLatest(third)).toBe(true);
  });

  it('nothing asked before the overlay opened afresh is shown', () => {
    const responses = new latest.LatestResponses();
    const before = responses.next();
    responses.dropPending();
    expect(responses.accept(before)).toBe(false);
    expect(responses.accept(responses.next())).toBe(true);
  });

  it('typing "gi" then "git": the late answer for "gi" never replaces the results for "git"', async () => {
    searchModule.openHistorySearch();
    searchModule.setSearchText('gi');
    searchModule.setSearchText('git');
    const searches = sent.filter((request) => request.method === 'history.search');
    expect(searches.map((request) => request.params.query)).toEqual([undefined, 'gi', 'git']);
    const [, gi, git] = searches;
    git!.answer({ records: [entry({ id: 2, command: 'git status' })] });
    await flush();
    expect(store.useHistorySearch.getState().results.map((record) => record.command)).toEqual(['git status']);
    expect(store.useHistorySearch.getState().searching).toBe(false);
    gi!.answer({ records: [entry({ id: 3, command: 'gimp' })] });
    await flush();
    expect(store.useHistorySearch.getState().results.map((record) => record.command)).toEqual(['git status']);
  });

  it('a failed search shows its error in place of the results, not an empty list', async () => {
    searchModule.openHistorySearch();
    const [request] = sent.filter((item) => item.method === 'history.search');
    request!.fail(new Error('The history could not search: the history database could not be opened'));
    await flush();
    const state = store.useHistorySearch.getState();
    expect(state.error).toMatch(/could not be opened/);
    expect(state.results).toEqual([]);
  });
});

describe('how a record is shown', () => {
  const now = new Date(2026, 10, 29, 15, 30);

  it('when, relative, and the exact time for the tooltip', () => {
    expect(format.relativeTime(now.getTime() - 10_000, now)).toBe('just now');
    expect(format.relativeTime(now.getTime() - 5 * 60_000, now)).toBe('5 min ago');
    expect(format.relativeTime(now.getTime() - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(format.relativeTime(new Date(2026, 10, 28, 23, 0).getTime(), now)).toBe('yesterday');
    expect(format.relativeTime(new Date(2026, 10, 25, 9, 0).getTime(), now)).toBe('4 days ago');
    expect(format.relativeTime(new Date(2026, 9, 2, 9, 0).getTime(), now)).toBe('2026-10-02');
    expect(format.exactTime(new Date(2026, 10, 29, 14, 3, 7).getTime())).toBe('2026-11-29 14:03:07');
  });

  it('exit code, failure, duration, who and where', () => {
    expect(format.exitText(entry({ exitCode: 2 }))).toBe('exit 2');
    expect(format.exitStatus(entry({ exitCode: 2 }))).toBe('failure');
    expect(format.exitStatus(entry({ exitCode: 0 }))).toBe('success');
    expect(format.exitText(entry({ exitCode: null }))).toBe('exit ?');
    expect(format.exitStatus(entry({ exitCode: null }))).toBe('unknown');
    expect(format.durationText(2_500)).toBe('2.50 s');
    expect(format.durationText(null)).toBe('');
    expect(format.whoText(entry({ author: 'you' }))).toBe('you');
    expect(format.whoText(entry({ author: 'agent-step' }))).toBe('agent step');
    expect(format.whoText(entry({ author: 'auto-run' }))).toBe('auto run');
    expect(format.whoText(entry({ author: 'child-agent' }))).toBe('child agent');
    expect(format.whoText(entry({ author: 'you', imported: true }))).toBe('imported');
    expect(format.whoText(entry({ author: 'agent-step', imported: true }))).toBe('imported · agent step');
    expect(format.cwdText('/home/ann/src', '/home/ann')).toBe('~/src');
    expect(format.cwdText(null, '/home/ann')).toBe('?');
    expect(format.commandLine('for f in *\ndo echo $f\ndone')).toBe('for f in * ⏎ do echo $f ⏎ done');
  });

  it("an agent step's details name the gate's decision", () => {
    expect(format.detailLines(entry({ author: 'agent-step', decision: 'approved', rule: 'ask: rm', gitBranch: 'main' }))).toEqual(['box · bash · main', 'gate: approved (ask: rm)']);
  });
});

describe('keys', () => {
  const press = (key: string, code: string, mods: { shift?: boolean; alt?: boolean; ctrl?: boolean; meta?: boolean } = {}) =>
    keys.overlayCommand({ key, code, shiftKey: mods.shift ?? false, altKey: mods.alt ?? false, ctrlKey: mods.ctrl ?? false, metaKey: mods.meta ?? false });

  it('move, act and close', () => {
    expect(press('ArrowDown', 'ArrowDown')).toBe('down');
    expect(press('ArrowUp', 'ArrowUp')).toBe('up');
    expect(press('PageDown', 'PageDown')).toBe('pageDown');
    expect(press('PageUp', 'PageUp')).toBe('pageUp');
    expect(press('Enter', 'Enter')).toBe('insert');
    expect(press('Enter', 'Enter', { shift: true })).toBe('run');
    expect(press('Delete', 'Delete', { shift: true })).toBe('forget');
    expect(press('Escape', 'Escape')).toBe('close');
    expect(press('c', 'KeyC', { alt: true })).toBe('copy');
    expect(press('n', 'KeyN', { alt: true })).toBe('neighbours');
    expect(press('o', 'KeyO', { alt: true })).toBe('open');
    expect(press('a', 'KeyA', { alt: true })).toBe('ask');
    expect(press('z', 'KeyZ', { alt: true })).toBe('toggleMatch');
  });

  it('by position: Option+C on a Mac types "ç" and still copies', () => {
    expect(press('ç', 'KeyC', { alt: true })).toBe('copy');
  });

  it('typing, editing keys and the app shortcuts stay with the search field and the app', () => {
    expect(press('g', 'KeyG')).toBeUndefined();
    expect(press('G', 'KeyG', { shift: true })).toBeUndefined();
    expect(press('Delete', 'Delete')).toBeUndefined();
    expect(press('ArrowLeft', 'ArrowLeft')).toBeUndefined();
    expect(press('R', 'KeyR', { ctrl: true, shift: true })).toBeUndefined();
    expect(press('Enter', 'Enter', { ctrl: true })).toBeUndefined();
  });

  it('every action button shows its key', () => {
    expect(keys.overlayKeyLabel('insert')).toBe('Enter');
    expect(keys.overlayKeyLabel('run')).toBe('Shift+Enter');
    expect(keys.overlayKeyLabel('neighbours')).toBe('Alt+N');
  });
});

describe('opening it', () => {
  it('Ctrl+Shift+R and the palette\'s "Search History" open it; plain Ctrl+R is left to the shell', async () => {
    const keybindings = await importRendererModule<KeybindingsModule>('actions/keybindings.ts');
    const { findAction } = await importRendererModule<AppActionsModule>('actions/appActions.ts');
    expect(keybindings.actionForChord('Ctrl+Shift+R')).toBe('history.search');
    expect(keybindings.actionForChord('Ctrl+Shift+R', { inTextField: true })).toBe('history.search');
    expect(keybindings.actionForChord('Ctrl+R')).toBeUndefined();
    expect(findAction('history.search')).toMatchObject({ title: 'Search History' });
    expect(findAction('history.search')?.hidden).toBeUndefined();
  });
});

describe('the key from config.toml', () => {
  it('[history] search_key replaces Ctrl+Shift+R, and empty brings it back', async () => {
    const keybindings = await importRendererModule<KeybindingsModule>('actions/keybindings.ts');
    keybindings.setUserChord('history.search', 'alt+h');
    expect(keybindings.actionForChord('Alt+H')).toBe('history.search');
    expect(keybindings.actionForChord('Ctrl+Shift+R')).toBeUndefined();
    expect(keybindings.primaryChord('history.search')).toBe('Alt+H');
    // A chord the user chose wins over a default that has it.
    keybindings.setUserChord('history.search', 'Ctrl+Shift+P');
    expect(keybindings.actionForChord('Ctrl+Shift+P')).toBe('history.search');
    keybindings.setUserChord('history.search', undefined);
    expect(keybindings.actionForChord('Ctrl+Shift+R')).toBe('history.search');
    expect(keybindings.actionForChord('Ctrl+Shift+P')).toBe('palette.show');
    expect(keybindings.actionForChord('Alt+H')).toBeUndefined();
  });

  it('a chord that would take typing or the shell\'s Ctrl+R is refused with the reason', () => {
    expect(keyChordProblem('Ctrl+Shift+R')).toBeUndefined();
    expect(keyChordProblem('Alt+H')).toBeUndefined();
    expect(keyChordProblem('Cmd+Shift+F2')).toBeUndefined();
    expect(keyChordProblem('ctrl+r')).toBe("Ctrl+R is the shell's own history search; Tandem never takes it");
    expect(keyChordProblem('Shift+H')).toBe('a shortcut needs Ctrl, Alt or Cmd, or it would take a key you type');
    expect(keyChordProblem('H')).toBe('a shortcut needs Ctrl, Alt or Cmd, or it would take a key you type');
    expect(keyChordProblem('Hyper+H')).toBe('Hyper is not a modifier (Ctrl, Alt, Shift or Cmd)');
    expect(keyChordProblem('Ctrl+')).toBe('Ctrl+ names no key');
    expect(keyChordProblem('Ctrl+Banana')).toMatch(/^Banana is not a key name/);
    const refused = SettingsSchema.safeParse({ history: { search_key: 'Ctrl+R' } });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({ path: ['history', 'search_key'], message: "Ctrl+R is the shell's own history search; Tandem never takes it" });
    expect(SettingsSchema.parse({}).history.search_key).toBe('');
  });
});

describe('asking the AI about an old record', () => {
  it('states the command and its facts, and ends with the last lines of the digest', () => {
    const digest = Array.from({ length: 50 }, (_, index) => `line ${index + 1}`).join('\n');
    const text = question.aiQuestionAbout(entry({ command: 'npm ci', exitCode: 1, outputDigest: digest, cwd: '/srv/app' }));
    expect(text).toContain('About this command from my history (exit 1, 2.50 s, run by you, at 2026-11-29 14:03:07, in /srv/app):');
    expect(text).toContain('```\nnpm ci\n```');
    expect(text).toContain('What it printed (digest, cut):');
    expect(text).toContain('line 50');
    expect(text).not.toContain('line 20\n');
  });

  it('a command holding backticks gets a longer fence', () => {
    expect(question.aiQuestionAbout(entry({ command: 'echo ```' }))).toContain('````\necho ```\n````');
  });
});
