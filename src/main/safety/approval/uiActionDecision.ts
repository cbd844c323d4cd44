import type { PolicyFiles } from '../policy/policyFiles';
import { WindowExclusion } from '../../desktop/privacy/windowExclusion';
import { runPreExecHooks } from '../hooks/hookRunner';
import type { DecidedBy, GateDecision } from './gateDecision';
import type { SessionGrants } from './sessionGrants';

/** The window a UI action goes to, as the gate judges it. */
export interface UiActionWindow {
  id: string;
  title: string;
  application: string;
  instance: string;
  excluded: boolean;
}

/** A UI action of the agent (a click, typed text, a window closed …), resolved to the window it reaches. */
export interface ProposedUiAction {
  /** The action in words: what hooks, the card and the audit log see. */
  command: string;
  purpose?: string;
  /** The window under the point, the focused one (keys), or the one named; absent for the clipboard and notifications. */
  window?: UiActionWindow;
  /** A drag's drop window, when it is another one: judged as well (privacy list, deny_titles; allow_apps must name both). */
  dropWindow?: UiActionWindow;
  /** Keys or text may reach a terminal (typed, pressed, pasted with the middle or right button, dropped): RED. */
  intoTerminal: boolean;
  /** Waiting or reading where the pointer is: nothing on screen changes, nothing is read. */
  harmless: boolean;
  /** An `!auto` run: only the policy or a hook lets a UI action run unasked, never a session grant. */
  auto: boolean;
  cwd: string;
  paneId?: number;
  conversationId?: string;
  planId?: string;
  step?: number;
}

