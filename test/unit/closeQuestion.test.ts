import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSettings, updateSettings } from '../../src/main/settings/configFile';
import { runningInPane, type PaneRunningSource } from '../../src/main/panes/runningInPane';
import { closeQuestion, type PaneRunning } from '../../src/shared/closeQuestion';
import type { Block } from '../../src/shared/blocks';
import { DEFAULT_SETTINGS, SETTING_LIMITS } from '../../src/shared/settings';
import { useTempConfigFile } from '../support/tempConfigFile';

const configFile = useTempConfigFile('tandem-close-');

describe('[terminal] confirm_close', () => {
  it('defaults to "running" and takes "always" and "never"', () => {
    expect(DEFAULT_SETTINGS.terminal.confirm_close).toBe('running');
    expect(loadSettings(configFile()).settings.terminal.confirm_close).toBe('running');
    expect(loadSettings(configFile('[terminal]\nconfirm_close = "always"\n')).settings.terminal.confirm_close).toBe('always');
    expect(loadSettings(configFile('[terminal]\nconfirm_close = "never"\n')).settings.terminal.confirm_close).toBe('never');
    expect(SETTING_LIMITS.confirmClose).toEqual(['running', 'always', 'never']);
  });

  it('refuses any other value with its line, and keeps asking (the default) meanwhile', () => {
    const { settings, error } = loadSettings(configFile('[terminal]\nfont_size = 13\nconfirm_close = "sometimes"\n'));
    expect(error).toContain('terminal.confirm_close (line 3)');
    expect(settings.terminal.confirm_close).toBe('running');
    expect(loadSettings(configFile('[terminal]\nconfirm_close = false\n')).error).toContain('terminal.confirm_close');
  });

  it('is written in place by the settings screen', () => {
    const file = configFile('# mine\n[terminal]\nfont_size = 13\n');
    updateSettings(file, { terminal: { confirm_close: 'never' } });
    expect(readFileSync(file, 'utf8')).toBe('# mine\n[terminal]\nfont_size = 13\nconfirm_close = "never"\n');
  });
});

const idle: PaneRunning = { paneId: 1, alive: true, programs: [] };
const vim: PaneRunning = { paneId: 2, alive: true, programs: ['vim'] };
const python: PaneRunning = { paneId: 3, alive: true, programs: ['python3', 'vim'] };
const dead: PaneRunning = { paneId: 4, alive: false, programs: [] };

describe('the question before closing', () => {
  it('"running" asks only when programs run, naming each once', () => {
    expect(closeQuestion('running', 'pane', [idle])).toBeUndefined();
    expect(closeQuestion('running', 'pane', [vim])).toEqual({
      title: 'Close this pane?',
      message: 'vim is running in this pane. Closing ends it.',
      confirmLabel: 'Close Pane',
      programs: ['vim'],
    });
    expect(closeQuestion('running', 'tab', [idle, vim, python])).toMatchObject({
      title: 'Close this tab?',
      message: 'vim, python3 are running in this tab. Closing ends them.',
      confirmLabel: 'Close Tab',
    });
    expect(closeQuestion('running', 'window', [vim])).toMatchObject({ title: 'Quit Tandem?', message: 'vim is running in Tandem. Quitting ends it.', confirmLabel: 'Quit Tandem' });
  });

  it('"always" asks for idle shells too, but not for panes whose shell has exited', () => {
    expect(closeQuestion('always', 'pane', [idle])).toMatchObject({ message: 'Closing it ends its shell.', programs: [] });
    expect(closeQuestion('always', 'tab', [idle, dead])).toMatchObject({ message: 'Closing it ends the shells of its panes.' });
    expect(closeQuestion('always', 'pane', [dead])).toBeUndefined();
  });

  it('"never" never asks', () => {
    expect(closeQuestion('never', 'window', [vim, python])).toBeUndefined();
  });
});

function fakePane(overrides: Partial<PaneRunningSource>): PaneRunningSource {
  return { id: 5, exited: false, state: 'PROMPT', blocks: () => [], foregroundPrograms: () => [], ...overrides };
}

function block(command: string, ended: boolean): Block {
  return { id: `p5b${command.length}`, paneId: 5, command, cwd: '/', startedAt: 1, endedAt: ended ? 2 : undefined, trusted: true, outputOffset: 0, usedAlternateScreen: false };
}

describe('what closing a pane ends', () => {
  it('names the foreground programs, else the command line the shell runs itself, and an !auto run', () => {
    expect(runningInPane(fakePane({ state: 'EXECUTING', foregroundPrograms: () => ['make', 'cc1'] }), false).programs).toEqual(['make', 'cc1']);
    const loop = fakePane({ state: 'EXECUTING', blocks: () => [block('ls', true), block('while :;   do\n :; done', false)] });
    expect(runningInPane(loop, false).programs).toEqual(['“while :; do :; done”']);
    const long = fakePane({ state: 'EXECUTING', blocks: () => [block(`for f in ${'x '.repeat(40)}; do read; done`, false)] });
    expect(runningInPane(long, false).programs[0]).toHaveLength(42);
    expect(runningInPane(fakePane({}), true).programs).toEqual(['an !auto run']);
    expect(runningInPane(fakePane({}), false)).toEqual({ paneId: 5, alive: true, programs: [] });
    expect(runningInPane(fakePane({ exited: true, foregroundPrograms: () => ['vim'] }), true)).toEqual({ paneId: 5, alive: false, programs: [] });
  });
});
