import type { ScreenshotView, UiStepView } from '../../../shared/screenSteps';
import type { Desktop, UiAction, WindowInfo } from '../../desktop/desktop';
import { setTimeout as delay } from 'node:timers/promises';
import { stopIfAborted } from '../../desktop/desktopError';
import { rectContains, type Point } from '../../desktop/geometry';
import type { Surface } from '../../desktop/screenshotSpace';
import type { ApprovalGate, GateDecision } from '../../safety/approval/approvalGate';
import { scrubSecrets } from '../../safety/secretScrubber';
import type { StepEnd } from '../plan/planEvents';
import type { PlanStep } from '../plan/planStep';
import { computerDisplaySpace } from './computerDisplay';
import { sameSpace, type LastLook, type ScreenshotMemory } from './screenshotMemory';
import { isTerminalWindow } from './terminalWindows';
import { POINTER_ACTIONS, WINDOW_ACTIONS, type UiRequest } from './uiRequest';
import { uiDescription, windowWords } from './uiDescription';
import { describeTarget, type ScreenshotTarget } from './visionRequest';

type Acted = Extract<StepEnd, { kind: 'acted' }>;

/** The longest `wait` of the computer-use tool. */
const MAX_WAIT_SECONDS = 30;

export interface UiStepsDeps {
  desktop: Desktop | undefined;
  gate: Pick<ApprovalGate, 'decideUi'>;
  memory: ScreenshotMemory;
}

/** Where a step is judged: for hooks and the audit trail. */
export interface UiJudging {
  auto: boolean;
  cwd: string;
  planId: string;
  conversationId?: string;
}

export type UiJudgement = { ok: true; decision: GateDecision; view: UiStepView } | { ok: false; message: string };

/** A request turned into screen pixels, with the window it reaches (as the screen is now). */
interface Resolved {
  action?: UiAction;
  surface: Surface;
  window?: WindowInfo;
  /** A drag's drop target, when it is another window. */
  dropWindow?: WindowInfo;
  view: UiStepView;
  intoTerminal: boolean;
}

/**
 * Plan steps that act on the screen: clicks, typing, keys, window changes, the clipboard and
 * notifications. A point is a pixel of the last screenshot of its target (ScreenshotMemory);
 * judging resolves it to the screen and to the window under it, which the gate and the card
 * see. Running resolves it again and refuses when a different window is there now.
 */
export class UiSteps {
  /** The window each judged step reaches (and a drag's drop window), by step id, to notice a screen that changed before it runs. */
  private readonly judged = new Map<string, { window?: string; drop?: string }>();

  constructor(private readonly deps: UiStepsDeps) {}

  reset(): void {
    this.judged.clear();
  }

  async judge(step: Readonly<PlanStep>, where: UiJudging): Promise<UiJudgement> {
    const request = uiRequest(step);
    let resolved: Resolved;
    try {
      await this.refuseUnavailable(request);
      resolved = await this.resolve(request);
    } catch (error) {
      return { ok: false, message: `Not done: ${messageOf(error)}` };
    }
    const { window, view } = resolved;
    // A drag onto an excluded window is judged as an action on it.
    const gateWindow = resolved.dropWindow?.excluded ? resolved.dropWindow : window;
    const decision = await this.deps.gate.decideUi(
      {
        command: view.description,
        purpose: step.purpose,
        window: gateWindow,
        ...(resolved.dropWindow && resolved.dropWindow.id !== gateWindow?.id ? { dropWindow: resolved.dropWindow } : {}),
        intoTerminal: resolved.intoTerminal,
        harmless: request.action === 'wait' || request.action === 'cursor_position',
        auto: where.auto,
        cwd: where.cwd,
        paneId: step.paneId,
        conversationId: where.conversationId,
        planId: where.planId,
        step: step.index,
      },
      request.action,
    );
    this.judged.set(step.id, { window: window?.id, drop: resolved.dropWindow?.id });
    // The gate (and hooks) judged the action in words; the step keeps its own line.
    return { ok: true, decision: { ...decision, command: step.command }, view };
  }

  async run(step: Readonly<PlanStep>, signal?: AbortSignal): Promise<Acted> {
    const request = uiRequest(step);
    try {
      const resolved = await this.resolve(request, signal);
      const before = this.judged.get(step.id);
      if (request.action === 'drag' && resolved.dropWindow?.id !== before?.drop) {
        const now = resolved.dropWindow ? windowWords(resolved.dropWindow) : 'no window';
        throw new Error(`the screen changed after the step was approved: where it drops is now ${now}. Take a new screenshot.`);
      }
      if (resolved.window?.id !== before?.window && (POINTER_ACTIONS.has(request.action) || request.action === 'type' || request.action === 'key')) {
        const now = resolved.window ? windowWords(resolved.window) : 'no window';
        throw new Error(`the screen changed after the step was approved: ${POINTER_ACTIONS.has(request.action) ? 'at that point' : 'with the keyboard focus'} is now ${now}. Take a new screenshot.`);
      }
      stopIfAborted(signal);
      const done = await this.act(request, resolved, signal);
      return { kind: 'acted', ok: true, content: done, report: resolved.view.description };
    } catch (error) {
      if (signal?.aborted) {
        const why = typeof signal.reason === 'string' ? `it was stopped (${signal.reason})` : 'the user stopped it';
        const content = `Not done: ${why}. Part of it may have happened (some of the text typed, say); take a screenshot to see.`;
        return { kind: 'acted', ok: false, interrupted: true, content, report: 'interrupted' };
      }
      const message = messageOf(error);
      return { kind: 'acted', ok: false, content: `Not done: ${message}`, report: message };
    }
  }

