import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Pane } from '../../../src/main/panes/pane';
import { ShellProcess } from '../../../src/main/panes/shellProcess';
import { makeTempDir, removeDir, SHELLS, skipFishCompletionJob, writeFiles, type ShellName } from '../harness/shellSession';
import { waitUntil } from '../../support/waitUntil';

/**
 * The same integration driven through the engine's Pane (which spawns with
 * buildShellLaunch, scans, tracks blocks and mirrors the screen): what the app sees.
 */

let pane: Pane | undefined;
let home: string | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  // Wait for the shell to exit (it writes its history on the way out) before removing HOME.
  await pane?.close();
  pane = undefined;
  if (home) removeDir(home);
  home = undefined;
});


/** A login shell with Tandem's integration in a 120×30 pane, its HOME `home`. */
function loginPane(id: number, shellPath: string, home: string): Pane {
  return new Pane({ id, shellPath, cwd: home, cols: 120, rows: 30, scrollback: 1_000, integration: true, login: true, env: { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8' } });
}

describe.each(['bash', 'zsh', 'fish'] as ShellName[])('Pane with %s', (shell) => {
  it('turns typed commands into trusted blocks with exit codes, cwd and output', async () => {
    home = makeTempDir(`pane-${shell}`);
    writeFiles(home, { '.config/fish/config.fish': 'set -g fish_greeting\n' });
    skipFishCompletionJob(home);
    const states: string[] = [];
    pane = loginPane(7, SHELLS[shell], home);
    pane.attach({
      output: () => {},
      event: (event, payload) => {
        if (event === 'pane.state') states.push((payload as { state: string }).state);
      },
    });
    pane.start();
    await waitUntil(() => pane!.state === 'PROMPT', 'the first prompt');
    expect(pane.info().integration).toBe(true);

    pane.write('echo "hello from $TERM_PROGRAM"\r');
    await waitUntil(() => pane!.blocks().some((block) => block.endedAt !== undefined) && pane!.state === 'PROMPT', 'the first block');
    pane.write('false\r');
    await waitUntil(() => pane!.blocks().filter((block) => block.endedAt !== undefined).length === 2 && pane!.state === 'PROMPT', 'the second block');

    const [first, second] = pane.blocks();
    expect(first).toMatchObject({ command: 'echo "hello from $TERM_PROGRAM"', exitCode: 0, cwd: home, trusted: true });
    expect(second).toMatchObject({ command: 'false', exitCode: 1, trusted: true });
    const output = await pane.outputOf(first!.id);
    expect(output?.text).toContain('hello from Tandem');
    expect(states).toContain('EXECUTING');
  });
});

describe.each(['bash', 'zsh', 'fish'] as ShellName[])('A plan step typed into a %s pane', (shell) => {
  it("gets the step's environment, and what runs right before Enter comes after the line and sees the world before the command", async () => {
    home = makeTempDir(`pane-step-${shell}`);
    // An `rm` first on PATH that logs its arguments: the integration must consume the step's
    // environment file without forking one (it did, before every step's command).
    writeFiles(home, {
      'bin/rm': '#!/bin/sh\nprintf "%s\\n" "$*" >>"$HOME/rm-calls"\nexec /bin/rm "$@"\n',
      '.bash_profile': 'PATH="$HOME/bin:$PATH"\n',
      '.zshrc': 'path=("$HOME/bin" $path)\n',
      '.config/fish/config.fish': 'set -g fish_greeting\nset -gx PATH $HOME/bin $PATH\n',
    });
    chmodSync(join(home, 'bin/rm'), 0o755);
    skipFishCompletionJob(home);
    pane = loginPane(8, SHELLS[shell], home);
    pane.attach({ output: () => {}, event: () => {} });
    pane.start();
    await waitUntil(() => pane!.state === 'PROMPT', 'the first prompt');

    // What reaches the shell, seen on its way (the writes still go to the pty).
    const toShell: string[] = [];
    const write = ShellProcess.prototype.write;
    vi.spyOn(ShellProcess.prototype, 'write').mockImplementation(function (this: ShellProcess, data, fromUser) {
      toShell.push(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));
      write.call(this, data, fromUser);
    });
    const marker = join(home, 'ran');
    const command = `touch ${marker} && echo "step-env=[$TANDEM_STEP_TEST]"`;
    let beforeEnter: { ran: boolean; written: string } | undefined;
    pane.typeCommand(command, {
      env: () => ({ TANDEM_STEP_TEST: 'from-the-step' }),
      beforeEnter: () => {
        // Time enough for a shell that already had Enter to run the command.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
        beforeEnter = { ran: existsSync(marker), written: toShell.join('') };
      },
    });
    await waitUntil(() => pane!.blocks().some((block) => block.endedAt !== undefined) && pane!.state === 'PROMPT', 'the step to finish');

    // Nothing stood between typeCommand and the line: the line was in the shell, its Enter not yet.
    expect(beforeEnter).toEqual({ ran: false, written: expect.stringContaining(command) });
    expect(beforeEnter?.written).not.toMatch(/[\r\n]/);
    const [block] = pane.blocks();
    expect(block).toMatchObject({ command, exitCode: 0 });
    expect((await pane.outputOf(block!.id))?.text).toContain('step-env=[from-the-step]');

    // The user's own next command runs without it, and no `rm` ran for the file.
    pane.write('echo "after=[$TANDEM_STEP_TEST]"; command -v rm\r');
    await waitUntil(() => pane!.blocks().filter((block) => block.endedAt !== undefined).length === 2 && pane!.state === 'PROMPT', "the user's command");
    const after = (await pane.outputOf(pane.blocks()[1]!.id))?.text ?? '';
    expect(after).toContain('after=[]');
    expect(after).toContain(join(home, 'bin/rm'));
    const rmCalls = existsSync(join(home, 'rm-calls')) ? readFileSync(join(home, 'rm-calls'), 'utf8') : '';
    expect(rmCalls).not.toContain('step-env');
  });
});

describe("A pane's watchers", () => {
  it("hear a block's end and the prompt after the client was sent the output holding their marks", async () => {
    home = makeTempDir('pane-watchers');
    pane = loginPane(9, SHELLS.bash, home);
    let sent = '';
    pane.attach({ output: (_id, bytes) => (sent += Buffer.from(bytes).toString('latin1')), event: () => {} });
    pane.start();
    await waitUntil(() => pane!.state === 'PROMPT', 'the first prompt');

    const heard: { what: string; sentMarks: number }[] = [];
    const marksSent = (mark: string) => sent.split(mark).length - 1;
    const watching = pane.observe({
      blockFinished: () => heard.push({ what: 'finished', sentMarks: marksSent('\x1b]133;D;') }),
      promptShown: () => heard.push({ what: 'prompt', sentMarks: marksSent('\x1b]133;A') }),
    });
    const finishedBefore = marksSent('\x1b]133;D;');
    const promptsBefore = marksSent('\x1b]133;A');
    pane.write('echo watched\r');
    await waitUntil(() => heard.some((h) => h.what === 'finished') && heard.some((h) => h.what === 'prompt'), 'the block end and the prompt, watched');
    watching.dispose();

    expect(heard.find((h) => h.what === 'finished')!.sentMarks).toBe(finishedBefore + 1);
    expect(heard.find((h) => h.what === 'prompt')!.sentMarks).toBeGreaterThan(promptsBefore);
  });
});
