import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { basename, join } from 'node:path';
import { shellTimeout } from './shellTimeout';

/** The server needs an absolute path: it re-executes itself for each connection. */
const SSHD = '/usr/sbin/sshd';
/** Where a root sshd chroots its unprivileged pre-auth child (compiled in); made by the init script, so absent when no sshd service ever ran. */
const PRIVSEP_DIR = '/run/sshd';

/** Why the ssh tests cannot run here (undefined when they can); .ci/run installs openssh-server and openssh-client. */
export function sshSkipReason(): string | undefined {
  const missing = [existsSync(SSHD) ? undefined : 'sshd (openssh-server)', ...['ssh', 'ssh-keygen'].map((program) => (spawnSync('sh', ['-c', `command -v ${program}`]).status === 0 ? undefined : `${program} (openssh-client)`))].filter(Boolean);
  return missing.length ? `${missing.join(', ')} not installed; .ci/run installs them` : undefined;
}

/** Why tests that create login users cannot run here (they need root and `useradd`); undefined when they can. */
export function sshUsersSkipReason(): string | undefined {
  const missing = sshSkipReason();
  if (missing) return missing;
  if (process.getuid?.() !== 0) return 'creating test login users needs root (useradd); run as root, as .ci/run does';
  return spawnSync('sh', ['-c', 'command -v useradd && command -v userdel && command -v usermod']).status === 0 ? undefined : 'useradd/userdel/usermod (passwd) not installed';
}

/** A login user the server creates for one run: a login shell, and optionally sshd_config lines under `Match User`. */
export interface TestUserSpec {
  /** Absolute path of the login shell (`/usr/bin/bash`). */
  shell: string;
  /** sshd_config lines for this user alone (`SetEnv TMPDIR=/x`, `ForceCommand …`). */
  match?: string[];
}

export interface TestUser {
  /** Unique per run: `tdm<hex>` plus the shell's name. */
  name: string;
  shell: string;
  home: string;
}

export interface SshServer {
  port: number;
  /** `ssh` options that log in to this server as the current user with the generated key (then the command). */
  clientArgs: string[];
  /** The users made for this run, in the order asked for. */
  users: TestUser[];
  /**
   * What a user types after `ssh` to log in as `user` (no `-F /dev/null`, no BatchMode: an
   * interactive login): `-i key -o UserKnownHostsFile=… -o StrictHostKeyChecking=accept-new -p PORT user@127.0.0.1`.
   */
  loginArgs(user: string): string[];
  stop(): Promise<void>;
}

export interface SshServerOptions {
  /** Login users to create (needs root; see sshUsersSkipReason); removed with `userdel -r` on stop. */
  users?: TestUserSpec[];
}

/**
 * A private sshd on 127.0.0.1 as the current user, with its own host key and one client key
 * authorized, no password logins and no system configuration (`-f` a generated file). Runs
 * as root (CI) or unprivileged, in which case it can log in only as that user — the user
 * the tests run as anyway.
 */
