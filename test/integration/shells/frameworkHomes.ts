import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { makeTempDir, writeFiles, type ShellName } from '../harness/shellSession';

/**
 * Home directories with a prompt framework installed the way its README says, each with
 * the user's own hooks logging what they are given.
 *
 * Every framework comes from a fixture in fixtures/frameworks/ (our stand-in, which does
 * to precmd_functions, PROMPT, PROMPT_COMMAND and the DEBUG trap what the real project
 * does; each file names the upstream commit it mirrors). With TANDEM_REAL_FRAMEWORKS set
 * to a folder holding checkouts of the real projects (see docs/shell-integration.md), the
 * same homes can be built from the real code instead, to check that fixture and real
 * framework give the same marks. CI cannot fetch them, so there only the fixtures run.
 */

export type FrameworkSource = 'fixture' | 'real';

export interface FrameworkHome {
  shell: ShellName;
  home: string;
  /** How the user's hooks log: 'zsh' arrays, bash-preexec's functions, fish events. */
  hooks: 'zsh' | 'bash-preexec' | 'fish' | 'bash-prompt-command';
  /**
   * False where the framework itself hides the status from the user's hook (starship runs
   * the user's earlier PROMPT_COMMAND after a `[[ … ]]` test, so it always sees 0).
   */
  hookSeesStatus?: boolean;
}

/** A command of the scenario, what it must exit with, and the cwd it starts in. */
export interface ScenarioStep {
  command: string;
  exitCode: number;
  /** Relative to HOME ('' is HOME). */
  cwd: string;
  /** A line it prints (once, on the screen). */
  prints?: string;
  /**
   * Keys sent at the prompt before the command is typed: a line-editor widget that runs
   * the precmd hooks itself (one more line in the user's precmd log, status not checked).
   */
  widgetKeys?: string;
}

export interface Framework {
  name: string;
  shell: ShellName;
  /**
   * 'fixture': our stand-in, compared with the real project when TANDEM_REAL_FRAMEWORKS has
   * it. 'package': the real code from a Debian package, which CI installs.
   */
  origin: 'fixture' | 'package';
  /** Builds a fresh home; `real` uses the checkout under TANDEM_REAL_FRAMEWORKS. */
  build(source: FrameworkSource): FrameworkHome;
  /** Fixture: the real project is in TANDEM_REAL_FRAMEWORKS. Package: it is installed. */
  realAvailable(): boolean;
  /** Why the real project can never be compared here, if so. */
  realUnavailable?: string;
  /** Started once before the session under test (powerlevel10k writes its instant prompt then). */
  warmUp?: boolean;
  /** Commands this framework adds to the common scenario, at its end. */
  extraSteps?: ScenarioStep[];
  /** Files in HOME, besides precmd.log and preexec.log, that must read the same as without Tandem. */
  logs?: string[];
}

const FIXTURES = new URL('./fixtures/frameworks/', import.meta.url).pathname;
export const REAL_FRAMEWORKS = process.env.TANDEM_REAL_FRAMEWORKS ?? '';

const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const real = (path: string) => join(REAL_FRAMEWORKS, path);
const hasReal = (...paths: string[]) => REAL_FRAMEWORKS !== '' && paths.every((path) => existsSync(real(path)));

/** Where the stand-in binaries go; on PATH from the user's rc file, as people do (login shells reset PATH in /etc/profile). */
const USER_BIN = 'PATH="$HOME/bin:$PATH"';

/** zsh hooks of the user's own, appended after the framework's. */
const ZSH_USER_HOOKS = [
  'user_precmd() { print -r -- "precmd $?" >> ~/precmd.log }',
  "user_preexec() { print -rn -- \"$1\"$'\\0' >> ~/preexec.log }",
  'precmd_functions+=(user_precmd)',
  'preexec_functions+=(user_preexec)',
  // Logs each failed command line, and any failure inside Tandem's functions (plugins'
  // functions have plenty of their own, as many as they are called).
  'TRAPZERR() {',
  '  local s=$?',
  '  case ${funcstack[2]-} in',
  '    (__tandem_*) print -r -- "zerr $s in ${funcstack[2]}" >> ~/zerr.log ;;',
  '    ("") print -r -- "zerr $s" >> ~/zerr.log ;;',
  '  esac',
  '}',
];

/** bash-preexec's own convention: functions named precmd and preexec. */
const BASH_PREEXEC_USER_HOOKS = [
  "preexec() { printf '%s\\0' \"$1\" >> ~/preexec.log; }",
  'precmd() { local s=$?; echo "precmd $s" >> ~/precmd.log; }',
];

