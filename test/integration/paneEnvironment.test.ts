import { describe, expect, it } from 'vitest';
import { waitForIdleWithAnswer } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';
import type { EngineClient } from '../support/engineClient';
import type { ScriptedModelServer } from '../support/modelServer';

/**
 * The model is told the environment of the pane's shell — what it exports now, reported by
 * the shell integration with each prompt — not the engine's own. Real shells, the real SDK,
 * the scripted model server.
 */

const open = useAgentEngine();
/** A quiet machine's time limit; the waiters scale it for this one. */
const TIMEOUT = 15_000;
const TOKEN = `ghp_${'Zx9Cv8Bn7Mq6Wl5Ek4Rj3Th2Yg1Uf0Id9Os8Pa7'.slice(0, 36)}`;

const SHELLS = [
  { name: 'bash', path: '/bin/bash', exported: (n: string, v: string) => `export ${n}=${v}`, local: (n: string, v: string) => `${n}=${v}`, unset: (n: string) => `unset ${n}` },
  { name: 'zsh', path: '/usr/bin/zsh', exported: (n: string, v: string) => `export ${n}=${v}`, local: (n: string, v: string) => `${n}=${v}`, unset: (n: string) => `unset ${n}` },
  { name: 'fish', path: '/usr/bin/fish', exported: (n: string, v: string) => `set -gx ${n} ${v}`, local: (n: string, v: string) => `set -g ${n} ${v}`, unset: (n: string) => `set -e ${n}` },
] as const;

async function run(client: EngineClient, paneId: number, command: string): Promise<void> {
  client.type(paneId, `${command}\r`);
  await client.waitForBlock(paneId, command, TIMEOUT);
  // The report goes with the prompt drawn after the command.
  await client.waitFor(() => client.eventsOf('pane.state').filter((s) => s.paneId === paneId).at(-1)?.state === 'PROMPT', TIMEOUT, 'the prompt');
}

/** The environment lines of the system prompt of request `n` (asked after the commands ran). */
async function environmentSent(client: EngineClient, model: ScriptedModelServer, paneId: number, n: number): Promise<string> {
  model.script({ parts: [{ text: 'Noted.' }] });
  await client.request('agent.send', { text: 'what environment am I in?', attachments: [], paneId });
  const request = await model.waitForRequest(n, TIMEOUT);
  const system = String(request.body?.system);
  return system.split('\n').filter((line) => line.startsWith('Environment variables:')).join('\n');
}

describe.each(SHELLS)('$name: the pane\'s environment reaches the model', (shell) => {
  it('exported values as the shell has them now; not the engine\'s, not unexported ones, secrets scrubbed', async () => {
    const { client, model, paneId } = await open({
      shell: shell.path,
      env: { VIRTUAL_ENV: '/engine/venv', TERM: 'xterm', NODE_ENV: 'engine' },
      configToml: '[context]\ninclude_env = ["TERM", "VIRTUAL_ENV", "NODE_ENV", "DEPLOY_KEY_HINT", "PROJECT_TAG", "MY_API_TOKEN"]\n',
    });
    await run(client, paneId, shell.exported('VIRTUAL_ENV', '/tmp/venv'));
    await run(client, paneId, shell.unset('NODE_ENV'));
    await run(client, paneId, shell.local('NODE_ENV', 'production'));
    await run(client, paneId, shell.exported('PROJECT_TAG', `'a b;c%d'`));
    await run(client, paneId, shell.exported('DEPLOY_KEY_HINT', TOKEN));
    await run(client, paneId, shell.exported('MY_API_TOKEN', 'plain-value-never-sent'));
    const first = await environmentSent(client, model, paneId, 1);
    expect(first).toContain('VIRTUAL_ENV=/tmp/venv');
    expect(first).toContain('TERM=xterm-256color');
    expect(first).toContain('PROJECT_TAG=a b;c%d');
    expect(first).not.toContain('/engine/venv');
    // Set but not exported: a child process would not see it.
    expect(first).not.toContain('NODE_ENV');
    // A secret-looking value is redacted; a secret-looking name is never sent at all.
    expect(first).not.toContain(TOKEN);
    expect(first).toContain('DEPLOY_KEY_HINT=[REDACTED');
    expect(first).not.toContain('MY_API_TOKEN');

    await run(client, paneId, shell.unset('VIRTUAL_ENV'));
    await waitForIdleWithAnswer(client, 'Noted.');
    const second = await environmentSent(client, model, paneId, 2);
    expect(second).not.toContain('VIRTUAL_ENV');
    expect(second).toContain('TERM=xterm-256color');
  });
});

describe('bash: a program cannot forge an environment report', () => {
  it('an OSC 6973 printed by a command (no nonce) changes nothing', async () => {
    const { client, model, paneId } = await open({ configToml: '[context]\ninclude_env = ["VIRTUAL_ENV"]\n' });
    await run(client, paneId, 'export VIRTUAL_ENV=/real/venv');
    await run(client, paneId, "printf '\\033]6973;env;tandem=forged;VIRTUAL_ENV=/forged\\007'");
    const sent = await environmentSent(client, model, paneId, 1);
    expect(sent).toContain('VIRTUAL_ENV=/real/venv');
    expect(sent).not.toContain('/forged');
  });
});
