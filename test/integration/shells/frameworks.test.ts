import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, ShellSession, type SeenMark } from '../harness/shellSession';
import { FRAMEWORKS, REAL_FRAMEWORKS, type Framework, type FrameworkHome, type FrameworkSource, type ScenarioStep } from './frameworkHomes';
import { readLines, readRecords, readText } from './fixtures';

/**
 * Shell integration under the prompt frameworks people really run. For each framework:
 * every typed command is exactly one trusted block with its exact text, exit code and
 * cwd (after `cd`, and in a git repository whose branch the prompt shows); every prompt
 * has its own A and B; the user's hooks see exactly what they see without Tandem;
 * nothing is printed twice. With TANDEM_REAL_FRAMEWORKS set, the fixtures are also
 * compared with the real projects (the same marks, the same hook logs).
 */

const COMMON: ScenarioStep[] = [
  { command: 'echo one', exitCode: 0, cwd: '', prints: 'one' },
  { command: 'cd sub', exitCode: 0, cwd: '' },
  { command: 'pwd', exitCode: 0, cwd: 'sub' },
  { command: 'false', exitCode: 1, cwd: 'sub' },
];

function scenario(framework: Framework): ScenarioStep[] {
  const steps = [...COMMON];
  // The next command line sees the status and the last argument of the previous one.
  steps.push({ command: framework.shell === 'fish' ? 'echo "rc=$status"' : 'echo "rc=$?"', exitCode: 0, cwd: 'sub', prints: 'rc=1' });
  if (framework.shell !== 'fish') {
    steps.push(
      { command: ': last-arg', exitCode: 0, cwd: 'sub' },
      { command: 'echo "last=$_"', exitCode: 0, cwd: 'sub', prints: 'last=last-arg' },
    );
  }
  steps.push({ command: 'cd ~/repo', exitCode: 0, cwd: 'sub' }, { command: 'false | true', exitCode: 0, cwd: 'repo' });
  // zsh keeps $pipestatus for the next command line; Tandem's deferred prompt fix-up must too.
  if (framework.shell === 'zsh') steps.push({ command: 'echo "ps=$pipestatus"', exitCode: 0, cwd: 'repo', prints: 'ps=1 0' });
  steps.push({ command: ' echo spaced', exitCode: 0, cwd: 'repo', prints: 'spaced' }, { command: 'cd ~', exitCode: 0, cwd: 'repo' });
  return [...steps, ...(framework.extraSteps ?? [])];
}

interface Run {
  session: ShellSession;
  built: FrameworkHome;
  /** Our marks per prompt/command, as kinds (a redraw of the same prompt counted once). */
  trace: string[];
}

const homes: string[] = [];
afterAll(() => homes.forEach(removeDir));

async function start(framework: Framework, source: FrameworkSource, integration: boolean): Promise<{ session: ShellSession; built: FrameworkHome }> {
  const built = framework.build(source);
  homes.push(built.home);
  if (framework.warmUp) {
    // powerlevel10k writes its instant prompt at the first prompt of a session.
    const warm = await ShellSession.start({ shell: framework.shell, home: built.home, integration });
    if (!integration) await warm.waitUntil(() => readLines(built.home, 'precmd.log').length > 0, 15_000, 'the first prompt');
    await warm.exit();
    warm.kill();
    removeLogs(built.home);
  }
  // As in a pane: the integration also reports the environment the model may see.
  const session = await ShellSession.start({ shell: framework.shell, home: built.home, integration, reportEnv: ['TERM', 'VIRTUAL_ENV'] });
  return { session, built };
}

function removeLogs(home: string): void {
  for (const name of ['precmd.log', 'preexec.log', 'original_debug.log']) removeDir(join(home, name));
}

/** Runs the scenario with integration and returns the session (still open). */
async function runIntegrated(framework: Framework, source: FrameworkSource): Promise<Run> {
  const { session, built } = await start(framework, source, true);
  try {
    for (const step of scenario(framework)) {
      if (step.widgetKeys) await pressWidgetKeys(session, built, step.widgetKeys);
      await session.run(step.command);
    }
  } catch (error) {
    session.kill();
    throw error;
  }
  return { session, built, trace: traceOf(session.marks) };
}

