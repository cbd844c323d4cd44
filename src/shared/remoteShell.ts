import { z } from 'zod';

/**
 * What a remote shell says about the host it runs on (the ssh bootstrap's request, then OSC 7's
 * host name): labels, not proof of which machine it is. The engine sends it with a pane's state
 * while the pane is on that shell; absent, the pane is on this machine.
 */
export interface RemoteShell {
  user: string;
  host: string;
  os: string;
  arch: string;
  /** The login shell as the remote named it (`/bin/bash`). */
  shell: string;
  /** The remote user's home directory (`$HOME` there), when stage 1 reported an absolute path. */
  home?: string;
}

/** A label the remote side chose: one line of printable text, at most 256 characters. */
const label = z
  .string()
  .max(256)
  .regex(/^[^\x00-\x1f\x7f-\x9f]*$/, 'control characters');

export const RemoteShellSchema = z.object({ user: label, host: label.min(1), os: label, arch: label, shell: label, home: label.regex(/^\//, 'an absolute path').optional() }).strip();