/** The directories the scenario visits: sub/ and a git repository on a named branch. */
export function addScenarioDirectories(home: string): void {
  mkdirSync(join(home, 'sub'));
  const repo = join(home, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', '-b', 'feature/tandem', repo]);
}

function zshHome(rc: string[], files: Record<string, string> = {}): string {
  const home = makeTempDir('fw-zsh');
  writeFiles(home, { '.zshrc': [...rc, ...ZSH_USER_HOOKS, ''].join('\n'), ...files });
  addScenarioDirectories(home);
  return home;
}

function bashHome(rc: string[], files: Record<string, string> = {}): string {
  const home = makeTempDir('fw-bash');
  writeFiles(home, {
    '.bash_profile': '. ~/.bashrc\n',
    // A previous session's last command: bash-preexec must not report it again.
    '.bash_history': 'echo from-the-last-session\n',
    // The user's ERR trap logs every failure; Tandem must add none.
    '.bashrc': ["trap 'echo \"err $? ${FUNCNAME[0]-}\" >> ~/err.log' ERR", ...rc, ''].join('\n'),
    ...files,
  });
  addScenarioDirectories(home);
  return home;
}

/** powerlevel10k as its README installs it: instant prompt at the top, the theme, a config. */
function powerlevel10k(instantPrompt: boolean): Framework {
  return {
    name: `zsh + powerlevel10k (instant prompt ${instantPrompt ? 'on' : 'off'})`,
    shell: 'zsh',
    origin: 'fixture',
    extraSteps: [
      {
        command: 'print -r -- "instant=${+__p9k_instant_prompt_sourced}"',
        exitCode: 0,
        cwd: '',
        prints: `instant=${instantPrompt ? 1 : 0}`,
      },
    ],
    warmUp: instantPrompt,
    realAvailable: () => hasReal('powerlevel10k/powerlevel10k.zsh-theme'),
    build(source) {
      const preamble = [
        'if [[ -r "${XDG_CACHE_HOME:-$HOME/.cache}/p10k-instant-prompt-${(%):-%n}.zsh" ]]; then',
        '  source "${XDG_CACHE_HOME:-$HOME/.cache}/p10k-instant-prompt-${(%):-%n}.zsh"',
        'fi',
      ];
      const files: Record<string, string> = {};
      let theme: string[];
      if (source === 'real') {
        theme = [
          `source ${real('powerlevel10k/powerlevel10k.zsh-theme')}`,
          `source ${real('powerlevel10k/config/p10k-lean.zsh')}`,
          // gitstatusd is downloaded from GitHub on first use; vcs_info shows the branch instead.
          'POWERLEVEL9K_DISABLE_GITSTATUS=true',
          `POWERLEVEL9K_INSTANT_PROMPT=${instantPrompt ? 'verbose' : 'off'}`,
        ];
      } else {
        files['p10k/powerlevel10k.zsh-theme'] = fixture('p10k-theme.zsh');
        if (instantPrompt) files[`.cache/p10k-instant-prompt-${userInfo().username}.zsh`] = fixture('p10k-instant-prompt.zsh');
        theme = ['source ~/p10k/powerlevel10k.zsh-theme'];
      }
      return { shell: 'zsh', home: zshHome([...(instantPrompt ? preamble : []), ...theme], files), hooks: 'zsh' };
    },
  };
}

/** bash-preexec sourced last in .bashrc, with a DEBUG trap set before it. */
function bashPreexec(version: 'master' | '0.6.0'): Framework {
  const realPath = version === 'master' ? 'bash-preexec/bash-preexec.sh' : 'bash-preexec-0.6.0.sh';
  return {
    name: `bash + bash-preexec ${version}`,
    shell: 'bash',
    origin: 'fixture',
    realAvailable: () => hasReal(realPath),
    build(source) {
      const files: Record<string, string> = {};
      if (source === 'fixture') files['bash-preexec.sh'] = fixture(`bash-preexec-${version}.sh`);
      const path = source === 'real' ? real(realPath) : '~/bash-preexec.sh';
      const home = bashHome(
        [
          'HISTCONTROL=ignoreboth',
          "trap 'echo x >> ~/original_debug.log' DEBUG",
          ...BASH_PREEXEC_USER_HOOKS,
          'PS1=\'\\w bp\\$ \'',
          `source ${path}`,
        ],
        files,
      );
      return { shell: 'bash', home, hooks: 'bash-preexec' };
    },
  };
}

/**
 * starship's init script (the real one reads `::STARSHIP::` where `starship init` writes
 * the binary's path) with a stand-in binary that renders a plain prompt.
 */
function starshipInit(home: string, shell: 'bash' | 'zsh', source: FrameworkSource): void {
  const binary = join(home, 'bin/starship');
  mkdirSync(join(home, 'bin'), { recursive: true });
  writeExecutable(binary, fixture('starship-standin.sh'));
  const script =
    source === 'real'
      ? readFileSync(real(`starship/src/init/starship.${shell}`), 'utf8').replaceAll('::STARSHIP::', binary)
      : fixture(`starship-init.${shell}`).replaceAll('__STARSHIP__', binary);
  writeFileSync(join(home, `.starship-init.${shell}`), script);
}

function starship(shell: 'bash' | 'zsh', withBashPreexec = false): Framework {
  return {
    name: `${shell}${withBashPreexec ? ' + bash-preexec' : ''} + starship`,
    shell,
    origin: 'fixture',
    realAvailable: () => hasReal(`starship/src/init/starship.${shell}`, ...(withBashPreexec ? ['bash-preexec/bash-preexec.sh'] : [])),
    build(source) {
      if (shell === 'zsh') {
        const home = zshHome(['source ~/.starship-init.zsh']);
        starshipInit(home, 'zsh', source);
        return { shell, home, hooks: 'zsh' };
      }
      if (withBashPreexec) {
        const files: Record<string, string> = source === 'fixture' ? { 'bash-preexec.sh': fixture('bash-preexec-master.sh') } : {};
        const path = source === 'real' ? real('bash-preexec/bash-preexec.sh') : '~/bash-preexec.sh';
        const home = bashHome([...BASH_PREEXEC_USER_HOOKS, `source ${path}`, 'source ~/.starship-init.bash'], files);
        starshipInit(home, 'bash', source);
        return { shell, home, hooks: 'bash-preexec' };
      }
      // The user's own PROMPT_COMMAND, set before starship's init (which then runs it itself).
      const home = bashHome(['user_pc() { echo "precmd $?" >> ~/precmd.log; }', 'PROMPT_COMMAND=user_pc', 'source ~/.starship-init.bash']);
      starshipInit(home, 'bash', source);
      return { shell, home, hooks: 'bash-prompt-command', hookSeesStatus: false };
    },
  };
}

/**
 * A tool whose shell hooks call its binary (atuin, mcfly): its init script, the real one
 * or our fixture, and a stand-in binary on PATH that logs what the hooks tell it.
 */
function toolInit(home: string, tool: 'atuin' | 'mcfly', shell: 'bash' | 'zsh', source: FrameworkSource): void {
  mkdirSync(join(home, 'bin'), { recursive: true });
  writeExecutable(join(home, 'bin', tool), fixture(`${tool}-standin.sh`));
  const realScript = tool === 'atuin' ? `atuin/crates/atuin/src/shell/atuin.${shell}` : `mcfly/mcfly.${shell}`;
  writeFileSync(join(home, `.${tool}-init.${shell}`), source === 'real' ? readFileSync(real(realScript), 'utf8') : fixture(`${tool}-init.${shell}`));
}

function atuin(shell: 'bash' | 'zsh'): Framework {
  return {
    name: `${shell}${shell === 'bash' ? ' + bash-preexec' : ''} + atuin`,
    shell,
    origin: 'fixture',
    logs: ['atuin-commands.log'],
    realAvailable: () => hasReal(`atuin/crates/atuin/src/shell/atuin.${shell}`, ...(shell === 'bash' ? ['bash-preexec/bash-preexec.sh'] : [])),
    build(source) {
      if (shell === 'zsh') {
        const home = zshHome([USER_BIN, 'source ~/.atuin-init.zsh']);
        toolInit(home, 'atuin', shell, source);
        return { shell, home, hooks: 'zsh' };
      }
      const files: Record<string, string> = source === 'fixture' ? { 'bash-preexec.sh': fixture('bash-preexec-master.sh') } : {};
      const path = source === 'real' ? real('bash-preexec/bash-preexec.sh') : '~/bash-preexec.sh';
      const home = bashHome([USER_BIN, ...BASH_PREEXEC_USER_HOOKS, `source ${path}`, 'source ~/.atuin-init.bash'], files);
      toolInit(home, 'atuin', shell, source);
      return { shell, home, hooks: 'bash-preexec' };
    },
  };
}

function mcfly(shell: 'bash' | 'zsh'): Framework {
  return {
    name: `${shell} + mcfly`,
    shell,
    origin: 'fixture',
    logs: ['mcfly.log'],
    realAvailable: () => hasReal(`mcfly/mcfly.${shell}`),
    build(source) {
      if (shell === 'zsh') {
        const home = zshHome([USER_BIN, 'HISTFILE=~/.zsh_history', 'touch ~/.zsh_history', 'source ~/.mcfly-init.zsh']);
        toolInit(home, 'mcfly', shell, source);
        return { shell, home, hooks: 'zsh' };
      }
      const home = bashHome([USER_BIN, 'user_pc() { echo "precmd $?" >> ~/precmd.log; }', 'PROMPT_COMMAND=user_pc', 'source ~/.mcfly-init.bash']);
      toolInit(home, 'mcfly', shell, source);
      return { shell, home, hooks: 'bash-prompt-command' };
    },
  };
}

/**
 * zsh4humans on powerlevel10k: its hook reordering, its zle-line-* widgets, and Shift+Up,
 * which changes directory from a widget and redraws the prompt without a new prompt.
 */
const zsh4humans: Framework = {
  name: 'zsh4humans (with powerlevel10k)',
  shell: 'zsh',
  origin: 'fixture',
  realAvailable: () => false,
  realUnavailable: 'zsh4humans downloads its plugins at first start',
  extraSteps: [
    { command: 'cd ~/repo', exitCode: 0, cwd: '' },
    // Shift+Up: `cd ..` in a widget; the command typed after it starts in HOME.
    { command: 'pwd', exitCode: 0, cwd: '', widgetKeys: '\x1b[1;2A' },
  ],
  build() {
    const home = zshHome(['source ~/p10k/powerlevel10k.zsh-theme', 'source ~/z4h.zsh'], {
      'p10k/powerlevel10k.zsh-theme': fixture('p10k-theme.zsh'),
      'z4h.zsh': fixture('z4h.zsh'),
    });
    return { shell: 'zsh', home, hooks: 'zsh' };
  },
};

/** fish hooks of the user's own: event handlers in config.fish. */
const FISH_USER_HOOKS = [
  'function user_precmd --on-event fish_prompt',
  '    echo "precmd $status" >> ~/precmd.log',
  'end',
  'function user_preexec --on-event fish_preexec',
  "    printf '%s\\0' $argv[1] >> ~/preexec.log",
  'end',
];

function fishHome(config: string[], files: Record<string, string> = {}): string {
  const home = makeTempDir('fw-fish');
  writeFiles(home, { '.config/fish/config.fish': ['set -g fish_greeting', ...config, ...FISH_USER_HOOKS, ''].join('\n'), ...files });
  addScenarioDirectories(home);
  return home;
}


/** tide, installed the way fisher installs it (its files under ~/.config/fish). */
const fishTide: Framework = {
  name: 'fish + tide',
  shell: 'fish',
  origin: 'fixture',
  realAvailable: () => hasReal('tide/functions/fish_prompt.fish'),
  // `tide reload` sources the file `functions --details fish_prompt` names: Tandem's wrapper's.
  extraSteps: [
    { command: 'tide reload', exitCode: 0, cwd: '' },
    { command: 'echo after-reload', exitCode: 0, cwd: '', prints: 'after-reload' },
  ],
  build(source) {
    if (source === 'fixture') {
      const home = fishHome([], { '.config/fish/functions/fish_prompt.fish': fixture('tide-fish_prompt.fish') });
      // `tide` itself comes with the prompt file in the fixture; make it autoloadable too.
      writeFiles(home, { '.config/fish/functions/tide.fish': 'source ~/.config/fish/functions/fish_prompt.fish\n' });
      return { shell: 'fish', home, hooks: 'fish' };
    }
    const home = fishHome([]);
    for (const folder of ['functions', 'conf.d', 'completions']) {
      execFileSync('cp', ['-r', real(`tide/${folder}`), join(home, '.config/fish/')]);
    }
    // What fisher does after copying the files: tide's install event (non-interactive: no wizard).
    execFileSync('fish', ['-c', 'emit _tide_init_install'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home } });
    return { shell: 'fish', home, hooks: 'fish' };
  },
};