/** Sends a widget's keys and waits until it has run the precmd hooks (the user's logs a line). */
async function pressWidgetKeys(session: ShellSession, built: FrameworkHome, keys: string): Promise<void> {
  const before = readLines(built.home, 'precmd.log').length;
  session.write(keys);
  await session.waitUntil(() => readLines(built.home, 'precmd.log').length > before, 8_000, 'the widget to run the precmd hooks');
}

/**
 * The same scenario without integration, paced by the user's own precmd hook (one log line
 * per prompt), then `exit`: the reference for what the user's hooks record.
 */
async function runPlain(framework: Framework, source: FrameworkSource): Promise<FrameworkHome> {
  const { session, built } = await start(framework, source, false);
  try {
    const prompts = () => readLines(built.home, 'precmd.log').length;
    await session.waitUntil(() => prompts() >= 1, 15_000, 'the first prompt');
    for (const step of scenario(framework)) {
      if (step.widgetKeys) await pressWidgetKeys(session, built, step.widgetKeys);
      const before = prompts();
      await session.type(step.command);
      session.write('\r');
      await session.waitUntil(() => prompts() > before, 8_000, `the prompt after ${JSON.stringify(step.command)}`);
    }
    await session.exit();
  } finally {
    session.kill();
  }
  return built;
}

function traceOf(marks: SeenMark[]): string[] {
  const trace: string[] = [];
  const seenPrompts = new Set<string>();
  let redraw = false;
  for (const seen of marks) {
    if ((!seen.ours && seen.mark.kind !== 'cwd') || seen.mark.kind === 'environment') continue;
    const { mark } = seen;
    if (mark.kind === 'prompt-start') {
      const number = mark.prompt ?? '';
      redraw = number !== '' && seenPrompts.has(number);
      seenPrompts.add(number);
      if (redraw) continue;
    } else if (mark.kind === 'input-start') {
      // readline redraws the prompt's last line on Enter: B again, without A.
      if (redraw || trace.at(-1) === 'input-start') continue;
    } else {
      redraw = false;
    }
    trace.push(mark.kind);
  }
  return trace;
}