export async function startSshServer(options: SshServerOptions = {}): Promise<SshServer> {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-sshd-'));
  let users: TestUser[] = [];
  try {
    generateKey(join(dir, 'host_ed25519'));
    generateKey(join(dir, 'client_ed25519'));
    if (process.getuid?.() === 0) mkdirSync(PRIVSEP_DIR, { recursive: true, mode: 0o755 });
    if (options.users?.length) {
      // sshd opens AuthorizedKeysFile as the user logging in: the dir must be passable, the key readable.
      chmodSync(dir, 0o711);
      chmodSync(join(dir, 'client_ed25519.pub'), 0o644);
      users = options.users.map(createUser);
    }
    const matches = (options.users ?? []).flatMap((spec, i) => (spec.match?.length ? [`Match User ${users[i]!.name}`, ...spec.match.map((line) => `  ${line}`)] : []));
    // A port taken between looking and listening (other tests run alongside): look again.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const config = join(dir, 'sshd_config');
      writeFileSync(config, sshdConfig(dir, port) + matches.map((line) => `${line}\n`).join(''));
      try {
        const server = await listening(spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] }), port);
        const stop = async () => {
          await server.stop();
          users.forEach(removeUser);
          rmSync(dir, { recursive: true, force: true });
        };
        const args = clientArgs(dir, port);
        // A login that fails (a locked account, say) says why here, not as a wrong exit status in a test.
        const login = spawnSync('ssh', ['-n', '-T', ...args, 'true'], { encoding: 'utf8', timeout: shellTimeout(20_000) });
        if (login.status !== 0) {
          await stop();
          throw new Error(`ssh to the test sshd failed (${login.status ?? login.signal}): ${login.stderr.trim()}\nsshd: ${server.log().trim()}`);
        }
        const loginArgs = (user: string) => [
          '-i', join(dir, 'client_ed25519'),
          '-o', `UserKnownHostsFile=${join(dir, 'known_hosts')}`,
          '-o', 'StrictHostKeyChecking=accept-new',
          '-p', String(port),
          `${user}@127.0.0.1`,
        ];
        return { port, clientArgs: args, users, loginArgs, stop };
      } catch (error) {
        if (attempt >= 3 || !/Address already in use/.test((error as Error).message)) throw error;
      }
    }
  } catch (error) {
    users.forEach(removeUser);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function createUser(spec: TestUserSpec): TestUser {
  const name = `tdm${randomBytes(4).toString('hex')}${basename(spec.shell).replace(/[^a-z]/g, '').slice(0, 8)}`;
  const run = (program: string, args: string[]) => {
    const done = spawnSync(program, args, { encoding: 'utf8' });
    if (done.status !== 0) throw new Error(`${program} ${args.join(' ')} failed: ${done.stderr || done.error?.message}`);
  };
  run('useradd', ['-m', '-s', spec.shell, name]);
  // useradd leaves the account locked ('!'): without PAM, sshd refuses even a key login then.
  run('usermod', ['-p', '*', name]);
  const home = `/home/${name}`;
  // A fresh zsh account would otherwise stop at zsh-newuser-install's menu.
  if (basename(spec.shell) === 'zsh') run('su', ['-s', '/bin/sh', name, '-c', 'touch ~/.zshrc']);
  return { name, shell: spec.shell, home };
}

function removeUser(user: TestUser): void {
  spawnSync('userdel', ['-r', '-f', user.name], { encoding: 'utf8' });
}

function generateKey(path: string): void {
  const made = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'tandem-test', '-f', path], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`ssh-keygen could not make ${path}: ${made.stderr || made.error?.message}`);
}

function sshdConfig(dir: string, port: number): string {
  return [
    'ListenAddress 127.0.0.1',
    `Port ${port}`,
    `HostKey ${join(dir, 'host_ed25519')}`,
    `PidFile ${join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${join(dir, 'client_ed25519.pub')}`,
    // The key files live in a temp dir, not in a ~/.ssh the server would check the modes of.
    'StrictModes no',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin prohibit-password',
    'UsePAM no',
    'UseDNS no',
    // Nothing but the command's own output on a TTY session.
    'PrintMotd no',
    'PrintLastLog no',
    '',
  ].join('\n');
}

function clientArgs(dir: string, port: number): string[] {
  return [
    '-F', '/dev/null',
    '-i', join(dir, 'client_ed25519'),
    '-p', String(port),
    '-l', userInfo().username,
    '-o', 'IdentitiesOnly=yes',
    '-o', 'StrictHostKeyChecking=no',
    '-o', 'UserKnownHostsFile=/dev/null',
    '-o', 'BatchMode=yes',
    // No "Permanently added … to the list of known hosts" among the command's output.
    '-o', 'LogLevel=ERROR',
    '127.0.0.1',
  ];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Resolves once sshd says it listens (`-e` logs to stderr); rejects with its log if it exits first. */
function listening(sshd: ChildProcess, port: number): Promise<{ stop(): Promise<void>; log(): string }> {
  return new Promise((resolve, reject) => {
    let log = '';
    const exited = new Promise<void>((done) => sshd.once('exit', () => done()));
    const stop = async () => {
      if (sshd.exitCode === null && sshd.signalCode === null) sshd.kill('SIGTERM');
      await exited;
    };
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`sshd did not listen on port ${port} in time: ${log.trim()}`));
    }, shellTimeout(10_000));
    sshd.stderr!.setEncoding('utf8');
    sshd.stderr!.on('data', (text: string) => {
      log += text;
      if (!new RegExp(`Server listening on 127\\.0\\.0\\.1 port ${port}\\b`).test(log)) return;
      clearTimeout(timer);
      resolve({ stop, log: () => log });
    });
    sshd.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`sshd could not start: ${error.message}`));
    });
    sshd.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`sshd exited (${code ?? signal}) before listening: ${log.trim()}`));
    });
  });
}

/** `word` for a POSIX shell, as one argument. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line a user types after `ssh host` to run a program in `cwd` with `env` set:
 * `cd DIR && env VAR=… program args…`, each word quoted for the remote shell.
 */
export function remoteCommand(cwd: string, env: NodeJS.ProcessEnv, argv: string[]): string {
  const assignments = Object.entries(env).flatMap(([name, value]) => (value === undefined ? [] : [shellWord(`${name}=${value}`)]));
  return `cd ${shellWord(cwd)} && env ${assignments.join(' ')} ${argv.map(shellWord).join(' ')}`;
}