  private async act(request: UiRequest, resolved: Resolved, signal: AbortSignal | undefined): Promise<string> {
    const desktop = this.desktop();
    const { description } = resolved.view;
    switch (request.action) {
      case 'read_clipboard': {
        const text = await desktop.readClipboard();
        const scrubbed = scrubSecrets(text).text;
        return text === '' ? 'The clipboard holds no text.' : `The clipboard holds (secrets redacted):\n${scrubbed}`;
      }
      case 'write_clipboard':
        await desktop.writeClipboard(request.text ?? '');
        return `Done: ${description}.`;
      case 'notify':
        await desktop.notify({ title: request.title ?? 'Tandem', body: request.text ?? '' });
        return `Done: ${description}.`;
      case 'wait':
        await delay(Math.min(MAX_WAIT_SECONDS, request.seconds ?? 1) * 1000, undefined, { signal });
        return `Waited ${Math.min(MAX_WAIT_SECONDS, request.seconds ?? 1)} s. Take a screenshot to see the screen now.`;
      case 'cursor_position':
        return 'Tandem does not report where the pointer is; take a screenshot and name points in it.';
      default: {
        if (!resolved.action) throw new Error(`${request.action} is not an action Tandem knows`);
        await desktop.act(resolved.action, resolved.surface, signal);
        const where = resolved.action && 'at' in resolved.action ? ` (screen pixel ${resolved.action.at.x},${resolved.action.at.y})` : '';
        return `Done: ${description}${where}. Take a screenshot to see what changed.`;
      }
    }
  }

  private async resolve(request: UiRequest, signal?: AbortSignal): Promise<Resolved> {
    const pointer = POINTER_ACTIONS.has(request.action);
    const look = pointer ? await this.pointerSpace(request) : undefined;
    const needsWindows = pointer || WINDOW_ACTIONS.has(request.action) || request.action === 'type' || request.action === 'key';
    const windows = needsWindows ? await this.desktop().listWindows(signal) : [];
    const toScreen = (point: Point | undefined, name: string): Point => {
      if (!point || !look) throw new Error(`${request.action} needs "${name}": x and y in the screenshot`);
      return look.space.toScreen(point);
    };
    const at = pointer ? toScreen(request.at, 'x, y') : undefined;
    const to = request.action === 'drag' ? toScreen(request.to, 'to_x, to_y') : undefined;
    const surface = look?.space.surface ?? 'desktop';
    const window = pointer
      ? windowUnder(windows, at!, surface)
      : request.action === 'type' || request.action === 'key'
        ? windows.find((candidate) => candidate.focused)
        : request.windowId !== undefined
          ? namedWindow(windows, request.windowId)
          : undefined;
    const dropWindow = to ? windowUnder(windows, to, surface) : undefined;
    const label = look && request.at ? wordAt(look, request.at) : undefined;
    // Typed, pressed, or pasted: the middle button pastes the selection, and many terminals paste on the right one (or offer Paste there).
    const keysIn = request.action === 'type' || request.action === 'key' || request.action === 'middle_click' || request.action === 'right_click';
    const intoTerminal = (keysIn && window !== undefined && isTerminalWindow(window)) || (dropWindow !== undefined && isTerminalWindow(dropWindow) && dropWindow.id !== window?.id);
    const view: UiStepView = {
      action: request.action,
      description: uiDescription(request, { window, dropWindow, label, target: look ? describeTarget(look.target) : undefined }),
      ...(window && !window.excluded ? { window: { id: window.id, title: window.title, application: window.application } } : {}),
      ...(look?.screenshot && request.at ? { target: cropTarget(look, look.screenshot, request, window) } : {}),
    };
    return { action: desktopAction(request, at, to), surface, window, dropWindow, view, intoTerminal };
  }

