import type { Block } from '../../../shared/blocks';
import { RemoteShellSchema, type RemoteShell } from '../../../shared/remoteShell';

/** Where a remote block ran, or a remote pane is: `alice@db1` (the host alone when the user is not known). */
export function userAtHost({ user, host }: { user?: string; host: string }): string {
  const name = host || 'unnamed host';
  return user ? `${user}@${name}` : name;
}

/** The remote login shell's name: `bash` of `/bin/bash` (a login shell's leading `-` dropped). */
export function remoteShellName({ shell }: Pick<RemoteShell, 'shell'>): string {
  return shell.replace(/^.*\//, '').replace(/^-/, '');
}

/** A remote block's place as its label shows it; undefined for a block of this machine. */
export function blockHost(block: Pick<Block, 'host' | 'user'>): string | undefined {
  return block.host === undefined ? undefined : userAtHost({ user: block.user, host: block.host });
}

/** The most characters of `user@host` a block's command row gives it; the tooltip and menu have all of it. */
export const SHOWN_HOST_CHARS = 32;

/** `user@host` cut to SHOWN_HOST_CHARS, its end (the host) kept. */
export function shortHost(label: string): string {
  return label.length <= SHOWN_HOST_CHARS ? label : `…${label.slice(label.length - SHOWN_HOST_CHARS + 1)}`;
}

/** The block menu's heading for a remote block: `on db1 as alice`. */
export function blockHostHeading(block: Pick<Block, 'host' | 'user'>): string | undefined {
  if (block.host === undefined) return undefined;
  return `on ${block.host || 'unnamed host'}${block.user ? ` as ${block.user}` : ''}`;
}

/** The remote shell a pane is on, as the place of a block: same host and user. */
type Place = { host?: string; user?: string } | undefined;

function samePlace(block: Pick<Block, 'host' | 'user'>, pane: Place): boolean {
  if (block.host === undefined || pane === undefined) return block.host === undefined && pane === undefined;
  return block.host === pane.host && (block.user ?? '') === (pane.user ?? '');
}

/**
 * Why typing this block's command again at the pane's prompt would run it somewhere else than
 * it ran (the pane went onto, or came back from, another host since); undefined when it is the
 * same place.
 */
export function rerunElsewhere(block: Pick<Block, 'host' | 'user'>, paneRemote: Place): string | undefined {
  if (samePlace(block, paneRemote)) return undefined;
  const ran = blockHost(block) ?? 'this machine';
  const now = paneRemote ? userAtHost({ user: paneRemote.user, host: paneRemote.host ?? '' }) : 'this machine';
  return `It ran on ${ran}; the pane is on ${now} now`;
}

/** A pane's remote shell as the engine sent it, checked: absent is this machine; an unreadable one is still another host. */
export function remoteShellOf(value: unknown): RemoteShell | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = RemoteShellSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  console.warn('tandem: the engine sent a remote shell that does not fit the protocol', parsed.error.issues);
  return { user: '', host: 'unreadable host name', os: '', arch: '', shell: '' };
}