/** A fish_prompt from config.fish, replaced at runtime by a sourced plugin. */
const fishPromptPlugin: Framework = {
  name: 'fish: fish_prompt replaced at runtime by a plugin',
  shell: 'fish',
  origin: 'fixture',
  realAvailable: () => false,
  realUnavailable: 'the plugin is the test',
  extraSteps: [
    { command: 'source ~/prompt-plugin.fish', exitCode: 0, cwd: '' },
    { command: 'echo with-plugin', exitCode: 0, cwd: '', prints: 'with-plugin' },
  ],
  build() {
    const home = fishHome(['function fish_prompt', "    printf '%s > ' (prompt_pwd)", 'end'], {
      'prompt-plugin.fish': fixture('fish-prompt-plugin.fish'),
    });
    return { shell: 'fish', home, hooks: 'fish' };
  },
};

const installed = (...paths: string[]) => () => paths.every((path) => existsSync(path));
const AUTOSUGGESTIONS = '/usr/share/zsh-autosuggestions/zsh-autosuggestions.zsh';
const SYNTAX_HIGHLIGHTING = '/usr/share/zsh-syntax-highlighting/zsh-syntax-highlighting.zsh';
const POWERLEVEL9K = '/usr/share/powerlevel9k/powerlevel9k.zsh-theme';
const DIRENV = '/usr/bin/direnv';