  /**
   * The space a point is in: the last look at the target (ui_action), or the computer-use
   * tool's display, the primary screen scaled as its screenshots are.
   */
  private async pointerSpace(request: UiRequest): Promise<LastLook> {
    if (request.via === 'computer') {
      const space = await computerDisplaySpace(this.desktop());
      const seen = this.deps.memory.last({ kind: 'screen' });
      const screenshot = seen && sameSpace(seen.space, space) ? seen : undefined;
      return { target: { kind: 'screen' }, space, description: 'the screen', screenshot: screenshot?.screenshot, words: screenshot?.words };
    }
    const look = this.deps.memory.last(request.target);
    if (!look) {
      const what = request.target ? (request.target.kind === 'region' && !request.target.rect ? 'a region' : describeTarget(request.target as ScreenshotTarget)) : 'anything';
      throw new Error(`there is no screenshot of ${what} in this conversation yet. Take one (screenshot), then name points in it.`);
    }
    return look;
  }

  /** A request this system cannot do is refused first, saying what is missing (not "take a screenshot first"). */
  private async refuseUnavailable(request: UiRequest): Promise<void> {
    if (request.action === 'wait' || request.action === 'cursor_position') return;
    const availability = await this.desktop().availability();
    if (!availability.available) throw new Error(`not available on this system: ${availability.reason}`);
    const needsInput = !['read_clipboard', 'write_clipboard', 'notify'].includes(request.action);
    if (needsInput && availability.lacking?.input) throw new Error(`not available on this system: ${availability.lacking.input}`);
  }

  private desktop(): Desktop {
    if (!this.deps.desktop) throw new Error('this Tandem has no desktop capability');
    return this.deps.desktop;
  }
}

function uiRequest(step: Readonly<PlanStep>): UiRequest {
  if (!step.uiRequest) throw new Error(`Step ${step.index} is not a UI action.`);
  return step.uiRequest;
}

/** The action in real screen pixels (undefined for the clipboard, notifications, waiting). */
function desktopAction(request: UiRequest, at: Point | undefined, to: Point | undefined): UiAction | undefined {
  const windowId = request.windowId ?? '';
  switch (request.action) {
    case 'click':
      return { kind: 'click', at: at!, button: 'left', count: 1 };
    case 'double_click':
      return { kind: 'click', at: at!, button: 'left', count: 2 };
    case 'triple_click':
      return { kind: 'click', at: at!, button: 'left', count: 3 };
    case 'right_click':
      return { kind: 'click', at: at!, button: 'right', count: 1 };
    case 'middle_click':
      return { kind: 'click', at: at!, button: 'middle', count: 1 };
    case 'move':
      return { kind: 'move', at: at! };
    case 'drag':
      return { kind: 'drag', from: at!, to: to!, button: 'left' };
    case 'scroll':
      return { kind: 'scroll', at: at!, down: request.scroll?.down ?? 0, right: request.scroll?.right ?? 0 };
    case 'type':
      return { kind: 'type', text: request.text ?? '' };
    case 'key':
      return { kind: 'key', keys: request.keys ?? '' };
    case 'focus_window':
    case 'raise_window':
    case 'close_window':
      return { kind: request.action, windowId };
    case 'move_window':
      return { kind: 'move_window', windowId, to: request.at ?? { x: 0, y: 0 } };
    case 'resize_window':
      return { kind: 'resize_window', windowId, width: request.width ?? 0, height: request.height ?? 0 };
    default:
      return undefined;
  }
}

/** The topmost visible window whose frame holds the point (Tandem's own window for its own surface). */
function windowUnder(windows: readonly WindowInfo[], point: Point, surface: Surface): WindowInfo | undefined {
  if (surface === 'tandem') return windows.find((window) => window.id === 'tandem');
  return [...windows].reverse().find((window) => window.visible && rectContains(window.frame, point));
}

/** Where the action lands on the screenshot the model saw, and the frame of the window it reaches there (not one on the privacy list). */
function cropTarget(look: LastLook, screenshot: ScreenshotView, request: UiRequest, window: WindowInfo | undefined): NonNullable<UiStepView['target']> {
  const frame = window && !window.excluded && look.space.surface === 'desktop' ? look.space.rectToImage(window.frame) : undefined;
  return {
    screenshotId: screenshot.id,
    width: screenshot.width,
    height: screenshot.height,
    at: request.at!,
    ...(request.to ? { to: request.to } : {}),
    ...(frame && frame.width > 0 && frame.height > 0 ? { frame } : {}),
  };
}

function namedWindow(windows: readonly WindowInfo[], id: string): WindowInfo {
  const wanted = id.trim().toLowerCase();
  const window = windows.find((candidate) => candidate.id.toLowerCase() === wanted || (/^\d+$/.test(wanted) && parseInt(candidate.id, 16) === Number(wanted)));
  if (!window) throw new Error(`there is no window ${id} (list_windows gives the current ids)`);
  return window;
}

/** The word OCR read under a point of the screenshot, to name what is clicked ("on 'Retry'"). */
function wordAt(look: LastLook, point: Point): string | undefined {
  return look.words?.find((word) => rectContains(word.box, point))?.text;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
