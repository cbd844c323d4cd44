import { Emitter } from '../../shared/events';
import { AlternateScreenDetector } from '../blocks/alternateScreenDetector';
import { BlockTracker } from '../blocks/blockTracker';
import type { MirrorThread } from '../blocks/mirror/mirrorThread';
import { PaneMirror } from '../blocks/mirror/paneMirror';
import { PromptHeuristics } from '../blocks/promptHeuristics';
import { ShellPromptWatch } from '../blocks/shellPromptWatch';
import { shellStartedBy, shellWithoutIntegrationNotice } from '../blocks/shellSpawners';
import { interpretOsc, type Mark } from '../osc/marks';
import { OscScanner } from '../osc/oscScanner';
import { DeliveryWindow, type PtyThrottle } from '../pty/flowControl';
import { PaneEnvironment } from '../shell/paneEnvironment';
import { MIRROR_WINDOW } from '../pty/flowPolicy';
import { integrationAssetsDir } from '../shell/shellLaunch';
import { SshBootstrap, type SshBootstrapOptions, type SshMark } from '../ssh/sshBootstrap';

export interface PaneStreamOptions {
  paneId: number;
  nonce: string;
  integration: boolean;
  cwd: string;
  cols: number;
  rows: number;
  scrollback: number;
  /** Paused while the mirror thread is behind (its delivery window is full). */
  throttle: PtyThrottle;
  /** The mirror thread (tests); the process's own by default. */
  mirrorThread?: MirrorThread;
  /** How the ssh bootstrap answers a remote request (types into the pty), tells the user it fell back, and sees who holds the terminal. */
  ssh: Pick<SshBootstrapOptions, 'type' | 'notice' | 'foreground' | 'verdictDir' | 'plainHostsFile' | 'warn'>;
}

/**
 * What a pane's output means: the OSC scanner finds the marks, the block tracker turns them
 * into blocks and states, and the headless mirror keeps the screen, each segment written
 * before the mark that follows it. Counts the stream's byte offsets. Without shell
 * integration, prompt heuristics stand in for the marks.
 */
export class PaneStream {
  readonly tracker: BlockTracker;
  readonly mirror: PaneMirror;
  /** What the shell exports, from its start and our integration's reports. */
  readonly environment: PaneEnvironment;
  /** Answers the ssh bootstrap's requests and stacks remote shells on the tracker. */
  readonly ssh: SshBootstrap;
  private readonly scanner = new OscScanner();
  private readonly alternateScreen = new AlternateScreenDetector();
  private readonly heuristics: PromptHeuristics;
  /** A shell without our integration prompting inside a running block: the pane says so once. */
  private readonly foreignPrompts: ShellPromptWatch;
  private readonly mirrorWindow: DeliveryWindow;
  private total = 0;
  /** While a chunk is being read: the offset just past the mark being handled. */
  private markOffset: number | undefined;
  private integrationOn: boolean;
  private readonly enteredAlternateScreen = new Emitter<void>();
  private readonly outputRead = new Emitter<void>();
  private readonly blockBytes = new Emitter<{ blockId: string; bytes: Uint8Array }>();

  constructor(options: PaneStreamOptions) {
    this.integrationOn = options.integration;
    this.environment = new PaneEnvironment(options.nonce);
    this.mirror = new PaneMirror(options.cols, options.rows, options.scrollback, options.mirrorThread);
    this.mirrorWindow = new DeliveryWindow(MIRROR_WINDOW, {
      full: () => options.throttle.hold('mirror'),
      reopened: () => options.throttle.release('mirror'),
    });
    this.mirror.onParsed((bytes) => this.mirrorWindow.acknowledged(bytes));
    this.mirror.onLost(() => this.mirrorWindow.reset());
    // Off for good: nothing will be acknowledged, so the mirror must never hold the pty.
    this.mirror.onOff(() => this.mirrorWindow.reset());
    this.tracker = new BlockTracker(options.paneId, options.nonce, options.integration, options.cwd);
    this.tracker.onStarted(({ block, outputStartMark }) => {
      if (outputStartMark !== undefined) this.mirror.startBlockAtMark(block.id, outputStartMark);
      else this.mirror.startBlock(block.id);
    });
    this.tracker.onFinished((block) => this.mirror.endBlock(block.id));
    this.heuristics = new PromptHeuristics(this.mirror, this.tracker, () => this.total);
    this.ssh = new SshBootstrap({ tracker: this.tracker, assetsDir: integrationAssetsDir, ...options.ssh });
    this.foreignPrompts = new ShellPromptWatch(
      this.mirror,
      this.tracker,
      (block) => this.ssh.awaitsRequest(block.id) || shellStartedBy(block.command) !== undefined,
      (block) => this.ssh.promptInstead(block.id) || options.ssh.notice(shellWithoutIntegrationNotice(block)),
    );
  }