interface UiDecisionContext {
  policy: PolicyFiles;
  grants: SessionGrants;
  hooksDir: string;
  hookTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** What Allow for session grants: UI actions in one application (or of one kind without a window). */
export function uiActionShape(action: Pick<ProposedUiAction, 'window'>, kind: string): string {
  const { window } = action;
  if (!window) return `ui: ${kind}`;
  if (window.excluded) return 'ui actions in a window on the privacy list';
  return `ui actions in ${window.application || window.instance || `window ${window.id}`}`;
}

/**
 * The cascade for a UI action: the privacy list (never) → typing into a terminal or a window
 * whose title matches `[approval.ui] deny_titles` (RED: blocked) → pre-exec hooks (tool
 * `ui_action`) → `[approval.ui]` mode and `allow_apps` → a session grant for the application
 * (not in an auto run) → ask (YELLOW).
 */
export async function decideUiAction(action: ProposedUiAction, shape: string, context: UiDecisionContext): Promise<GateDecision> {
  const reasons: string[] = [];
  const decided = (decision: GateDecision['decision'], rule: string, decidedBy: DecidedBy, blocked = false): GateDecision => ({
    decision,
    blocked,
    level: blocked ? 'red' : action.harmless ? 'green' : 'yellow',
    reasons: reasons.length > 0 ? reasons : [action.harmless ? 'Nothing on screen changes.' : 'It acts on the screen as if you had used the mouse or keyboard.'],
    rule,
    decidedBy,
    command: action.command,
    shape,
  });
  if (action.harmless) return decided('allow', 'builtin: waiting, or reading where the pointer is, changes nothing', 'builtin');
  const { window } = action;
  // Every window the action reaches: the one under the point (focused, named) and a drag's drop window.
  const reached = [window, action.dropWindow].filter((candidate): candidate is UiActionWindow => candidate !== undefined);
  const excluded = reached.find((candidate) => candidate.excluded);
  if (excluded) {
    // Nothing of the window itself: its title is what the privacy list keeps from the model.
    reasons.push('The window it reaches is on the privacy list.');
    return decided('deny', 'builtin: windows on the privacy list ([approval.vision] exclude) are never acted on', 'builtin');
  }
  const layers = context.policy.layers();
  const ui = layers.map((layer) => ({ file: layer.file, error: layer.error, ...(layer.error ? {} : layer.policy?.approval?.ui) }));
  const titleDenied = (candidate: UiActionWindow) => ui.find((layer) => layer.deny_titles && new WindowExclusion(layer.deny_titles).matchFor({ title: candidate.title, application: '', instance: '' }));
  const deniedWindow = reached.find((candidate) => titleDenied(candidate) !== undefined);
  const deniedTitle = deniedWindow ? titleDenied(deniedWindow) : undefined;
  if (deniedTitle && deniedWindow) {
    reasons.push(`The window's title '${deniedWindow.title}' matches [approval.ui] deny_titles in ${deniedTitle.file}.`);
    return decided('ask', `policy ${deniedTitle.file}: [approval.ui] deny_titles`, 'policy', true);
  }
  if (action.intoTerminal) {
    reasons.push(`Keys or text would reach a terminal ('${window?.title ?? 'terminal'}'), where they run commands the approval gate never sees. Use run_command instead.`);
    return decided('ask', 'builtin: the agent never types into a terminal window', 'builtin', true);
  }
  const hook = await runPreExecHooks(
    context.hooksDir,
    {
      tool: 'ui_action',
      command: action.command,
      purpose: action.purpose,
      cwd: action.cwd,
      paneId: action.paneId,
      conversationId: action.conversationId,
      planId: action.planId,
      step: action.step,
      risk: { level: 'yellow', reasons: [] },
    },
    { timeoutMs: context.hookTimeoutMs, env: context.env },
  );
  const hookRule = `hook ${hook.hook ?? 'pre-exec'}${hook.reason ? `: ${hook.reason}` : ''}`;
  if (hook.decision === 'deny') return decided('deny', `hook ${hook.hook ?? 'pre-exec'}: ${hook.reason || 'denied'}`, 'hook');
  // A policy deny stands whatever a hook answers (a hook's "ask" would let the user approve it).
  const denied = ui.find((layer) => layer.mode === 'deny');
  if (denied) return decided('deny', `policy ${denied.file}: [approval.ui] mode = "deny"`, 'policy');
  // A hook cannot rewrite a UI action: a changed "command" makes it ask.
  if (hook.decision === 'ask' || (hook.command !== undefined && hook.command !== action.command)) return decided('ask', hookRule, 'hook');
  // Each file is judged on its own, the strictest wins: a file's allow_apps is the exception to its own mode = "ask", never to another file's.
  const allowsApp = (layer: (typeof ui)[number]) =>
    window !== undefined &&
    layer.allow_apps !== undefined &&
    // The application by its class or instance: a title is the application's to choose (a terminal titled "~/src/firefox").
    reached.every((candidate) => new WindowExclusion(layer.allow_apps!).matchFor({ title: '', application: candidate.application, instance: candidate.instance }) !== undefined);
  const asks = ui.some((layer) => layer.error || (layer.mode === 'ask' && !allowsApp(layer)));
  if (hook.decision === 'allow' && !layers.some((layer) => layer.error)) return decided('allow', hookRule, 'hook');
  const allowedApp = ui.find(allowsApp);
  if (allowedApp && window && !asks) {
    return decided('allow', `policy ${allowedApp.file}: [approval.ui] allow_apps names '${window.application || window.instance}'`, 'policy');
  }
  const allowedAll = ui.find((layer) => layer.mode === 'allow');
  if (allowedAll && !asks) return decided('allow', `policy ${allowedAll.file}: [approval.ui] mode = "allow"`, 'policy');
  // A broken file's deny_titles are unknown: while one is broken every step asks (a grant included).
  if (!action.auto && !layers.some((layer) => layer.error) && context.grants.has(shape)) return decided('allow', `allowed for this session: ${shape}`, 'grant');
  return decided('ask', action.auto ? 'auto mode: UI actions ask unless the policy allows the application' : 'default: UI actions ask (YELLOW)', 'default');
}
