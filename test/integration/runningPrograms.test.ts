import { describe, expect, it } from 'vitest';
import type { PaneRunning } from '../../src/shared/closeQuestion';
import { latest } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';
import { useEngineClient, type EngineClient } from '../support/engineClient';
import { waitUntil } from '../support/waitUntil';

/**
 * What closing a pane would end, as the engine finds it with real shells in a real pty: the
 * foreground process group of the pane's terminal, read from /proc.
 */
const { open } = useEngineClient();
const openWithModel = useAgentEngine();

type StartedEngine = Awaited<ReturnType<typeof open>>['engine'];

async function openPane(options: { shell?: string; configToml?: string } = {}) {
  const { client, engine } = await open({ shell: options.shell ?? '/bin/bash', configToml: options.configToml });
  const { paneId } = await client.request('pane.create', { cols: 100, rows: 30 });
  await client.waitForPrompt(paneId);
  return { client, engine, paneId };
}

function runningNow(engine: StartedEngine, paneId: number): PaneRunning | undefined {
  return engine.engine.runningIn([paneId])[0];
}

/** Waits until the engine names exactly `programs` as running in the pane. */
async function untilRunning(engine: StartedEngine, paneId: number, programs: string[]): Promise<void> {
  let last: string[] | undefined;
  try {
    await waitUntil(() => {
      last = runningNow(engine, paneId)?.programs;
      return JSON.stringify(last) === JSON.stringify(programs);
    }, `${JSON.stringify(programs)} to run in pane ${paneId}`);
  } catch (error) {
    throw new Error(`${(error as Error).message} (last seen: ${JSON.stringify(last)})`);
  }
}

async function interruptUntilIdle(client: EngineClient, engine: StartedEngine, paneId: number, keys = '\x03'): Promise<void> {
  client.type(paneId, keys);
  await untilRunning(engine, paneId, []);
}

describe('what runs in a pane (foreground process group from /proc)', { timeout: 60_000 }, () => {
  it('names nothing for an idle shell, then sleep, vim, python3 and a nested bash while they run', async () => {
    const { client, engine, paneId } = await openPane();
    expect(runningNow(engine, paneId)).toEqual({ paneId, alive: true, programs: [] });
    // Over the protocol, as the renderer asks before it closes a pane.
    expect(await client.request('pane.running', { paneIds: [paneId, 999] })).toEqual({ panes: [{ paneId, alive: true, programs: [] }] });

    client.type(paneId, 'sleep 100\r');
    await untilRunning(engine, paneId, ['sleep']);
    expect(await client.request('pane.running', { paneIds: [paneId] })).toEqual({ panes: [{ paneId, alive: true, programs: ['sleep'] }] });
    await interruptUntilIdle(client, engine, paneId);

    client.type(paneId, 'vim -u NONE -N notes.txt\r');
    await untilRunning(engine, paneId, ['vim']);
    await interruptUntilIdle(client, engine, paneId, '\x1b:q!\r');

    client.type(paneId, 'python3\r');
    await untilRunning(engine, paneId, ['python3']);
    await interruptUntilIdle(client, engine, paneId, 'exit()\r');

    client.type(paneId, 'bash --norc\r');
    await untilRunning(engine, paneId, ['bash']);
    // The inner shell runs a program of its own: both are named, the outer one first.
    client.type(paneId, 'sleep 100\r');
    await untilRunning(engine, paneId, ['bash', 'sleep']);
    client.type(paneId, '\x03');
    await untilRunning(engine, paneId, ['bash']);
    await interruptUntilIdle(client, engine, paneId, 'exit\r');
  });

  it('names a loop the shell runs itself by its command line, bash started from zsh, and sleep in fish', async () => {
    const { client, engine, paneId } = await openPane();
    client.type(paneId, 'while :; do :; done\r');
    // The shell keeps the terminal: the running block's command line is what closing ends.
    await untilRunning(engine, paneId, ['“while :; do :; done”']);
    await interruptUntilIdle(client, engine, paneId);

    const zsh = await openPaneIn(client, '/usr/bin/zsh');
    expect(runningNow(engine, zsh)?.programs).toEqual([]);
    client.type(zsh, 'bash --norc\r');
    await untilRunning(engine, zsh, ['bash']);
    await interruptUntilIdle(client, engine, zsh, 'exit\r');

    const fish = await openPaneIn(client, '/usr/bin/fish');
    expect(runningNow(engine, fish)?.programs).toEqual([]);
    client.type(fish, 'sleep 100\r');
    await untilRunning(engine, fish, ['sleep']);
    await interruptUntilIdle(client, engine, fish);
  });

  it('an exited pane ends nothing; the window asks only as [terminal] confirm_close says', async () => {
    const running = await openPane();
    running.client.type(running.paneId, 'sleep 100\r');
    await untilRunning(running.engine, running.paneId, ['sleep']);
    expect(running.engine.engine.quitQuestion()).toMatchObject({ title: 'Quit Tandem?', programs: ['sleep'], message: 'sleep is running in Tandem. Quitting ends it.' });
    await interruptUntilIdle(running.client, running.engine, running.paneId);
    // An idle shell: "running" (the default) lets the window close at once.
    expect(running.engine.engine.quitQuestion()).toBeUndefined();
    running.client.type(running.paneId, 'exit\r');
    await running.client.waitFor(() => running.client.eventsOf('pane.exit').length > 0, 15_000, 'the shell to exit');
    expect(runningNow(running.engine, running.paneId)).toEqual({ paneId: running.paneId, alive: false, programs: [] });
  });

  it('"always" asks for an idle shell, "never" not even for a running program', async () => {
    const always = await openPane({ configToml: '[terminal]\nconfirm_close = "always"\n' });
    expect(always.engine.engine.quitQuestion()).toMatchObject({ programs: [], message: 'Quitting ends the shells of all its panes.' });
    await always.engine.stop();

    const never = await openPane({ configToml: '[terminal]\nconfirm_close = "never"\n' });
    never.client.type(never.paneId, 'sleep 100\r');
    await untilRunning(never.engine, never.paneId, ['sleep']);
    expect(never.engine.engine.quitQuestion()).toBeUndefined();
  });
});

describe('what an agent run in a pane counts as', { timeout: 60_000 }, () => {
  it('an !auto run working in the pane is named, also while its shell waits at the prompt', async () => {
    const { client, model, paneId, engine } = await openWithModel();
    model.script({ parts: [{ toolUse: { id: 'y1', name: 'run_command', input: { command: 'touch from-auto.txt', purpose: 'make the file' } } }] });
    client.type(paneId, '!auto make a file\r');
    await client.waitFor(() => latest(client)?.status === 'awaiting-approval', 15_000, 'the run to wait for the user');
    expect(engine.runningIn([paneId])).toEqual([{ paneId, alive: true, programs: ['an !auto run'] }]);
    expect(engine.quitQuestion()?.message).toBe('an !auto run is running in Tandem. Quitting ends it.');
    await client.request('agent.auto-stop', {});
    await waitUntil(() => engine.runningIn([paneId])[0]?.programs.length === 0, 'the run to end');
  });
});

async function openPaneIn(client: EngineClient, shell: string): Promise<number> {
  const { paneId } = await client.request('pane.create', { cols: 100, rows: 30, shell });
  await client.waitForPrompt(paneId);
  return paneId;
}
