import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';

/**
 * Paths as the model gives them to the file tools: relative to the pane's working directory,
 * absolute, or `~/`.
 */

export interface FileToolContext {
  /** The pane's working directory ('' when unknown: only absolute and `~/` paths work then). */
  cwd: string;
  /** For `~`; default: the user's home directory. */
  homeDir?: string;
  /** The pane's shell is on this other host: its cwd is a directory there, so a relative path names nothing here. */
  remoteHost?: string;
  /** The policy's say on reading an (absolute) path: the rule that refuses it, if one does. */
  refuse?: (path: string) => string | undefined;
}

export type ResolvedPath = { ok: true; path: string } | { ok: false; message: string };

/** An absolute path for `path` as the model gave it, or why it cannot be used. */
export function resolveToolPath(path: string, context: FileToolContext): ResolvedPath {
  if (path.includes('\0')) return { ok: false, message: 'The path contains a NUL character.' };
  if (path === '~' || path.startsWith('~/')) return { ok: true, path: resolve(context.homeDir ?? homedir(), `.${path.slice(1)}`) };
  if (path.startsWith('~')) return { ok: false, message: `Only ~ and ~/… are supported, not ${JSON.stringify(path.split('/')[0])}; give an absolute path.` };
  if (isAbsolute(path)) return { ok: true, path: resolve(path) };
  if (context.remoteHost !== undefined) {
    const host = context.remoteHost;
    return { ok: false, message: `The pane is on ${host} over ssh: its working directory is there, and this tool reads this machine's files, so ${JSON.stringify(path)} cannot be resolved. Read files on ${host} with a command, or give an absolute path on this machine.` };
  }
  if (!context.cwd || !isAbsolute(context.cwd)) {
    return { ok: false, message: `The pane's working directory is unknown, so ${JSON.stringify(path)} cannot be resolved; give an absolute path.` };
  }
  return { ok: true, path: resolve(context.cwd, path) };
}

/** The path as given, and what it resolved to when that differs. */
export function shownPath(given: string, resolved: string): string {
  return given === resolved ? resolved : `${given} (${resolved})`;
}
