import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildShellLaunch,
  findIntegrationAssets,
  integrationAssetsDir,
  shellKindOf,
  type ShellLaunch,
} from '../../../src/main/shell/shellLaunch';
import { makeTempDir, removeDir, writeFiles } from '../harness/shellSession';

const NONCE = 'abcdef0123456789abcdef0123456789';
const launches: ShellLaunch[] = [];
const dirs: string[] = [];
afterAll(() => {
  launches.forEach((launch) => launch.cleanup());
  dirs.forEach(removeDir);
});

function launch(overrides: Partial<Parameters<typeof buildShellLaunch>[0]> = {}): ShellLaunch {
  const result = buildShellLaunch({
    shellPath: '/usr/bin/bash',
    login: true,
    integration: true,
    nonce: NONCE,
    baseEnv: { PATH: '/usr/bin:/bin', HOME: '/home/someone', LANG: 'en_US.UTF-8' },
    cwd: '/tmp',
    ...overrides,
  });
  launches.push(result);
  return result;
}

describe('shellKindOf', () => {
  it.each([
    ['/usr/bin/bash', 'bash'],
    ['/bin/zsh', 'zsh'],
    ['/usr/local/bin/fish', 'fish'],
    ['-zsh', 'zsh'],
    ['C:\\Program Files\\Git\\bin\\bash.exe', 'bash'],
    ['/opt/homebrew/bin/bash5.2', 'bash'],
    ['zsh-5.9', 'zsh'],
    ['/bin/sh', 'other'],
    ['/usr/bin/dash', 'other'],
    ['/usr/bin/bashful', 'other'],
    ['/usr/bin/nu', 'other'],
  ])('%s is %s', (path, kind) => {
    expect(shellKindOf(path)).toBe(kind);
  });
});

