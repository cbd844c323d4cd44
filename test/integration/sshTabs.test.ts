import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import ptyModule from 'node-pty';
import { beforeAll, describe, expect, it } from 'vitest';
import { askRunningTandem } from '../../src/main/cli/ssh/runningTandem';
import { listenForSshTabs, sshTabAddress } from '../../src/main/ssh/sshTabEndpoint';
import { TANDEM_BIN } from '../support/agentCli';
import { useEngineClient } from '../support/engineClient';
import { testHomeEnv } from '../support/testHome';
import { waitUntil } from '../support/waitUntil';

// `tandem ssh` with a Tandem running for the same user: the engine's socket (as `tandem web`
// opens it) asks the window for a tab; without a window, or from a pipe, ssh runs right here.
const { open } = useEngineClient();

beforeAll(() => {
  if (!existsSync(join(__dirname, '../../out/main/cli.js'))) throw new Error('tandem ssh tests run the built CLI: run `npm run build` first.');
});

function stubSsh(home: string): NodeJS.ProcessEnv {
  const bin = join(home, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'ssh'), `#!/bin/sh\nprintf 'ssh ran here:'; for a in "$@"; do printf ' [%s]' "$a"; done; printf '\\n'\nexit 3\n`);
  chmodSync(join(bin, 'ssh'), 0o755);
  return { ...testHomeEnv(home), PATH: `${bin}:/usr/bin:/bin`, TERM: 'xterm-256color' };
}

function tandemSshInPty(args: string[], env: NodeJS.ProcessEnv): Promise<{ exitCode: number; output: string }> {
  let output = '';
  const pty = ptyModule.spawn(process.execPath, [TANDEM_BIN, 'ssh', ...args], { cols: 160, rows: 30, env: env as Record<string, string> });
  pty.onData((data) => (output += data));
  return new Promise((resolve) => pty.onExit(({ exitCode }) => resolve({ exitCode, output: output.replaceAll('\r', '') })));
}

describe('tandem ssh with Tandem running', () => {
  it("opens a tab in the engine's window with the arguments intact, and runs ssh here once no window is attached", async () => {
    const { engine, client } = await open({ shell: '/bin/bash' });
    const endpoint = await listenForSshTabs(engine.engine.paths.stateDir, engine.engine);
    expect(endpoint).not.toBeNull();
    try {
      const env = stubSsh(engine.home);
      const args = ['-p', '2222', "o'neil@host", 'echo $HOME'];
      const opened = await tandemSshInPty(args, env);
      expect(opened.output).toContain("tandem: `ssh -p 2222 'o'\\''neil@host' 'echo $HOME'` runs in a new tab of Tandem's window.");
      expect(opened.exitCode).toBe(0);
      await waitUntil(() => client.eventsOf('ssh.open-tab').length === 1, 'the window to be asked for a tab');
      expect(client.eventsOf('ssh.open-tab')).toEqual([{ args }]);

      // From a pipe, ssh runs here: its output is the caller's.
      const piped = spawnSync(process.execPath, [TANDEM_BIN, 'ssh', 'web1'], { env, encoding: 'utf8' });
      expect(piped.stdout).toBe('ssh ran here: [web1]\n');
      expect(piped.status).toBe(3);

      // The window goes: the engine says so and ssh runs in the terminal tandem ssh was typed in.
      client.close();
      const deadline = Date.now() + 20_000;
      while (await askRunningTandem(['probe'], env)) if (Date.now() > deadline) throw new Error('the engine still had a window');
      const here = await tandemSshInPty(['web1'], env);
      expect(here.output).toContain('ssh ran here: [web1]\n');
      expect(here.exitCode).toBe(3);
    } finally {
      endpoint?.close();
    }
  });

  it('refuses a request whose arguments hold control characters (they would act as keys when typed), and lines that are no request', async () => {
    const { engine, client } = await open({ shell: '/bin/bash' });
    const endpoint = await listenForSshTabs(engine.engine.paths.stateDir, engine.engine);
    try {
      const address = sshTabAddress(engine.engine.paths.stateDir)!;
      for (const line of [JSON.stringify({ op: 'ssh', args: ['host\x15rm -rf ~'] }), JSON.stringify({ op: 'ssh', args: ['a\nb'] }), 'not json', JSON.stringify({ op: 'ssh', args: [] })]) {
        expect(await send(address.endpoint, line)).toEqual({ ok: false, reason: 'invalid', message: 'not a tandem ssh request' });
      }
      expect(client.eventsOf('ssh.open-tab')).toEqual([]);
      // tandem ssh itself never sends such arguments: it runs ssh here with them.
      const here = await tandemSshInPty(['host\x15id'], stubSsh(engine.home));
      expect(here.exitCode).toBe(3);
      expect(client.eventsOf('ssh.open-tab')).toEqual([]);
    } finally {
      endpoint?.close();
    }
  });
});

function send(path: string, line: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = createConnection(path, () => socket.write(`${line}\n`));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(JSON.parse(text)));
    socket.on('error', reject);
  });
}
