import { posix } from 'node:path';
import type { RemoteHost } from '../riskTypes';

/**
 * How the gate judges a step on another host (the pane's shell reached with `ssh`), with no
 * fact of this machine: the classifier reads none of its files (RiskContext.remote), `~` is the
 * remote user's home: the `$HOME` stage 1 reported, else as far as the user name tells (`/root`,
 * else `/home/<user>`: a guess used only to recognise paths, never checked), and the protected paths under this machine's home
 * (ssh keys, shell startup files) are protected under that home instead.
 */
export function remoteHome(remote: RemoteHost): string {
  if (remote.home && remote.home.startsWith('/')) return posix.normalize(remote.home).replace(/(.)\/+$/, '$1');
  const user = remote.user && /^[^/\0]+$/.test(remote.user) ? remote.user : undefined;
  if (user === 'root') return '/root';
  return user ? posix.join('/home', user) : '/home';
}

/** The protected paths for a step on that host: those under this machine's home, moved under the remote one. */
export function remoteProtectedPaths(protectedPaths: readonly string[], localHome: string, home: string): string[] {
  const prefix = `${localHome.replace(/\/+$/, '')}/`;
  return protectedPaths.filter((path) => path.startsWith(prefix)).map((path) => posix.join(home, path.slice(prefix.length)));
}

/** What "Allow for this session" grants for a step there: its shape on that host only (a grant made on this machine's shell never covers it). */
export function remoteShape(shape: string, remote: RemoteHost): string {
  return `${shape} (on ${remote.host})`;
}
