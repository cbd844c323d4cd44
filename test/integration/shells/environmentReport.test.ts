import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, ShellSession, type ShellName } from '../harness/shellSession';

/**
 * The integration reports the exported values of the variables Tandem asks for, in one
 * OSC 6973 with the nonce before the prompt — and only what changed since the last report,
 * so an ordinary prompt costs nothing.
 */

/** A quiet machine's time limit; the waiters scale it for this one. */
const TIMEOUT = 10_000;

const COMMANDS: Record<ShellName, { exported: string; local: string; unset: string; trace: string }> = {
  bash: { exported: 'export VIRTUAL_ENV="/tmp/my venv;1%"', local: 'NODE_ENV=production', unset: 'unset VIRTUAL_ENV', trace: 'set -x' },
  zsh: { exported: 'export VIRTUAL_ENV="/tmp/my venv;1%"', local: 'NODE_ENV=production', unset: 'unset VIRTUAL_ENV', trace: 'setopt xtrace' },
  fish: { exported: 'set -gx VIRTUAL_ENV "/tmp/my venv;1%"', local: 'set -g NODE_ENV production', unset: 'set -e VIRTUAL_ENV', trace: 'set -g fish_trace 1' },
};

describe.each(['bash', 'zsh', 'fish'] as const)('%s: environment reports', (shell) => {
  let session: ShellSession | undefined;
  let home: string | undefined;

  beforeAll(async () => {
    home = makeTempDir(`env-${shell}`);
    session = await ShellSession.start({ shell, home, reportEnv: ['TERM', 'VIRTUAL_ENV', 'NODE_ENV'] });
  });
  afterAll(() => {
    session?.kill();
    if (home) removeDir(home);
  });

  /** The environment reports (name → value, undefined: unset) received while `command` ran and the next prompt was drawn. */
  async function reportsDuring(command: string): Promise<Map<string, string | undefined>[]> {
    if (!session) throw new Error(`${shell} did not start (see the setup's error)`);
    const from = session.marks.length;
    await session.run(command, TIMEOUT);
    return session.marks.slice(from).flatMap((seen) => (seen.ours && seen.mark.kind === 'environment' ? [seen.mark.values] : []));
  }

  it('the first prompt reports every name: exported values, and unset ones as unset', () => {
    const first = session!.marks.filter((seen) => seen.mark.kind === 'environment');
    expect(first).toHaveLength(1);
    expect(first[0]!.ours).toBe(true);
    expect(first[0]!.mark.kind === 'environment' && Object.fromEntries(first[0]!.mark.values)).toEqual({ TERM: 'xterm-256color', VIRTUAL_ENV: undefined, NODE_ENV: undefined });
  });

  it('a prompt after a command that changed nothing sends no report', async () => {
    expect(await reportsDuring('true')).toEqual([]);
  });

  it('an export sends that variable alone, its value exact', async () => {
    expect(await reportsDuring(COMMANDS[shell].exported)).toEqual([new Map([['VIRTUAL_ENV', '/tmp/my venv;1%']])]);
  });

  it('a variable set but not exported is not reported (a child would not see it)', async () => {
    expect(await reportsDuring(COMMANDS[shell].local)).toEqual([]);
  });

  it('unset is reported as unset', async () => {
    expect(await reportsDuring(COMMANDS[shell].unset)).toEqual([new Map([['VIRTUAL_ENV', undefined]])]);
  });

  it("with the user's xtrace on, the report is sent and none of it is traced", async () => {
    const s = session!;
    await s.run(COMMANDS[shell].trace);
    const from = s.outputLength;
    expect(await reportsDuring(COMMANDS[shell].exported.replace('/tmp/my venv;1%', '/traced'))).toEqual([new Map([['VIRTUAL_ENV', '/traced']])]);
    // The user's own command is traced (the trace is really on)…
    expect(s.textSince(from)).toMatch(/^\+.*export VIRTUAL_ENV=\/traced|^> set -gx VIRTUAL_ENV \/traced/m);
    // …and nothing of ours is.
    expect(s.textSince(from)).not.toContain('__tandem');
  });

  it('the nonce appears only inside our marks', async () => {
    expect(await session!.nonceLeaks()).toEqual([]);
  });
});
