import { randomUUID } from 'node:crypto';
import type { ScreenshotView } from '../../../shared/screenSteps';
import type { CaptureTarget, Desktop, Screenshot, WindowInfo } from '../../desktop/desktop';
import type { ApprovalGate, GateDecision } from '../../safety/approval/approvalGate';
import type { AgentPane } from '../agentPane';
import type { ToolResultPart } from '../backends/modelBackend';
import type { StepEnd } from '../plan/planEvents';
import type { PlanStep } from '../plan/planStep';
import type { ListenSteps } from '../hearing/listenSteps';
import type { ScreenshotMemory } from './screenshotMemory';
import { computerDisplaySpace, textOnDisplay } from './computerDisplay';
import { screenTextForModel } from './screenTextForModel';
import { lookKind, type ScreenshotTarget, type VisionRequest } from './visionRequest';

type Looked = Extract<StepEnd, { kind: 'looked' }>;

export interface LookStepsDeps {
  /** Absent: this process has no desktop capability (the model is told). */
  desktop: Desktop | undefined;
  gate: Pick<ApprovalGate, 'decideVision'>;
  pane(paneId: number): AgentPane | undefined;
  /** Where each target's last look is kept, for the UI actions that point into it. */
  memory: ScreenshotMemory;
  /** Whether Anthropic's computer tool was offered: OCR boxes are then given in its display's pixels. */
  computerOffered(): boolean;
  /** `listen` steps; absent: they are refused as not available here. */
  hearing?: ListenSteps;
}

/**
 * Plan steps that look at the screen: a screenshot of a pane, window, screen or region, the
 * text on one (OCR), or the window list. The gate asks for the first look at each kind of target in a conversation; a
 * look that ran was approved (by the user or the gate), so later ones of its kind do not ask.
 */
export class LookSteps {
  private readonly approved = new Set<string>();
  /** The images of this conversation's screenshot steps, as data: URLs, by ScreenshotView id. */
  private readonly images = new Map<string, string>();

  constructor(private readonly deps: LookStepsDeps) {}

  /** A new conversation asks again. */
  reset(): void {
    this.approved.clear();
    this.images.clear();
    this.deps.memory.clear();
  }

  /** A screenshot step's image, exactly as it was sent. */
  image(id: string): string {
    const src = this.images.get(id);
    if (!src) throw new Error('That screenshot is no longer kept (a new conversation was started).');
    return src;
  }

  /** A look this system cannot take is refused before anyone is asked (the model hears why). */
  async judge(step: Readonly<PlanStep>): Promise<GateDecision> {
    const look = request(step);
    if (look.look === 'listen') return this.hearing().judge(look.listen, step.command);
    const kind = lookKind(look);
    const decision = this.deps.gate.decideVision({ command: step.command, shape: kind, approvedBefore: this.approved.has(kind) });
    const needsDesktop = look.look === 'windows' || look.target.kind !== 'pane';
    if (!needsDesktop || decision.decision === 'deny') return decision;
    const availability = this.deps.desktop ? await this.deps.desktop.availability() : { available: false as const, reason: 'this Tandem has no desktop capability' };
    const missing = !availability.available ? availability.reason : look.look === 'screen-text' ? availability.lacking?.ocr : undefined;
    if (!missing) return decision;
    return { ...decision, decision: 'deny', decidedBy: 'builtin', rule: `builtin: not available on this system (${missing})` };
  }

  /** `signal`: Esc, a cancelled plan or an auto run's Stop; the desktop's tools are killed and the step ends interrupted. */
  async run(step: Readonly<PlanStep>, signal?: AbortSignal): Promise<Looked> {
    const look = request(step);
    if (look.look === 'listen') return this.hearing().run(look.listen, signal);
    this.approved.add(lookKind(look));
    try {
      if (look.look === 'windows') return listed(await this.desktop().listWindows(signal));
      if (look.target.kind === 'pane') return await this.paneLook(look.look, look.target, look.target.paneId ?? step.paneId);
      if (look.look === 'screen-text') return await this.readText(look.target, signal);
      const taken = await this.desktop().screenshot(captureTarget(look.target), signal);
      const shot = captured(taken);
      this.images.set(shot.screenshot.id, shot.src);
      this.deps.memory.remember(look.target, taken.space, taken.description, { screenshot: shot.screenshot });
      return shot;
    } catch (error) {
      if (signal?.aborted) {
        const why = typeof signal.reason === 'string' ? `it was stopped before it finished (${signal.reason})` : 'the user stopped it before it finished';
        return { kind: 'looked', ok: false, interrupted: true, content: `Not done: ${why}; nothing was captured or read.`, report: 'interrupted' };
      }
      const message = error instanceof Error ? error.message : String(error);
      return { kind: 'looked', ok: false, content: `Not done: ${message}`, report: message };
    }
  }

  /**
   * OCR of a window, screen or region. With the computer tool offered, its boxes are moved into
   * that tool's display (the primary screen as its screenshots show it), the space its clicks
   * use, and remembered there so a click's card can name the word it lands on.
   */
  private async readText(target: Exclude<ScreenshotTarget, { kind: 'pane' }>, signal: AbortSignal | undefined): Promise<Looked> {
    const desktop = this.desktop();
    const read = await desktop.readText(captureTarget(target), signal);
    const report = `${read.words.length} words read from ${read.description}`;
    if (!this.deps.computerOffered()) {
      this.deps.memory.remember(target, read.space, read.description, { words: read.words });
      return { kind: 'looked', ok: true, content: screenTextForModel(read), report };
    }
    const onDisplay = textOnDisplay(read, await computerDisplaySpace(desktop));
    this.deps.memory.remember({ kind: 'screen' }, onDisplay.read.space, 'the screen', { words: onDisplay.read.words });
    return { kind: 'looked', ok: true, content: screenTextForModel(onDisplay.read, { computerDisplay: true, outside: onDisplay.outside }), report };
  }