function describeFramework(framework: Framework): void {
  const missingPackage = framework.origin === 'package' && !framework.realAvailable();
  describe.skipIf(missingPackage)(`${framework.name}${missingPackage ? ' (package not installed; .ci/run installs it)' : ''}`, () => {
    const steps = scenario(framework);
    let integrated: Run | undefined;
    let plain: FrameworkHome;

    // The scenario runs once, here: if it cannot (a shell too slow even for the scaled time
    // limit, a broken fixture), this setup fails with its own error, and no test below
    // stumbles over a run that never happened.
    beforeAll(async () => {
      integrated = await runIntegrated(framework, 'fixture');
    });
    afterAll(() => integrated?.session.kill());
    const ran = (): Run => {
      if (!integrated) throw new Error(`the ${framework.name} scenario did not run (see the setup's error)`);
      return integrated;
    };

    it('every command is one trusted block with its exact text, exit code and cwd', async () => {
      const { session, built } = ran();
      const blocks = session.blocks();
      expect(blocks.map((block) => block.command)).toEqual(steps.map((step) => step.command));
      expect(blocks.map((block) => block.exitCode)).toEqual(steps.map((step) => step.exitCode));
      expect(blocks.map((block) => block.cwd)).toEqual(steps.map((step) => join(built.home, step.cwd)));
      expect(blocks.every((block) => block.trusted)).toBe(true);
      expect(session.tracker.untrustedMarkCount).toBe(0);
      expect(session.tracker.cwd).toBe(built.home);
      expect(await session.nonceLeaks()).toEqual([]);
    });

    it('every prompt has its own A (with the cwd) and B, in order, and nothing is printed twice', async () => {
      const { session, trace } = ran();
      const prompt = ['cwd', 'prompt-start', 'input-start'];
      const expected = [...prompt];
      for (let i = 0; i < steps.length; i++) expected.push('command-start', 'command-end', ...prompt);
      expect(trace).toEqual(expected);
      const lines = await session.screenLines();
      for (const step of steps) if (step.prints) expect(lines.filter((line) => line === step.prints), step.prints).toHaveLength(1);
    });

    if (framework.name.includes('powerlevel10k')) {
      it('powerlevel10k: the branch segment shows, no console-output warning', async () => {
        const { session } = ran();
        expect((await session.screenLines()).some((line) => line.includes('feature/tandem'))).toBe(true);
        expect(session.output).not.toMatch(/Console output during zsh initialization/);
      });
    }

    it("the user's own hooks fire once per command, with the same text and status as without Tandem", async () => {
      const { session, built } = ran();
      await session.exit();
      session.kill();
      plain = await runPlain(framework, 'fixture');
      const typed = [...steps.map((step) => step.command), 'exit'];
      const preexec = readRecords(built.home, 'preexec.log');
      expect(preexec).toEqual(readRecords(plain.home, 'preexec.log'));
      if (built.hooks === 'zsh') expect(preexec).toEqual(typed);
      // bash-preexec reads the command from history, which it keeps the leading space in.
      if (built.hooks === 'bash-preexec') expect(preexec.map((text) => text.trim())).toEqual(typed.map((text) => text.trim()));
      if (framework.shell === 'bash') expect(readLines(built.home, 'err.log')).toEqual(readLines(plain.home, 'err.log'));
      if (built.hooks === 'zsh') {
        expect(readLines(built.home, 'zerr.log')).toEqual(readLines(plain.home, 'zerr.log'));
        expect(readLines(built.home, 'zerr.log')).toEqual(['zerr 1']);
      }
      for (const log of framework.logs ?? []) {
        expect(readText(join(built.home, log)), log).not.toBe('');
        expect(readText(join(built.home, log)), log).toBe(readText(join(plain.home, log)));
      }
      const precmd = readLines(built.home, 'precmd.log');
      expect(precmd).toEqual(readLines(plain.home, 'precmd.log'));
      // One line per prompt (the widget's own call of the hooks aside).
      const expected = ['precmd 0'];
      for (const step of steps) {
        if (step.widgetKeys) expected.push(precmd[expected.length]!);
        expected.push(`precmd ${built.hookSeesStatus === false ? 0 : step.exitCode}`);
      }
      expect(precmd).toEqual(expected);
    });

    const whyNoReal = framework.realUnavailable ?? (REAL_FRAMEWORKS ? 'not in TANDEM_REAL_FRAMEWORKS' : 'TANDEM_REAL_FRAMEWORKS not set');
    if (framework.origin === 'fixture') it.skipIf(!framework.realAvailable())(
      `the fixture gives the same marks and hook logs as the real project${framework.realAvailable() ? '' : ` (${whyNoReal})`}`,
      async () => {
        const real = await runIntegrated(framework, 'real');
        try {
          const run = ran();
          expect(real.trace).toEqual(run.trace);
          const summary = (done: Run) =>
            done.session
              .blocks()
              .slice(0, steps.length)
              .map((block) => [block.command, block.exitCode, block.cwd.replace(done.built.home, '~')]);
          expect(summary(real)).toEqual(summary(run));
          await real.session.exit();
          expect(readRecords(real.built.home, 'preexec.log')).toEqual(readRecords(run.built.home, 'preexec.log'));
          expect(readLines(real.built.home, 'precmd.log')).toEqual(readLines(run.built.home, 'precmd.log'));
          for (const log of framework.logs ?? []) expect(readText(join(real.built.home, log)), log).toBe(readText(join(run.built.home, log)));
        } finally {
          real.session.kill();
        }
      },
    );
  });
}

for (const framework of FRAMEWORKS) describeFramework(framework);
