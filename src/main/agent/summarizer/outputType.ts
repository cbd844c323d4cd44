/**
 * What kind of output a block printed, decided locally from its command and its text, so the
 * small model gets the prompt that fits (summaryPrompts.ts). The command decides when it is
 * one we know (`npm test`, `cargo build`, `git log`); otherwise the text does (`Tests: 2
 * failed`, `error TS2322`, `added 12 packages`, timestamped lines); otherwise it is generic.
 */
import { programName, simpleCommands } from './commandWords';

export const OUTPUT_TYPES = ['test-results', 'build-output', 'git', 'package-install', 'logs', 'generic'] as const;
export type OutputType = (typeof OUTPUT_TYPES)[number];

export const OUTPUT_TYPE_LABELS: Record<OutputType, string> = {
  'test-results': 'test results',
  'build-output': 'build output',
  git: 'git',
  'package-install': 'package install',
  logs: 'logs',
  generic: 'generic',
};

/** Lines looked at from each end of the text: enough to recognise it, cheap on a 100,000-line log. */
const SAMPLE_LINES = 300;

type CommandRule = (program: string, args: string[]) => boolean;

const TEST_RUNNERS = new Set(['jest', 'vitest', 'mocha', 'ava', 'tap', 'pytest', 'py.test', 'tox', 'nox', 'rspec', 'phpunit', 'ctest', 'karma', 'jasmine', 'nextest', 'prove']);
const BUILD_TOOLS = new Set(['make', 'gmake', 'ninja', 'tsc', 'webpack', 'esbuild', 'rollup', 'gcc', 'g++', 'cc', 'c++', 'clang', 'clang++', 'javac', 'rustc', 'msbuild', 'bazel', 'scons', 'meson', 'electron-vite', 'electron-builder', 'parcel']);
/** Linters and type checkers: their output reads like a build's (file:line: message). */
const LINTERS = new Set(['eslint', 'tslint', 'biome', 'ruff', 'flake8', 'pylint', 'mypy', 'pyright', 'golangci-lint', 'shellcheck', 'hadolint', 'rubocop', 'stylelint', 'clippy-driver']);
const JS_PACKAGE_MANAGERS = new Set(['npm', 'yarn', 'pnpm', 'bun']);
const SYSTEM_PACKAGE_MANAGERS = new Set(['apt', 'apt-get', 'dnf', 'yum', 'zypper', 'apk', 'brew', 'port', 'snap', 'conda', 'mamba', 'gem', 'composer', 'poetry', 'pipenv', 'pipx']);
const LOG_VIEWERS = new Set(['journalctl', 'dmesg', 'logcat', 'stern']);

const first = (args: string[]): string => args.find((arg) => !arg.startsWith('-')) ?? '';
const named = (args: string[], pattern: RegExp): boolean => pattern.test(first(args));

/** `yarn jest`, `pnpm exec vitest`, `bun x tsc`: the program a package manager runs. */
const runThrough = (program: string, args: string[]): string | undefined => {
  if (!JS_PACKAGE_MANAGERS.has(program)) return undefined;
  const [first, second] = args;
  return first === 'exec' || first === 'dlx' || first === 'x' ? second : first;
};