  /** A listen step's line names where it is transcribed (`[voice] endpoint` as it is now). */
  named<T extends { command: string; vision?: VisionRequest }>(step: T): T {
    return step.vision?.look === 'listen' && this.deps.hearing ? { ...step, command: this.deps.hearing.command(step.vision.listen) } : step;
  }

  private hearing(): ListenSteps {
    if (!this.deps.hearing) throw new Error('listening is not available in this Tandem');
    return this.deps.hearing;
  }

  private desktop(): Desktop {
    if (!this.deps.desktop) throw new Error('this Tandem has no desktop capability');
    return this.deps.desktop;
  }

  /**
   * A pane: the exact text of its screen from the engine's mirror (cheap, exact for TUIs), and
   * for a screenshot also an image of the pane as drawn, where the desktop can capture Tandem's
   * own window (the Electron app). Where it cannot (browser mode: a page cannot capture itself;
   * the pane's tab is in the background) the text goes alone and the model is told why.
   */
  private async paneLook(look: 'screenshot' | 'screen-text', target: ScreenshotTarget, paneId: number | undefined): Promise<Looked> {
    const pane = paneId !== undefined ? this.deps.pane(paneId) : undefined;
    if (!pane?.screenText) throw new Error(`there is no pane ${paneId ?? '(none is active)'}`);
    const { desktop } = this.deps;
    const [text, image] = await Promise.all([
      pane.screenText(),
      look === 'screenshot' && desktop
        ? desktop.screenshot({ kind: 'pane', paneId: pane.id }).then(
            (shot) => {
              const looked = captured(shot);
              // A UI action's points on this pane are pixels of this image (Tandem's window's surface).
              this.deps.memory.remember(target, shot.space, shot.description, { screenshot: looked.screenshot });
              return looked;
            },
            (error: unknown) => (error instanceof Error ? error.message : String(error)),
          )
        : undefined,
    ]);
    if (image === undefined || typeof image === 'string') {
      const content = `The screen of pane ${pane.id} as text (exact, from the terminal's own state; no image${image ? `: ${image}` : ''}):\n${text}`;
      return { kind: 'looked', ok: true, content, report: `pane ${pane.id} as text` };
    }
    this.images.set(image.screenshot.id, image.src);
    const exact: ToolResultPart = { type: 'text', text: `The same pane as text (exact, from the terminal's own state):\n${text}` };
    return { ...image, content: [...(image.content as ToolResultPart[]), exact], report: `${image.report}, with its text` };
  }
}

function request(step: Readonly<PlanStep>): VisionRequest {
  if (!step.visionRequest) throw new Error(`Step ${step.index} is not a look at the screen.`);
  return step.visionRequest;
}

function captureTarget(target: Exclude<ScreenshotTarget, { kind: 'pane' }>): CaptureTarget {
  return target;
}

function captured(shot: Screenshot): Looked & { src: string; screenshot: ScreenshotView } {
  const { space } = shot;
  const blackedOut = shot.blackedOut > 0 ? ` ${shot.blackedOut === 1 ? '1 window' : `${shot.blackedOut} windows`} blacked out by the privacy list.` : '';
  const text =
    `Screenshot of ${shot.description}: ${space.describe()}. ` +
    `Points you name for this target (ui actions, OCR boxes) are pixels of this image; Tandem converts them to the screen.${blackedOut}`;
  const data = shot.png.toString('base64');
  const parts: ToolResultPart[] = [
    { type: 'text', text },
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
  ];
  const screenshot: ScreenshotView = { id: randomUUID(), width: space.imageWidth, height: space.imageHeight, description: text };
  return { kind: 'looked', ok: true, content: parts, report: shot.description, screenshot, src: `data:image/png;base64,${data}` };
}

/** The window list for the model: windows on the privacy list are only counted (nothing of them is sent: not even their id). */
function listed(all: WindowInfo[]): Looked {
  const windows = all.filter((window) => !window.excluded);
  const hidden = all.length - windows.length;
  const lines = windows.map((window) => {
    const { x, y, width, height } = window.geometry;
    const flags = [window.focused ? 'focused' : '', window.visible ? '' : 'minimized'].filter(Boolean).join(', ');
    return `${window.id}  "${window.title}"  ${window.application}${window.pid !== undefined ? ` pid ${window.pid}` : ''}  ${width}×${height} at ${x},${y}  screen ${window.screen}${flags ? `  (${flags})` : ''}`;
  });
  const list = windows.length === 0 ? 'No windows are open.' : `Windows (id, title, application, pid, geometry in screen pixels, screen):\n${lines.join('\n')}`;
  const privacy = hidden > 0 ? `\n(${hidden === 1 ? '1 more window is' : `${hidden} more windows are`} on the privacy list: not listed, never captured or acted on.)` : '';
  return { kind: 'looked', ok: true, content: `${list}${privacy}`, report: `${windows.length} windows${hidden > 0 ? ` (${hidden} on the privacy list)` : ''}` };
}