describe('buildShellLaunch', () => {
  it('bash: POSIX mode with ENV pointing at our script, login flag, HISTFILE pinned', () => {
    const result = launch();
    expect(result).toMatchObject({ file: '/usr/bin/bash', kind: 'bash', integration: true });
    expect(result.args).toEqual(['--posix', '-l']);
    expect(result.env.ENV).toBe(join(integrationAssetsDir(), 'bash', 'tandem.bash'));
    expect(result.env.HISTFILE).toBe('/home/someone/.bash_history');
    expect(result.env.TANDEM_BASH_UNEXPORT_HISTFILE).toBe('1');
    expect(launch({ login: false }).args).toEqual(['--posix']);
  });

  it("bash: the user's ENV and startup flags are handed to the script", () => {
    const result = launch({ baseEnv: { HOME: '/h', ENV: '/h/.shrc', HISTFILE: '/h/hist' }, extraArgs: ['--norc', '--rcfile', '/h/rc', '-O', 'extglob'] });
    expect(result.env).toMatchObject({ TANDEM_ENV_SET: '1', TANDEM_ENV: '/h/.shrc', TANDEM_BASH_FLAGS: 'norc', TANDEM_BASH_RCFILE: '/h/rc', HISTFILE: '/h/hist' });
    expect(result.env.TANDEM_BASH_UNEXPORT_HISTFILE).toBeUndefined();
    expect(result.args).toEqual(['--posix', '-l', '-O', 'extglob']);
  });

  it('zsh: ZDOTDIR points at the stubs; the user\'s ZDOTDIR travels in TANDEM_ZDOTDIR', () => {
    const result = launch({ shellPath: '/usr/bin/zsh', baseEnv: { HOME: '/h', ZDOTDIR: '/h/.config/zsh' } });
    expect(result.args).toEqual(['-l']);
    expect(result.env.ZDOTDIR).toBe(join(integrationAssetsDir(), 'zsh'));
    expect(result.env.TANDEM_ZDOTDIR).toBe('/h/.config/zsh');
    expect(launch({ shellPath: '/usr/bin/zsh' }).env.TANDEM_ZDOTDIR).toBeUndefined();
  });

  it('fish: --init-command sources our script after the user config', () => {
    const result = launch({ shellPath: '/usr/bin/fish', extraArgs: ['--private'] });
    expect(result.args).toEqual(['-l', '--init-command', `source '${join(integrationAssetsDir(), 'fish', 'tandem.fish')}'`, '--private']);
  });

  it('writes the nonce to a private file named in TANDEM_BOOTSTRAP, not to the environment', () => {
    const result = launch();
    const path = result.env.TANDEM_BOOTSTRAP!;
    expect(readFileSync(path, 'utf8')).toBe(`${NONCE}\n`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    expect(Object.values(result.env).some((value) => value.includes(NONCE))).toBe(false);
    result.cleanup();
    expect(existsSync(path)).toBe(false);
    expect(existsSync(join(path, '..'))).toBe(false);
    result.cleanup();
  });

  it('sets the terminal variables and drops what would confuse the shell', () => {
    const { env } = launch({
      baseEnv: {
        HOME: '/h',
        PATH: '/usr/bin',
        TERM: 'dumb',
        TERM_PROGRAM: 'vscode',
        TERM_PROGRAM_VERSION: '1.99',
        VSCODE_INJECTION: '1',
        VSCODE_NONCE: 'x',
        TANDEM_BOOTSTRAP: '/stale',
        TANDEM_ZDOTDIR: '/stale',
        GHOSTTY_RESOURCES_DIR: '/ghostty',
        KITTY_WINDOW_ID: '3',
        ELECTRON_RUN_AS_NODE: '1',
        COLUMNS: '80',
        LINES: '24',
        TMUX: '/tmp/tmux-0/default,1,0',
        OLDPWD: '/old',
        PWD: '/elsewhere',
        EDITOR: 'vim',
      },
      cwd: '/work',
    });
    expect(env).toMatchObject({ TERM: 'xterm-256color', COLORTERM: 'truecolor', TERM_PROGRAM: 'Tandem', PWD: '/work', EDITOR: 'vim', PATH: '/usr/bin' });
    expect(env.TERM_PROGRAM_VERSION).toMatch(/^\d+\.\d+\.\d+/);
    for (const name of ['VSCODE_INJECTION', 'VSCODE_NONCE', 'TANDEM_ZDOTDIR', 'GHOSTTY_RESOURCES_DIR', 'KITTY_WINDOW_ID', 'ELECTRON_RUN_AS_NODE', 'COLUMNS', 'LINES', 'TMUX', 'OLDPWD']) {
      expect(env[name], name).toBeUndefined();
    }
    expect(env.TANDEM_BOOTSTRAP).not.toBe('/stale');
    // A GUI app may start without a locale; the shell gets a UTF-8 one.
    expect(launch({ baseEnv: { HOME: '/h' } }).env.LANG).toMatch(/UTF-8$/);
    expect(launch({ baseEnv: { HOME: '/h', LC_ALL: 'de_DE.UTF-8' } }).env.LANG).toBeUndefined();
  });

  it('without integration: the plain shell, login flag, no bootstrap', () => {
    const result = launch({ integration: false });
    expect(result).toMatchObject({ file: '/usr/bin/bash', args: ['-l'], integration: false });
    expect(result.env.TANDEM_BOOTSTRAP).toBeUndefined();
    expect(result.env.ENV).toBeUndefined();
    expect(launch({ integration: false, login: false, shellPath: '/usr/bin/fish' }).args).toEqual([]);
    expect(launch({ shellPath: '/bin/sh' })).toMatchObject({ integration: false, kind: 'other', args: ['-l'] });
    expect(launch({ shellPath: '/usr/bin/nu' }).args).toEqual(['--login']);
  });

  it('no integration when the arguments make the shell run a command or a script', () => {
    expect(launch({ extraArgs: ['-c', 'echo hi'] }).integration).toBe(false);
    expect(launch({ extraArgs: ['-lc', 'echo hi'] }).integration).toBe(false);
    expect(launch({ extraArgs: ['script.sh'] }).integration).toBe(false);
    expect(launch({ shellPath: '/usr/bin/zsh', extraArgs: ['-f'] }).integration).toBe(false);
    expect(launch({ shellPath: '/usr/bin/fish', extraArgs: ['-c', 'ls'] }).integration).toBe(false);
    expect(launch({ extraArgs: ['-O', 'extglob'] }).integration).toBe(true);
    expect(launch({ shellPath: '/usr/bin/fish', extraArgs: ['--init-command', 'set x 1'] }).integration).toBe(true);
  });

  it('rejects a nonce that could not be embedded safely', () => {
    expect(() => launch({ nonce: "x'; rm -rf ~; '" })).toThrow(/nonce/);
    expect(() => launch({ nonce: 'short' })).toThrow(/nonce/);
  });
});

describe('integrationAssetsDir', () => {
  it('finds the scripts from the source tree', () => {
    expect(existsSync(join(integrationAssetsDir(), 'bash', 'tandem.bash'))).toBe(true);
    expect(existsSync(join(integrationAssetsDir(), 'zsh', '.zshenv'))).toBe(true);
    expect(existsSync(join(integrationAssetsDir(), 'fish', 'tandem.fish'))).toBe(true);
  });

  it('from out/main of a build', () => {
    const root = makeTempDir('assets-built');
    dirs.push(root);
    writeFiles(root, { 'out/main/index.js': '', 'assets/shell-integration/bash/tandem.bash': '' });
    expect(findIntegrationAssets(join(root, 'out/main'))).toBe(join(root, 'assets/shell-integration'));
  });

  it('inside app.asar it answers with app.asar.unpacked (a shell cannot read the archive)', () => {
    const root = makeTempDir('assets-packaged');
    dirs.push(root);
    writeFiles(root, {
      'resources/app.asar/out/main/index.js': '',
      'resources/app.asar/assets/shell-integration/bash/tandem.bash': '',
      'resources/app.asar.unpacked/assets/shell-integration/bash/tandem.bash': '',
    });
    expect(findIntegrationAssets(join(root, 'resources/app.asar/out/main'))).toBe(
      join(root, 'resources/app.asar.unpacked/assets/shell-integration'),
    );
  });

  it('says where it looked when the scripts are missing', () => {
    const root = makeTempDir('assets-missing');
    dirs.push(root);
    expect(() => findIntegrationAssets(root)).toThrow(/not found; looked in/);
  });
});