/** Each type's commands, most specific first: `make test` is a test run before it is a build. */
const COMMAND_RULES: [OutputType, CommandRule][] = [
  [
    'test-results',
    (program, args) =>
      TEST_RUNNERS.has(program) ||
      TEST_RUNNERS.has(runThrough(program, args) ?? '') ||
      (/^python[\d.]*$/.test(program) && /(^|\/)manage\.py$/.test(args[0] ?? '') && args[1] === 'test') ||
      (program === 'rails' && named(args, /^test/)) ||
      (JS_PACKAGE_MANAGERS.has(program) && (named(args, /^(t|test|tests)$/) || (first(args) === 'run' && /^test/.test(args[args.indexOf('run') + 1] ?? '')))) ||
      (['go', 'cargo', 'deno', 'mix', 'dotnet', 'swift', 'zig', 'flutter', 'dart'].includes(program) && named(args, /^test$/)) ||
      (['mvn', 'gradle', 'gradlew', 'sbt', 'rake', 'make', 'gmake', 'ninja'].includes(program) && args.some((arg) => /^(test|tests|check|verify)$/.test(arg))) ||
      (['node', 'bun'].includes(program) && args.includes('--test')) ||
      (/^python[\d.]*$/.test(program) && args[0] === '-m' && /^(pytest|unittest|nose2?)$/.test(args[1] ?? '')) ||
      (program === 'playwright' && named(args, /^test$/)) ||
      (program === 'bundle' && args[0] === 'exec' && /^(rspec|rake)$/.test(args[1] ?? '')),
  ],
  [
    'package-install',
    (program, args) =>
      (JS_PACKAGE_MANAGERS.has(program) && (args.length === 0 || named(args, /^(i|install|ci|add|update|upgrade|up|remove|rm|uninstall|dedupe|audit)$/))) ||
      (/^pip[\d.]*$/.test(program) && named(args, /^(install|uninstall|download)$/)) ||
      (/^python[\d.]*$/.test(program) && args[0] === '-m' && args[1] === 'pip') ||
      (program === 'uv' && (args[0] === 'pip' || named(args, /^(sync|add|lock)$/))) ||
      (program === 'cargo' && named(args, /^(install|add|update|fetch)$/)) ||
      (program === 'go' && named(args, /^(get|install)$/)) ||
      (program === 'go' && args[0] === 'mod') ||
      (program === 'bundle' && named(args, /^(install|update)?$/)) ||
      (program === 'pacman' && args.some((arg) => /^-S/.test(arg))) ||
      (SYSTEM_PACKAGE_MANAGERS.has(program) && named(args, /^(install|reinstall|add|update|upgrade|remove|uninstall|require|sync|lock|dist-upgrade|full-upgrade)$/)),
  ],
  [
    'build-output',
    (program, args) =>
      BUILD_TOOLS.has(program) ||
      LINTERS.has(program) ||
      BUILD_TOOLS.has(runThrough(program, args) ?? '') ||
      LINTERS.has(runThrough(program, args) ?? '') ||
      (JS_PACKAGE_MANAGERS.has(program) && (named(args, /^build$/) || (first(args) === 'run' && /^(build|compile|lint|typecheck|tsc)/.test(args[args.indexOf('run') + 1] ?? '')))) ||
      (['cargo', 'go', 'dotnet', 'swift', 'zig', 'deno'].includes(program) && named(args, /^(build|check|clippy|vet|compile|publish)$/)) ||
      (['mvn', 'gradle', 'gradlew', 'sbt'].includes(program) && args.some((arg) => /^(compile|package|install|build|assemble)$/.test(arg))) ||
      (['vite', 'next', 'nuxt', 'astro', 'ng'].includes(program) && named(args, /^build$/)) ||
      (program === 'cmake' && args.includes('--build')) ||
      (['docker', 'podman', 'buildah'].includes(program) && (named(args, /^build$/) || (args[0] === 'compose' && args.includes('build')))),
  ],
  ['git', (program) => program === 'git' || program === 'hub' || program === 'tig'],
  [
    'logs',
    (program, args) =>
      LOG_VIEWERS.has(program) ||
      (['docker', 'podman', 'kubectl', 'oc', 'heroku', 'fly', 'flyctl'].includes(program) && (named(args, /^logs$/) || (args[0] === 'compose' && args.includes('logs')))) ||
      (['tail', 'cat', 'less', 'more', 'zcat', 'head', 'bat'].includes(program) && args.some((arg) => /\.log(\.\d+)?(\.gz)?$|^\/var\/log\//.test(arg))),
  ],
];

/** The type the command names, if any simple command in it is one we know. */
export function typeFromCommand(command: string): OutputType | undefined {
  const commands = simpleCommands(command).map(([program, ...args]) => [programName(program!), args] as const);
  for (const [type, rule] of COMMAND_RULES) {
    if (commands.some(([program, args]) => rule(program, args))) return type;
  }
  return undefined;
}

/** Lines that say what printed them; each hit counts once per line. */
const TEXT_SIGNS: [OutputType, RegExp][] = [
  ['test-results', /^\s*(Tests?|Test Suites|Test Files):?\s+.*\b(passed|failed|skipped|total)\b/i],
  ['test-results', /\b\d+\s+(passing|failing|pending)\b/],
  ['test-results', /^\s*(PASS|FAIL)\s+\S/],
  ['test-results', /^test result: (ok|FAILED)\./],
  ['test-results', /^(=+|-+) .*\b\d+ (passed|failed|errors?)\b.* in [\d.]+s/],
  ['test-results', /^(collected \d+ items?|Ran \d+ tests? in )/],
  ['test-results', /^(--- (FAIL|PASS):|ok\s+\S+\s+[\d.]+s$|FAIL\s+\S+\s+[\d.]+s$)/],
  ['test-results', /^# (tests|pass|fail|suites) \d+$/],
  ['test-results', /^not ok \d+ /],
  ['test-results', /^\s*[✓✔✗✘×]\s+\S.*\(\d+(\.\d+)?\s*m?s\)\s*$/],
  ['build-output', /\berror TS\d{4}:/],
  ['build-output', /^\S+\.(c|cc|cpp|cxx|h|hpp|m|rs|go|ts|tsx|js|java|kt|swift|cs|py):\d+(:\d+)?:\s*(fatal )?(error|warning|note)\b/],
  ['build-output', /^\s*(Compiling|Checking|Finished|Linking|Building) \S/],
  ['build-output', /^(make(\[\d+\])?: (\*\*\*|Entering|Leaving)|\[\s*\d+%\] (Building|Linking)|\[\d+\/\d+\] (Building|Linking|Compiling))/],
  ['build-output', /^(BUILD (SUCCESS|FAILURE|SUCCESSFUL|FAILED)|webpack \d+\.\d+\.\d+ compiled|✓ built in|vite v\d)/],
  ['build-output', /^error(\[E\d{4}\])?: /],
  ['package-install', /^(added|removed|changed|audited) \d+ packages?/],
  ['package-install', /^npm (WARN|ERR!|warn|error) /],
  ['package-install', /^(Collecting|Downloading|Installing collected packages:|Successfully installed|Requirement already satisfied:) /],
  ['package-install', /^(Reading package lists|Building dependency tree|Setting up \S+|Unpacking \S+|Selecting previously unselected|Get:\d+ )/],
  ['package-install', /^(Resolving dependencies|Lockfile is up to date|Packages: \+\d+|Progress: resolved \d+|\d+ packages are looking for funding|🍺 )/],
  ['git', /^(On branch |Your branch |Changes (not staged|to be committed)|Untracked files:|nothing to commit|HEAD detached )/],
  ['git', /^(commit [0-9a-f]{7,40}\b|Author: .+<|Merge: [0-9a-f]{7,}|diff --git |index [0-9a-f]{7,}\.\.[0-9a-f]{7,})/],
  ['git', /^(CONFLICT \(|Auto-merging |Fast-forward$|Already up to date\.|remote: |To \S+|From \S+|\s*[0-9a-f]{7,}\.\.[0-9a-f]{7,}\s+\S+\s+->)/],
  ['git', /^\[[^\]\s]+ [0-9a-f]{7,}\] /],
];

/** Timestamped or level-tagged lines, the shape of a log. */
const LOG_LINE = [
  /^\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d/,
  /^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d /,
  /^\[?\d\d:\d\d:\d\d(\.\d+)?\]? /,
  /^\s*(\[\s*)?(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)(\s*\]|:|\s)/,
  /^\S+\s+\|\s/, // docker compose: `web_1  | …`
];

/** Hits needed before the text decides; logs need a share of the lines instead. */
const MIN_SIGNS = 2;
const LOG_SHARE = 0.3;

/** The type the text looks like, when it looks like one. */
export function typeFromText(lines: readonly string[]): OutputType | undefined {
  const sample = lines.length <= 2 * SAMPLE_LINES ? lines : [...lines.slice(0, SAMPLE_LINES), ...lines.slice(-SAMPLE_LINES)];
  const hits = new Map<OutputType, number>();
  let logLines = 0;
  for (const raw of sample) {
    const line = raw.length > 500 ? raw.slice(0, 500) : raw;
    const sign = TEXT_SIGNS.find(([, pattern]) => pattern.test(line));
    if (sign) hits.set(sign[0], (hits.get(sign[0]) ?? 0) + 1);
    if (LOG_LINE.some((pattern) => pattern.test(line))) logLines++;
  }
  let best: OutputType | undefined;
  let bestHits = MIN_SIGNS - 1;
  for (const [type, count] of hits) {
    if (count > bestHits) {
      best = type;
      bestHits = count;
    }
  }
  if (best) return best;
  const nonEmpty = sample.filter((line) => line.trim() !== '').length;
  return nonEmpty >= 5 && logLines / nonEmpty >= LOG_SHARE ? 'logs' : undefined;
}

/** The output type of a block: its command first, then its text, else generic. */
export function classifyOutput(command: string, lines: readonly string[]): OutputType {
  return typeFromCommand(command) ?? typeFromText(lines) ?? 'generic';
}
