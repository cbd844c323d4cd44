import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { delimiter, join } from 'node:path';
import { hasControlCharacter } from '../../ssh/sshTabEndpoint';
import { sshCommandLine } from '../../../shared/sshDestination';
import { FORGET_PLAIN, runForgetPlain } from './forgetPlain';
import { askRunningTandem } from './runningTandem';

export const SSH_HELP = `Usage: tandem ssh [SSH OPTIONS] DESTINATION [COMMAND…]
  With Tandem running (the app or \`tandem web\`, with its window open) and this command on a
  terminal, opens a new tab there that types \`ssh ARGS…\` at its first prompt, and exits 0.
  Otherwise runs the system ssh with the same arguments on this terminal, and exits with its status.
  Every argument goes to ssh as given: \`tandem ssh -p 2222 alice@host\` is \`ssh -p 2222 alice@host\`.
Exit status: ssh's own (0 when a tab was opened); 2 without arguments; 127 when there is no ssh on PATH.

Usage: tandem ssh ${FORGET_PLAIN} HOST
  Tandem remembers servers that refused its ssh bootstrap and connects to them without
  integration; this forgets HOST (a host name: every user and port on it; or user@hostname:port).`;

export interface SshCommandIo {
  env: NodeJS.ProcessEnv;
  /** stdin and stdout are a terminal: a person typed this, and a tab may serve them (a pipe or a script gets ssh here). */
  interactive: boolean;
  stderr: { write(text: string): unknown };
  stdout: { write(text: string): unknown };
}

/**
 * `tandem ssh …`: a new tab of the running Tandem that runs ssh, or else the system ssh with
 * the same arguments on this terminal, so the user always gets somewhere.
 */
export async function runSshCommand(argv: readonly string[], io: SshCommandIo): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    io.stdout.write(`${SSH_HELP}\n`);
    return 0;
  }
  if (argv[0] === FORGET_PLAIN) return runForgetPlain(argv.slice(1), io);
  if (argv.length === 0) {
    io.stderr.write(`tandem: tandem ssh needs a destination, as ssh does.\n${SSH_HELP}\n`);
    return 2;
  }
  if (io.interactive && !argv.some(hasControlCharacter) && (await askRunningTandem(argv, io.env))) {
    io.stderr.write(`tandem: \`${sshCommandLine(argv)}\` runs in a new tab of Tandem's window.\n`);
    return 0;
  }
  const ssh = findOnPath('ssh', io.env.PATH);
  if (!ssh) {
    io.stderr.write('tandem: there is no ssh on PATH; install the OpenSSH client (openssh-client, or your system\'s ssh package).\n');
    return 127;
  }
  return runInherited(ssh, argv, io.env);
}

/** The first executable file named `name` in the directories of `path`. */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here, or not executable: the next directory.
    }
  }
  return undefined;
}

/**
 * Runs the program on this terminal and resolves with its exit status, 128 + the signal's
 * number when a signal ended it (as shells report it). The terminal's Ctrl+C and Ctrl+\ go to
 * the whole foreground group, ssh included: ssh decides what they do, this process waits for it.
 */
function runInherited(program: string, argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const ignored = () => {};
  const keyboardSignals: NodeJS.Signals[] = ['SIGINT', 'SIGQUIT'];
  const forwarded: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP'];
  return new Promise((resolve) => {
    const child = spawn(program, [...argv], { stdio: 'inherit', env });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    for (const signal of keyboardSignals) process.on(signal, ignored);
    for (const signal of forwarded) process.on(signal, forward);
    const settle = (status: number) => {
      for (const signal of keyboardSignals) process.off(signal, ignored);
      for (const signal of forwarded) process.off(signal, forward);
      resolve(status);
    };
    child.once('error', (error) => {
      process.stderr.write(`tandem: ${program} could not be started: ${error.message}\n`);
      settle(126);
    });
    child.once('exit', (code, signal) => settle(code ?? 128 + (signal ? (osConstants.signals[signal] ?? 0) : 0)));
  });
}
