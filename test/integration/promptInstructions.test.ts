import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEngineClient, type EngineClient } from '../support/engineClient';

const { open: start } = useEngineClient();

const SHELLS = [
  { name: 'bash', path: '/bin/bash', history: '.bash_history', heredoc: true },
  { name: 'zsh', path: '/usr/bin/zsh', history: '.zsh_history', heredoc: true },
  { name: 'fish', path: '/usr/bin/fish', history: '.local/share/fish/fish_history', heredoc: false },
] as const;

async function open(shellPath: string) {
  const { engine: running, client } = await start({ shell: shellPath });
  // zsh keeps no history without these; bash writes on exit.
  writeFileSync(join(running.home, '.zshrc'), 'PROMPT="%n%# "\nHISTFILE=~/.zsh_history\nSAVEHIST=100\nHISTSIZE=100\nsetopt INC_APPEND_HISTORY\n');
  const { paneId } = await client.request('pane.create', { cols: 100, rows: 30 });
  await client.waitForPrompt(paneId);
  return { client, paneId, home: running.home };
}

function instructions(client: EngineClient): string[] {
  return client.eventsOf('agent.prompt-instruction').map((event) => event.text);
}

/** Waits until the pane is back at its prompt (input sent earlier would be typed ahead). */
function atPrompt(client: EngineClient, paneId: number): Promise<unknown> {
  return client.waitFor(() => client.eventsOf('pane.state').filter((s) => s.paneId === paneId).at(-1)?.state === 'PROMPT', 10_000, 'the prompt');
}

describe.each(SHELLS)('`# ` at a $name prompt', (shell) => {
  it('goes to the agent, never to the shell or its history; the line is left empty', async () => {
    const { client, paneId, home } = await open(shell.path);
    await client.typeKeyByKey(paneId, '# list the files here\r');
    await client.waitFor(() => instructions(client).includes('list the files here'), 10_000, 'the instruction');
    client.type(paneId, 'echo after-instruction\r');
    const block = await client.waitForBlock(paneId, 'echo after-instruction');
    expect(block.exitCode).toBe(0);
    expect(client.eventsOf('block.started').map((b) => b.command)).toEqual(['echo after-instruction']);
    await atPrompt(client, paneId);
    // Consecutive `# ` lines pasted together are one instruction.
    client.type(paneId, '\x1b[200~# first line\n# second line\x1b[201~\r');
    await client.waitFor(() => instructions(client).includes('first line\nsecond line'), 10_000, 'the pasted instruction');
    // `\#` sends a literal `#` line to the shell.
    await atPrompt(client, paneId);
    client.type(paneId, '\\# literal comment\r');
    client.type(paneId, 'echo done\r');
    await client.waitForBlock(paneId, 'echo done');
    expect(instructions(client)).not.toContain('literal comment');
    client.type(paneId, 'exit\r');
    await client.waitFor(() => client.eventsOf('pane.exit').length > 0, 10_000, 'the shell to exit');
    const historyFile = join(home, shell.history);
    const history = existsSync(historyFile) ? readFileSync(historyFile, 'utf8') : '';
    expect(history).toContain('echo after-instruction');
    expect(history).not.toContain('list the files here');
    expect(history).not.toContain('second line');
  });

  it('is not intercepted inside a heredoc, python3 or vi', async () => {
    const { client, paneId } = await open(shell.path);
    if (shell.heredoc) {
      const from = client.textOf(paneId).length;
      client.type(paneId, 'cat <<EOF\r');
      // The shell's continuation prompt (bash `> `, zsh `heredoc> `): the heredoc is open.
      await client.waitFor(() => client.textOf(paneId).slice(from).includes('> '), 10_000, 'the heredoc prompt');
      await client.typeKeyByKey(paneId, '# inside the heredoc\rEOF\r');
      const block = await client.waitFor(
        () => client.eventsOf('block.finished').find((b) => b.command.startsWith('cat <<EOF')),
        10_000,
        'the heredoc block',
      );
      expect(block.exitCode).toBe(0);
      expect(block.command).toContain('# inside the heredoc');
      expect((await client.request('block.output', { blockId: block.id })).text).toBe('# inside the heredoc');
    }
    client.type(paneId, 'python3 -q\r');
    await client.waitFor(() => client.textOf(paneId).includes('>>> '), 10_000, 'the python prompt');
    await client.typeKeyByKey(paneId, '# inside python\rprint("py-" + "ok")\rexit()\r');
    await client.waitForBlock(paneId, 'python3 -q');
    await client.waitFor(() => client.textOf(paneId).includes('py-ok'), 10_000, "python's output");
    const beforeVi = client.textOf(paneId).length;
    client.type(paneId, 'vi -u NONE\r');
    await client.waitFor(() => client.eventsOf('block.started').some((b) => b.command === 'vi -u NONE'), 10_000, 'vi');
    // vi has taken the screen (alternate screen on) and reads keys.
    await client.waitFor(() => client.textOf(paneId).slice(beforeVi).includes('\x1b[?1049h'), 10_000, "vi's screen");
    await client.typeKeyByKey(paneId, 'i# inside vi\x1b:q!\r');
    await client.waitForBlock(paneId, 'vi -u NONE');
    expect(instructions(client)).toEqual([]);
  });
});
