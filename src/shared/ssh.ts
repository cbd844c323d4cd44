import { z } from 'zod';

/** The "SSH to Host…" picker's request: the hosts of the user's ssh config (src/main/ssh/sshConfigHosts.ts). */
export const SshRequestSchemas = {
  'ssh.hosts': z.object({}).strict(),
} as const;

/** A `Host` alias of ~/.ssh/config with what its own blocks set. */
export interface SshHost {
  alias: string;
  hostName?: string;
  user?: string;
  port?: number;
}

export interface SshHostList {
  hosts: SshHost[];
  /** Why the list is empty or short (no config, a file that could not be read); empty when all was read. */
  problems: string[];
}

export interface SshResults {
  'ssh.hosts': SshHostList;
}

export interface SshEvents {
  /** `tandem ssh ARGS…` asked for a tab that runs `ssh ARGS…` (src/main/ssh/sshTabEndpoint.ts). */
  'ssh.open-tab': { args: string[] };
}
