import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ExpectedFailures } from '../../src/main/companion/expectedFailure';
import { HintDetector, normalizeCommand, type FinishedCommand } from '../../src/main/companion/hintDetector';
import { recentFailures } from '../../src/main/companion/whatJustHappened';
import type { Block } from '../../src/shared/blocks';

const THRESHOLDS = { errorCascade: 3, retryLoop: 2 };

const judge = new ExpectedFailures();
beforeAll(() => judge.ready);

/** The hints the detector gives for a run of commands, as `index:pattern`. */
function hintsFor(commands: FinishedCommand[], thresholds = THRESHOLDS): string[] {
  const detector = new HintDetector(judge);
  return commands.flatMap((command, index) => {
    const step = detector.finished(command, thresholds);
    return step.hint ? [`${index}:${step.hint}`] : [];
  });
}

const fail = (command: string, exitCode = 1): FinishedCommand => ({ command, exitCode });
const ok = (command: string): FinishedCommand => ({ command, exitCode: 0 });

describe('Watch mode hint detector', () => {
  it.each([
    ['three different failures: an error cascade', [fail('make'), fail('cc x.c'), fail('ls nope')], ['2:error-cascade']],
    ['two different failures: nothing yet', [fail('make'), fail('cc x.c')], []],
    ['the same command twice: a retry loop', [fail('npm test'), fail('npm test')], ['1:retry-loop']],
    ['the same command after whitespace is normalised', [fail('npm  test'), fail('  npm test\t')], ['1:retry-loop']],
    ['a success ends the episode', [fail('make'), fail('cc'), ok('ls'), fail('make')], []],
    ['one hint per episode', [fail('a'), fail('b'), fail('c'), fail('d'), fail('d'), fail('e')], ['2:error-cascade']],
    ['a new episode may hint again', [fail('a'), fail('a'), ok('ls'), fail('b'), fail('b')], ['1:retry-loop', '4:retry-loop']],
    ['Ctrl+C (130) does not count', [fail('make'), fail('sleep 9', 130), fail('cc')], []],
    ['Ctrl+Z (148) does not count', [fail('vim x', 148), fail('make'), fail('vim x', 148)], []],
    ['130 does not end the episode either', [fail('make'), fail('cc'), fail('sleep 9', 130), fail('ls nope')], ['3:error-cascade']],
    ['grep -q failing neither counts nor breaks the run', [fail('make'), fail('grep -q TODO x.c'), fail('make')], ['2:retry-loop']],
    ['test, [ and diff do not count', [fail('test -f a'), fail('[ -d b ]'), fail('diff a b'), fail('cmp a b')], []],
    ['an unknown exit code counts for nothing', [{ command: 'make' }, { command: 'make' }, { command: 'make' }], []],
    ['an expected failure repeated is no retry loop', [fail('grep -q x f'), fail('grep -q x f')], []],
  ])('%s', (_name, commands, expected) => {
    expect(hintsFor(commands)).toEqual(expected);
  });

  it('follows its thresholds', () => {
    expect(hintsFor([fail('a'), fail('b')], { errorCascade: 2, retryLoop: 2 })).toEqual(['1:error-cascade']);
    expect(hintsFor([fail('a'), fail('a'), fail('a')], { errorCascade: 5, retryLoop: 3 })).toEqual(['2:retry-loop']);
  });

  it('a long pause hints once, only after a counted failure and before any other hint', () => {
    const detector = new HintDetector(judge);
    expect(detector.paused()).toBeUndefined();
    expect(detector.finished(fail('make'), THRESHOLDS).pauseCanHint).toBe(true);
    expect(detector.paused()).toBe('long-pause');
    expect(detector.paused()).toBeUndefined();
    expect(detector.finished(fail('cc'), THRESHOLDS).hint).toBeUndefined();
    expect(detector.finished(fail('ls'), THRESHOLDS).hint).toBeUndefined();

    const interrupted = new HintDetector(judge);
    interrupted.finished(fail('make'), THRESHOLDS);
    expect(interrupted.finished(fail('sleep 9', 130), THRESHOLDS).pauseCanHint).toBe(false);
    expect(interrupted.paused()).toBeUndefined();
  });

  const command = fc.constantFrom('make', 'npm test', 'npm  test', 'grep -q x f', 'test -f a', 'cc x.c', 'ls nope');
  const finished = fc.record({ command, exitCode: fc.option(fc.constantFrom(0, 1, 2, 127, 130, 148), { nil: undefined }) });

  it('property: at most one hint between two successes, and a success never hints', () => {
    fc.assert(
      fc.property(fc.array(finished, { maxLength: 40 }), fc.integer({ min: 2, max: 5 }), fc.integer({ min: 2, max: 5 }), (commands, errorCascade, retryLoop) => {
        const detector = new HintDetector(judge);
        let hintsInEpisode = 0;
        for (const entry of commands) {
          const step = detector.finished(entry, { errorCascade, retryLoop });
          if (entry.exitCode === 0) {
            expect(step.hint).toBeUndefined();
            expect(step.pauseCanHint).toBe(false);
            hintsInEpisode = 0;
            continue;
          }
          if (step.hint) hintsInEpisode++;
          if (step.pauseCanHint && detector.paused()) hintsInEpisode++;
          expect(hintsInEpisode).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it('property: a success ends the episode — what follows is judged afresh', () => {
    fc.assert(
      fc.property(fc.array(finished, { maxLength: 20 }), fc.array(finished, { maxLength: 20 }), (before, after) => {
        const detector = new HintDetector(judge);
        for (const entry of before) detector.finished(entry, THRESHOLDS);
        const ended = detector.finished(ok('true'), THRESHOLDS);
        expect(ended.hint).toBeUndefined();
        const afterwards = after.map((entry) => detector.finished(entry, THRESHOLDS).hint);
        const fresh = new HintDetector(judge);
        expect(afterwards).toEqual(after.map((entry) => fresh.finished(entry, THRESHOLDS).hint));
      }),
    );
  });

  it('normalises whitespace only', () => {
    expect(normalizeCommand('  git   push\t origin ')).toBe('git push origin');
    expect(normalizeCommand('echo "a  b"')).toBe('echo "a b"');
  });
});

describe('expected failures', () => {
  it.each([
    ['grep -q TODO src/x.c', true],
    ['grep -qi todo x', true],
    ['grep --quiet x f', true],
    ['cat f | grep -q x', true],
    ['LC_ALL=C grep -q x f', true],
    ['/usr/bin/test -f x', true],
    ['[ -f x ]', true],
    ['[[ -f x ]]', true],
    ['diff -u a b', true],
    ['cmp a b', true],
    ['! grep -q x f', true],
    ['diff a b 2>&1', true],
    ['grep x f', false],
    ['grep -q x f && make', false],
    ['make; test -f out', false],
    ['make || test -f out', false],
    ['test -f x &', false],
    ["grep -q 'a;b' f", true],
    ['echo "unclosed', false],
    ['make', false],
    ['', false],
    // Read as bash reads them: lists, quotes, subshells, compound commands.
    ['grep -q x f && echo y', true],
    ['grep -q x f && echo y || echo n', true],
    ['test -f a && test -f b', true],
    ['[ -d x ] || mkdir x', false],
    ['[ -d x ] || [ -d y ]', true],
    ['if test -f x; then diff x y; fi', true],
    ['if test -f x; then cat x; fi', false],
    ['if make; then echo built; else test -f old; fi', true],
    ['if grep -q x f; then make; elif test -d y; then cmp a b; fi', false],
    ['( grep -q x f )', true],
    // cd fails with status 1 too: a missing folder is a real failure.
    ['( cd sub && grep -q x f )', false],
    ['{ diff a b; }', true],
    ['grep -q "a && make" f', true],
    ["echo 'grep -q x f'", false],
    ['make | grep -q error', true],
    ['grep -q x f | make', false],
    ['for f in *.c; do grep -q main "$f"; done', true],
    ['while read l; do test -n "$l"; done < list', true],
    ['case $x in a) test -f a;; *) make;; esac', false],
    ['$GREP -q x f', false],
    ['grep -q x f; # just checking', true],
  ])('%j → %s', (line, expected) => {
    expect(judge.isExpected(line, 1)).toBe(expected);
  });

  it('only a "no" (status 1) is an answer: 2 is grep\'s, diff\'s and test\'s trouble', () => {
    expect(judge.isExpected('diff a b', 2)).toBe(false);
    expect(judge.isExpected('grep -q x missing-file', 2)).toBe(false);
    expect(judge.isExpected('test -f x', 127)).toBe(false);
  });

  it('counts every failure until the grammar is loaded', async () => {
    let load!: (parser: Awaited<ReturnType<typeof import('../../src/main/safety/shellParser').getShellParser>>) => void;
    const later = new ExpectedFailures(new Promise((resolve) => (load = resolve)));
    expect(later.isExpected('grep -q x f', 1)).toBe(false);
    load(await (await import('../../src/main/safety/shellParser')).getShellParser());
    await later.ready;
    expect(later.isExpected('grep -q x f', 1)).toBe(true);
  });
});

describe('the failures a bare `??` sends', () => {
  const block = (ordinal: number, exitCode: number | undefined, ended = true): Block => ({
    id: `p1b${ordinal}`,
    paneId: 1,
    command: `cmd${ordinal}`,
    cwd: '/',
    startedAt: ordinal,
    endedAt: ended ? ordinal + 1 : undefined,
    exitCode,
    trusted: true,
    outputOffset: 0,
    usedAlternateScreen: false,
  });

  it('are the failures since the last success, newest last, at most three', () => {
    expect(recentFailures([block(1, 1), block(2, 0), block(3, 2), block(4, 1)]).map((b) => b.id)).toEqual(['p1b3', 'p1b4']);
    expect(recentFailures([block(1, 1), block(2, 1), block(3, 1), block(4, 1)]).map((b) => b.id)).toEqual(['p1b2', 'p1b3', 'p1b4']);
    expect(recentFailures([block(1, 1), block(2, 0)])).toEqual([]);
    expect(recentFailures([block(1, 1), block(2, undefined, false)]).map((b) => b.id)).toEqual(['p1b1']);
  });
});
