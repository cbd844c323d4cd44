import { tandemPaths } from '../../settings/paths';
import { forgetPlainHost, plainHostsPath } from '../../ssh/plainHosts';

export const FORGET_PLAIN = '--forget-plain';

/**
 * `tandem ssh --forget-plain HOST`: the next `ssh` to HOST carries the integration again
 * (docs/ssh.md). HOST is a host name (every user and port on it) or `user@hostname:port`.
 */
export function runForgetPlain(args: readonly string[], io: { env: NodeJS.ProcessEnv; stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } }): number {
  if (args.length !== 1 || !args[0]) {
    io.stderr.write(`tandem: usage: tandem ssh ${FORGET_PLAIN} HOST (a host name, or user@hostname:port)\n`);
    return 2;
  }
  const file = plainHostsPath(tandemPaths(io.env).stateDir);
  try {
    const { removed, problems } = forgetPlainHost(file, args[0]);
    for (const problem of problems) io.stderr.write(`tandem: ${problem}\n`);
    if (removed.length === 0) {
      io.stderr.write(`tandem: ${args[0]} is not among the servers Tandem connects to without integration (${file}).\n`);
      return 1;
    }
    io.stdout.write(`tandem: forgot ${removed.join(', ')}; the next \`ssh\` there carries Tandem's integration again.\n`);
    return 0;
  } catch (error) {
    io.stderr.write(`tandem: ${file} could not be rewritten: ${(error as Error).message}\n`);
    return 1;
  }
}