/**
 * zsh-autosuggestions and zsh-syntax-highlighting (both wrap every zle widget; the latter
 * must be sourced last), with a vcs_info prompt showing the branch: the plugin setup of
 * most oh-my-zsh users, without oh-my-zsh.
 */
const zshPlugins: Framework = {
  name: 'zsh + zsh-autosuggestions + zsh-syntax-highlighting (Debian packages), vcs_info prompt',
  shell: 'zsh',
  origin: 'package',
  realAvailable: installed(AUTOSUGGESTIONS, SYNTAX_HIGHLIGHTING),
  build() {
    const home = zshHome([
      'autoload -Uz vcs_info add-zsh-hook',
      "zstyle ':vcs_info:git:*' formats ' %b'",
      'add-zsh-hook precmd vcs_info',
      'setopt prompt_subst',
      "PROMPT='%~${vcs_info_msg_0_} %# '",
      `source ${AUTOSUGGESTIONS}`,
      `source ${SYNTAX_HIGHLIGHTING}`,
    ]);
    return { shell: 'zsh', home, hooks: 'zsh' };
  },
};

const zshPowerlevel9k: Framework = {
  name: 'zsh + powerlevel9k (Debian package)',
  shell: 'zsh',
  origin: 'package',
  realAvailable: installed(POWERLEVEL9K),
  build() {
    const home = zshHome(["POWERLEVEL9K_MODE='ascii'", `source ${POWERLEVEL9K}`]);
    return { shell: 'zsh', home, hooks: 'zsh' };
  },
};

