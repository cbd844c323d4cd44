import { createConnection } from 'node:net';
import { tandemPaths } from '../../settings/paths';
import { sshTabAddress, type SshTabAnswer, type SshTabRequest } from '../../ssh/sshTabEndpoint';

/** How long a running Tandem may take to answer before `tandem ssh` connects here instead. */
const ANSWER_LIMIT_MS = 3_000;

/**
 * Asks a running Tandem of this user to open a tab that runs `ssh ARGS…`: true when its
 * window took it; false when no Tandem runs, none of its windows is open, or it does not answer.
 */
export function askRunningTandem(args: readonly string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  const address = sshTabAddress(tandemPaths(env).stateDir);
  if (!address) return Promise.resolve(false);
  return new Promise((resolve) => {
    let answer = '';
    const socket = createConnection(address.endpoint);
    const settle = (opened: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(opened);
    };
    const timer = setTimeout(() => settle(false), ANSWER_LIMIT_MS);
    socket.setEncoding('utf8');
    socket.once('error', () => settle(false));
    socket.once('connect', () => {
      const request: SshTabRequest = { op: 'ssh', args: [...args] };
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (text: string) => {
      answer += text;
      if (!answer.includes('\n')) return;
      try {
        settle((JSON.parse(answer.slice(0, answer.indexOf('\n'))) as SshTabAnswer).ok === true);
      } catch {
        settle(false);
      }
    });
    socket.once('end', () => settle(false));
  });
}
