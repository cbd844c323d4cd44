import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Block } from '../../shared/blocks';
import type { BlockTracker } from '../blocks/blockTracker';
import type { Mark } from '../osc/marks';
import { payloadArchive, payloadText } from './payload';
import { isPlainHostKey, rememberPlainHost } from './plainHosts';

/** A wrapped ssh that fails within this long without asking looks like a server refusing commands. */
const REFUSAL_WINDOW_MS = 10_000;

type SshMark = Extract<Mark, { kind: 'ssh-start' | 'ssh-request' | 'ssh-fallback' | 'ssh-end' }>;

export type { SshMark };

export interface SshBootstrapOptions {
  tracker: BlockTracker;
  /** The directory holding the integration scripts (the payload's source). */
  assetsDir: () => string;
  /**
   * Bytes into the pane's pty, as if typed. Writes to a pty keep their order (pty/ptyWrite.ts),
   * so keys the user types meanwhile wait behind the payload and reach the remote shell after it.
   */
  type: (text: string) => void;
  /** A one-line notice over the pane. */
  notice: (message: string) => void;
  /** The programs in the pty's foreground: the payload is typed only while `ssh` is one of them. */
  foreground: () => string[];
  /**
   * Where the local wrapper waits for the verdict on an ssh that ended (`ssh-verdict.<conn>`:
   * `plain` to connect again without integration, `keep`); undefined: no retry.
   */
  verdictDir?: () => string | undefined;
  /** The file of servers remembered as refusing the bootstrap (plainHosts.ts); undefined: none remembered. */
  plainHostsFile?: string;
  /** Problems worth a line in the engine log (a broken plain-hosts file). */
  warn?: (message: string) => void;
}

interface Connection {
  /** The local block running `ssh` (the wrapper printed the start mark inside it). */
  blockId: string;
  /** How many shells were stacked when it started; the answer pushes one more. */
  depth: number;
  dest: string;
  /** `user@hostname:port` from decide.sh, when the wrapper sent it. */
  key?: string;
  /** The nonce of the shell that ran ssh: its wrapper's end mark carries it. */
  startNonce: string;
  /** The remote shell's nonce once answered (one answer per connection). */
  nonce?: string;
  /** The fallback was already reported. */
  fellBack?: boolean;
  /** A shell prompted without asking first: the server ran its own command (ForceCommand). */
  ownCommand?: boolean;
  /** The wrapper heard what to do after ssh ended; the block's end says nothing more. */
  judged?: boolean;
}

/** Stage 1's reason codes, in words for the pane notice. */
const REASONS: Record<string, string> = {
  'no-tty': 'no terminal on the remote side',
  shell: 'the login shell is not bash, zsh or fish',
  tools: 'a tool stage 1 needs (base64, gzip, tar, mktemp, stty, tr) is missing',
  'zsh-new': 'zsh has no startup files there yet',
  tempdir: 'no private temporary directory could be made',
  stty: 'the terminal settings could not be changed',
  timeout: 'the integration did not arrive in time',
  unpack: 'the integration did not unpack',
  exec: 'the login shell did not start',
};

/**
 * The engine's side of `ssh` with integration (docs/ssh.md). The trusted local wrapper
 * announces a connection (`ssh;start`, with the top shell's nonce, inside the block running
 * ssh); stage 1 on the remote host asks for the integration (`ssh;request`, untrusted bytes
 * matched by connection id); the engine answers once, only while that block still runs,
 * by typing the payload with a fresh nonce, and stacks the remote shell on the tracker.
 */
export class SshBootstrap {
  private readonly connections = new Map<string, Connection>();
  /** Requests and fallbacks for unknown, used or ended connections, and starts without the top nonce. */
  ignoredCount = 0;

  constructor(private readonly options: SshBootstrapOptions) {
    options.tracker.onFinished((block) => this.blockEnded(block));
  }

  /** `streamOffset`: the byte offset in the pane's output just past the mark. */
  handle(mark: SshMark, streamOffset: number): void {
    this.forgetEnded();
    switch (mark.kind) {
      case 'ssh-start':
        return this.started(mark);
      case 'ssh-request':
        return this.requested(mark);
      case 'ssh-fallback':
        return this.fellBack(mark, streamOffset);
      case 'ssh-end':
        return this.ended(mark);
    }
  }

  /** A wrapped ssh whose server has not asked for the integration (nor given up) yet. */
  awaitsRequest(blockId: string): boolean {
    return this.pendingFor(blockId) !== undefined;
  }

  /**
   * The block running a wrapped ssh shows a shell prompt, and its server never asked: it ran
   * its own command (a ForceCommand shell). Says so once; true when the block was such an ssh.
   */
  promptInstead(blockId: string): boolean {
    const connection = this.pendingFor(blockId);
    if (!connection) return false;
    connection.ownCommand = true;
    this.options.notice(`${hostOf(connection)} ran its own command instead of Tandem's (ForceCommand?): a plain shell runs there, without blocks.`);
    return true;
  }

  private pendingFor(blockId: string): Connection | undefined {
    for (const connection of this.connections.values()) {
      if (connection.blockId === blockId && !connection.nonce && !connection.fellBack && !connection.ownCommand) return connection;
    }
    return undefined;
  }

  private started(mark: Extract<SshMark, { kind: 'ssh-start' }>): void {
    const { tracker } = this.options;
    const running = tracker.running;
    if (mark.nonce !== tracker.topNonce || !running || this.connections.has(mark.conn)) {
      if (mark.nonce !== tracker.topNonce) tracker.untrustedMarkCount++;
      this.ignoredCount++;
      return;
    }
    const key = mark.key && isPlainHostKey(mark.key) ? mark.key : undefined;
    this.connections.set(mark.conn, { blockId: running.id, depth: tracker.depth, dest: mark.dest, key, startNonce: mark.nonce });
  }