/** direnv's hook as its README installs it, and an allowed .envrc in ~/envdir. */
function direnv(shell: 'bash' | 'zsh'): Framework {
  return {
    name: `${shell} + direnv (Debian package)`,
    shell,
    origin: 'package',
    realAvailable: installed(DIRENV),
    extraSteps: [
      { command: 'cd ~/envdir', exitCode: 0, cwd: '', prints: 'direnv: loading ~/envdir/.envrc' },
      { command: 'echo "foo=$TANDEM_TEST_FOO"', exitCode: 0, cwd: 'envdir', prints: 'foo=from-envrc' },
      { command: 'cd ~', exitCode: 0, cwd: 'envdir' },
    ],
    build() {
      const hook = `eval "$(${DIRENV} hook ${shell})"`;
      const home =
        shell === 'zsh'
          ? zshHome([hook])
          : bashHome(['user_pc() { echo "precmd $?" >> ~/precmd.log; }', 'PROMPT_COMMAND=user_pc', hook]);
      writeFiles(home, { 'envdir/.envrc': 'export TANDEM_TEST_FOO=from-envrc\n' });
      execFileSync(DIRENV, ['allow', join(home, 'envdir')], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home } });
      return { shell, home, hooks: shell === 'zsh' ? 'zsh' : 'bash-prompt-command' };
    },
  };
}

export const FRAMEWORKS: Framework[] = [
  powerlevel10k(true),
  powerlevel10k(false),
  bashPreexec('master'),
  bashPreexec('0.6.0'),
  starship('zsh'),
  starship('bash'),
  starship('bash', true),
  zshPlugins,
  zshPowerlevel9k,
  direnv('zsh'),
  direnv('bash'),
  atuin('zsh'),
  atuin('bash'),
  mcfly('zsh'),
  mcfly('bash'),
  zsh4humans,
  fishTide,
  fishPromptPlugin,
];

function writeExecutable(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o755 });
}
