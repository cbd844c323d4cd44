import { randomBytes } from 'node:crypto';
import type { Block } from '../../shared/blocks';
import type { BlockTracker } from '../blocks/blockTracker';
import type { Mark } from '../osc/marks';
import { payloadArchive, payloadText } from './payload';

/** A wrapped ssh that fails within this long without asking looks like a server refusing commands. */
const REFUSAL_WINDOW_MS = 10_000;

type SshMark = Extract<Mark, { kind: 'ssh-start' | 'ssh-request' | 'ssh-fallback' }>;

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
}

interface Connection {
  /** The local block running `ssh` (the wrapper printed the start mark inside it). */
  blockId: string;
  /** How many shells were stacked when it started; the answer pushes one more. */
  depth: number;
  dest: string;
  /** The remote shell's nonce once answered (one answer per connection). */
  nonce?: string;
  /** The fallback was already reported. */
  fellBack?: boolean;
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
    }
  }

  private started(mark: Extract<SshMark, { kind: 'ssh-start' }>): void {
    const { tracker } = this.options;
    const running = tracker.running;
    if (mark.nonce !== tracker.topNonce || !running || this.connections.has(mark.conn)) {
      if (mark.nonce !== tracker.topNonce) tracker.untrustedMarkCount++;
      this.ignoredCount++;
      return;
    }
    this.connections.set(mark.conn, { blockId: running.id, depth: tracker.depth, dest: mark.dest });
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
   * A wrapped ssh that ended quickly with a failure and never asked: the server likely refuses
   * remote commands (a bastion's "interactive sessions only"). 255 is ssh's own failure (a plain
   * ssh fails too), 130 an interrupt, 0 a session that ended well.
   */
  private blockEnded(block: Block): void {
    for (const [conn, connection] of this.connections) {
      if (connection.blockId !== block.id) continue;
      this.connections.delete(conn);
      const code = block.exitCode;
      const quick = (block.endedAt ?? block.startedAt) - block.startedAt < REFUSAL_WINDOW_MS;
      if (connection.nonce || connection.fellBack || code === undefined || [0, 130, 255].includes(code) || !quick) continue;
      this.options.notice(`ssh ${connection.dest} ended (${code}) without starting Tandem's integration: the server may refuse remote commands. \`command ssh ${connection.dest}\` connects without it.`);
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