  /** A program switched to the alternate screen (vim, less) while a block was current. */
  get onAlternateScreen() {
    return this.enteredAlternateScreen.event;
  }

  /** A chunk of output was read (no bytes: watchers only need to know the program is alive). */
  get onOutput() {
    return this.outputRead.event;
  }

  /** Output of the running block, as it is read (before the block's end is reported). */
  get onBlockOutput() {
    return this.blockBytes.event;
  }

  /** Bytes of output so far. */
  get offset(): number {
    return this.total;
  }

  /** Where in the stream something happening now belongs: at the mark being read, else after all output so far. */
  get position(): number {
    return this.markOffset ?? this.total;
  }

  get integration(): boolean {
    return this.integrationOn;
  }

  /** Integration on or off; off, the tracker accepts foreign marks and the heuristics take over. */
  setIntegration(on: boolean): void {
    this.integrationOn = on;
    if (!on) this.tracker.disableIntegration();
  }

  push(chunk: Uint8Array): void {
    const base = this.total;
    let written = 0;
    for (const osc of this.scanner.push(chunk)) {
      const mark = interpretOsc(osc);
      if (!mark) continue;
      this.segmentBeforeMark(chunk.subarray(written, osc.end));
      written = osc.end;
      this.markOffset = base + osc.end;
      try {
        if (mark.kind === 'environment') this.environment.report(mark);
        else if (isSshMark(mark)) this.ssh.handle(mark, base + osc.end);
        else this.tracker.handle(mark, base + osc.end);
      } finally {
        this.markOffset = undefined;
      }
    }
    this.segmentBeforeMark(chunk.subarray(written));
    this.total = base + chunk.length;
    if (!this.integrationOn) this.heuristics.afterOutput(chunk);
    else this.foreignPrompts.afterOutput();
    this.outputRead.fire();
  }

  /** Input about to go to the shell: Enter on a prompt-like line starts a heuristic block. */
  beforeInput(data: Uint8Array | string): void {
    if (!this.integrationOn) this.heuristics.beforeInput(data);
  }

  /** Text that is not pty output (a restored screen): into the mirror only. */
  writeRestored(text: string): void {
    this.mirror.write(text);
  }

  /** No more heuristic timers (the pane is closing). */
  stop(): void {
    this.heuristics.dispose();
    this.foreignPrompts.dispose();
  }

  dispose(): void {
    this.stop();
    this.mirror.dispose();
    this.enteredAlternateScreen.dispose();
    this.outputRead.dispose();
    this.blockBytes.dispose();
  }

  /** Output up to the next mark: the block that is current now is the one it belongs to. */
  private segmentBeforeMark(bytes: Uint8Array): void {
    if (this.alternateScreen.push(bytes)) {
      this.tracker.markAlternateScreen();
      this.enteredAlternateScreen.fire();
    }
    if (bytes.length === 0) return;
    const running = this.tracker.running;
    if (running && this.blockBytes.hasListeners) this.blockBytes.fire({ blockId: running.id, bytes });
    this.mirror.write(bytes);
    if (this.mirror.available) this.mirrorWindow.sent(bytes.length);
  }
}

function isSshMark(mark: Mark): mark is SshMark {
  return mark.kind.startsWith('ssh-');
}