  private requested(mark: Extract<SshMark, { kind: 'ssh-request' }>): void {
    const connection = this.connections.get(mark.conn);
    if (!connection || !this.answerable(connection)) {
      this.ignoredCount++;
      return;
    }
    connection.nonce = randomBytes(16).toString('hex');
    this.options.tracker.pushSession(connection.nonce, { ...mark.remote, host: mark.remote.host || connection.dest });
    this.options.type(payloadText(payloadArchive(this.options.assetsDir(), connection.nonce, mark.remote.shell)));
  }

  /**
   * Not answered yet, its `ssh` block still running on top at the depth it started, and ssh
   * holding the terminal: typed keys go to whatever does.
   */
  private answerable(connection: Connection): boolean {
    const { tracker } = this.options;
    if (connection.nonce || tracker.depth !== connection.depth || tracker.running?.id !== connection.blockId) return false;
    return this.options.foreground().includes('ssh');
  }

  private fellBack(mark: Extract<SshMark, { kind: 'ssh-fallback' }>, streamOffset: number): void {
    const { tracker } = this.options;
    const connection = this.connections.get(mark.conn);
    if (!connection || connection.fellBack) {
      this.ignoredCount++;
      return;
    }
    connection.fellBack = true;
    // Answered, then unpacking or starting failed: the plain shell there has no marks to give.
    if (connection.nonce && tracker.topNonce === connection.nonce) tracker.dropTopSession(streamOffset);
    const why = REASONS[mark.reason] ?? mark.reason;
    this.options.notice(`No Tandem integration on ${mark.host || connection.dest || 'the remote host'}: ${why}; a plain shell runs there, without blocks.`);
  }

  /**
   * The local wrapper's ssh ended with a failure and it waits for a verdict: `plain` when the
   * server refused our command (see refused), and the server is remembered; else `keep`.
   */
  private ended(mark: Extract<SshMark, { kind: 'ssh-end' }>): void {
    const connection = this.connections.get(mark.conn);
    const block = connection && this.options.tracker.find(connection.blockId);
    if (!connection || !block || connection.judged || mark.nonce !== connection.startNonce) {
      this.ignoredCount++;
      return;
    }
    const refused = this.refused(connection, block.startedAt, Date.now(), mark.status);
    if (!this.writeVerdict(mark.conn, refused ? 'plain' : 'keep')) return;
    connection.judged = true;
    if (!refused) return;
    const remembered = this.remember(connection, mark.status);
    this.options.notice(
      `${hostOf(connection)} refused Tandem's ssh bootstrap (ssh ended with ${mark.status} before asking for it): connecting again without integration.` +
        (remembered ? ` The next \`ssh\` to ${connection.key} is plain too (\`tandem ssh --forget-plain ${hostOf(connection)}\` undoes that).` : ''),
    );
  }

  /**
   * A wrapped ssh that failed within REFUSAL_WINDOW_MS and whose server never asked, gave up or
   * prompted: no remote command of ours ran (stage 1 asks first thing), so connecting again
   * plain runs nothing of the user's twice. 255 is ssh's own failure (a plain ssh fails too),
   * 130 an interrupt, 0 a session that ended well.
   */
  private refused(connection: Connection, startedAt: number, endedAt: number, code: number | undefined): boolean {
    if (connection.nonce || connection.fellBack || connection.ownCommand) return false;
    return code !== undefined && ![0, 130, 255].includes(code) && endedAt - startedAt < REFUSAL_WINDOW_MS;
  }

  private writeVerdict(conn: string, verdict: 'plain' | 'keep'): boolean {
    const dir = this.options.verdictDir?.();
    if (!dir) return false;
    try {
      writeFileSync(join(dir, `ssh-verdict.${conn}`), `${verdict}\n`, { mode: 0o600 });
      return true;
    } catch (error) {
      this.options.warn?.(`the ssh verdict for ${conn} could not be written (${(error as Error).message}); no retry`);
      return false;
    }
  }

  private remember(connection: Connection, status: number): boolean {
    const file = this.options.plainHostsFile;
    if (!file || !connection.key) return false;
    try {
      for (const problem of rememberPlainHost(file, connection.key, `ssh ended with ${status} before the bootstrap asked`)) this.options.warn?.(problem);
      return true;
    } catch (error) {
      this.options.warn?.(`${connection.key} could not be remembered as plain in ${file}: ${(error as Error).message}`);
      return false;
    }
  }

  /** A wrapped ssh whose wrapper heard no verdict (a remote hop) and that looks refused: the pane names the way around. */
  private blockEnded(block: Block): void {
    for (const [conn, connection] of this.connections) {
      if (connection.blockId !== block.id) continue;
      this.connections.delete(conn);
      if (connection.judged || !this.refused(connection, block.startedAt, block.endedAt ?? block.startedAt, block.exitCode)) continue;
      this.options.notice(`ssh ${connection.dest} ended (${block.exitCode}) without starting Tandem's integration: the server may refuse remote commands. \`command ssh ${connection.dest}\` connects without it.`);
    }
  }

  /** Connections whose ssh block is over can no longer be answered. */
  private forgetEnded(): void {
    for (const [conn, connection] of this.connections) {
      const block = this.options.tracker.find(connection.blockId);
      if (!block || block.endedAt !== undefined) this.connections.delete(conn);
    }
  }
}

/** The server's name for a notice: the host of `user@hostname:port`, else what was typed after ssh. */
function hostOf(connection: Connection): string {
  const key = connection.key;
  return key ? key.slice(key.lastIndexOf('@') + 1, key.lastIndexOf(':')) : connection.dest || 'the server';
}
