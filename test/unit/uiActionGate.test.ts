import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalGate, GateDecision } from '../../src/main/safety/approval/approvalGate';
import { uiActionShape, type ProposedUiAction, type UiActionWindow } from '../../src/main/safety/approval/uiActionDecision';
import type { TandemPaths } from '../../src/main/settings/paths';
import { makeGateHome } from '../support/gateHome';

// The gate's cascade for UI actions (ApprovalGate.decideUi), over real policy files in a temp
// home (a system file and the user's) and real `#!/bin/sh` pre-exec hooks.

let root: string;
/** Where the hooks keep their input ($OUT). */
let out: string;
let home: string;
let paths: TandemPaths;
let systemPolicyFile: string;
let gate: ApprovalGate;

beforeEach(() => {
  out = mkdtempSync(join(tmpdir(), 'tandem-ui-gate-hooks-'));
  ({ root, home, paths, systemPolicyFile, gate } = makeGateHome('tandem-ui-gate-', { hookTimeoutMs: 10_000, env: { OUT: out } }));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

const userPolicy = (text: string): void => writeFileSync(join(paths.configDir, 'policy.toml'), text);

function systemPolicy(text: string): void {
  mkdirSync(dirname(systemPolicyFile), { recursive: true });
  writeFileSync(systemPolicyFile, text);
}

function hook(name: string, body: string): void {
  const dir = join(paths.configDir, 'hooks');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
}

/** A hook that keeps its input in $OUT/<name>.json and prints one JSON answer. */
const answering = (name: string, json: object): string => `cat > "$OUT/${name}.json"\necho '${JSON.stringify(json)}'`;

const installer: UiActionWindow = { id: '0x2a00007', title: 'Installer', application: 'XMessage', instance: 'xmessage', excluded: false };
const xterm: UiActionWindow = { id: '0x1400002', title: 'bash', application: 'XTerm', instance: 'xterm', excluded: false };
const keepass: UiActionWindow = { id: '0x3000001', title: 'Passwords - KeePassXC', application: 'KeePassXC', instance: 'keepassxc', excluded: true };

function action(overrides: Partial<ProposedUiAction> = {}): ProposedUiAction {
  return {
    command: "click at 412,300 on 'Retry' in window 'Installer' (XMessage)",
    purpose: 'retry the install',
    window: installer,
    intoTerminal: false,
    harmless: false,
    auto: false,
    cwd: home,
    paneId: 1,
    conversationId: 'c1',
    planId: 'p1',
    step: 2,
    ...overrides,
  };
}

const decideUi = (overrides: Partial<ProposedUiAction> = {}, kind = 'click'): Promise<GateDecision> => gate.decideUi(action(overrides), kind);

function expectAsked(decision: GateDecision): void {
  expect(decision).toMatchObject({ decision: 'ask', blocked: false, level: 'yellow' });
}

function expectBlocked(decision: GateDecision): void {
  expect(decision).toMatchObject({ decision: 'ask', blocked: true, level: 'red' });
}

describe('without policy or hooks', () => {
  it('a click asks (YELLOW), in words, with the application as what a session grant covers', async () => {
    const decision = await decideUi();
    expectAsked(decision);
    expect(decision).toMatchObject({
      decidedBy: 'default',
      rule: 'default: UI actions ask (YELLOW)',
      command: "click at 412,300 on 'Retry' in window 'Installer' (XMessage)",
      shape: 'ui actions in XMessage',
    });
    expect(decision.reasons.join(' ')).toMatch(/mouse or keyboard/);
  });

  it.each([
    ['wait', { command: 'wait 2 s', window: undefined }],
    ['cursor_position', { command: 'ask where the pointer is', window: undefined }],
  ])('%s is harmless: allowed, GREEN, whatever the policy says', async (kind, overrides) => {
    userPolicy('[approval.ui]\nmode = "deny"\n');
    const decision = await decideUi({ ...overrides, harmless: true }, kind);
    expect(decision).toMatchObject({ decision: 'allow', blocked: false, level: 'green', decidedBy: 'builtin' });
  });

  it('a window on the privacy list is never acted on: denied, even with allow_apps naming it and a session grant', async () => {
    userPolicy('[approval.ui]\nallow_apps = ["KeePassXC"]\nmode = "allow"\n');
    gate.grants.grant(uiActionShape({ window: keepass }, 'click'), 'click');
    const decision = await decideUi({ window: keepass, command: "click at 1,1 in window 'Passwords - KeePassXC'" });
    expect(decision).toMatchObject({ decision: 'deny', decidedBy: 'builtin' });
    expect(decision.rule).toMatch(/privacy list/);
    // Nothing of the window itself reaches the card or the model: not its title, class or id.
    expect(decision.reasons.join(' ')).toBe('The window it reaches is on the privacy list.');
    expect(decision.shape).not.toMatch(/KeePass/i);
  });

  it('keys into a terminal are RED: blocked, and no policy, hook or grant lets them through', async () => {
    userPolicy('[approval.ui]\nmode = "allow"\nallow_apps = ["XTerm"]\n');
    hook('pre-exec', answering('hook', { decision: 'allow' }));
    gate.grants.grant(uiActionShape({ window: xterm }, 'type'), 'type');
    const decision = await decideUi({ window: xterm, intoTerminal: true, command: `type "rm -rf ~" into window 'bash' (XTerm)` }, 'type');
    expectBlocked(decision);
    expect(decision.decidedBy).toBe('builtin');
    expect(decision.reasons.join(' ')).toMatch(/run_command/);
    // Blocked before the hooks: the hook never saw it.
    expect(existsSync(join(out, 'hook.json'))).toBe(false);
  });

  it('a click in a terminal (no keys) is an ordinary YELLOW action', async () => {
    expectAsked(await decideUi({ window: xterm }));
  });

  it('an action without a window (the clipboard) asks; a grant covers that kind of action only', async () => {
    const clipboard = { window: undefined, command: 'read the clipboard (its text goes to the model, secrets redacted)' };
    const decision = await decideUi(clipboard, 'read_clipboard');
    expectAsked(decision);
    expect(decision.shape).toBe('ui: read_clipboard');
    gate.grants.grant('ui: read_clipboard', 'read');
    expect((await decideUi(clipboard, 'read_clipboard')).decision).toBe('allow');
    expectAsked(await decideUi({ window: undefined, command: 'put "x" on the clipboard' }, 'write_clipboard'));
  });
});

describe('session grants', () => {
  it('Allow for session covers later actions in the same application, not in another one', async () => {
    gate.grants.grant((await decideUi()).shape, 'click');
    expect(await decideUi({ command: "double-click at 5,5 in window 'Other installer' (XMessage)", window: { ...installer, id: '0x2a00099', title: 'Other installer' } })).toMatchObject({
      decision: 'allow',
      decidedBy: 'grant',
    });
    expectAsked(await decideUi({ window: { id: '0x5', title: 'Calculator', application: 'Galculator', instance: 'galculator', excluded: false } }));
  });

  it('an auto run never uses a session grant: it asks, and says why', async () => {
    gate.grants.grant(uiActionShape({ window: installer }, 'click'), 'click');
    const decision = await decideUi({ auto: true });
    expectAsked(decision);
    expect(decision.rule).toMatch(/^auto mode/);
  });

  it('a grant does not lift a policy deny', async () => {
    userPolicy('[approval.ui]\nmode = "deny"\n');
    gate.grants.grant(uiActionShape({ window: installer }, 'click'), 'click');
    expect((await decideUi()).decision).toBe('deny');
  });
});

describe('[approval.ui] in policy.toml', () => {
  it('deny_titles makes an action on a window with that title RED, naming the file; other windows are not touched', async () => {
    userPolicy('[approval.ui]\nmode = "allow"\ndeny_titles = ["*Bank*", "Installer"]\n');
    const decision = await decideUi();
    expectBlocked(decision);
    expect(decision.decidedBy).toBe('policy');
    expect(decision.rule).toBe(`policy ${join(paths.configDir, 'policy.toml')}: [approval.ui] deny_titles`);
    expectBlocked(await decideUi({ window: { ...installer, title: 'My Bank - Firefox' } }));
    // Titles only, whole words: the class "XMessage" and "Installers" do not match.
    expect((await decideUi({ window: { ...installer, title: 'Installers' } })).decision).toBe('allow');
  });

  it('deny_titles of the system file applies while the user file allows everything', async () => {
    systemPolicy('[approval.ui]\ndeny_titles = ["Installer"]\n');
    userPolicy('[approval.ui]\nmode = "allow"\nallow_apps = ["XMessage"]\n');
    expectBlocked(await decideUi());
  });

  it('allow_apps names applications by class or instance: they run unasked, also in an auto run; a title never counts', async () => {
    userPolicy('[approval.ui]\nallow_apps = ["xmessage"]\n');
    const decision = await decideUi({ auto: true });
    expect(decision).toMatchObject({ decision: 'allow', decidedBy: 'policy', level: 'yellow' });
    expect(decision.rule).toContain('allow_apps');
    // The application chooses its title: a terminal titled after an allowed application is still a terminal.
    userPolicy('[approval.ui]\nallow_apps = ["firefox"]\n');
    expectAsked(await decideUi({ window: { id: '0x6', title: 'user@host: ~/src/firefox', application: 'Gnome-terminal', instance: 'gnome-terminal-server', excluded: false } }));
    expect((await decideUi({ window: { id: '0x7', title: 'Mozilla', application: 'firefox', instance: 'Navigator', excluded: false } })).decision).toBe('allow');
    userPolicy('[approval.ui]\nallow_apps = ["xmessage"]\n');
    expectAsked(await decideUi({ window: { id: '0x5', title: 'Calculator', application: 'Galculator', instance: 'galculator', excluded: false } }));
    expectAsked(await decideUi({ window: undefined }, 'write_clipboard'));
  });

  it('mode = "allow" allows every action that is not blocked', async () => {
    userPolicy('[approval.ui]\nmode = "allow"\n');
    expect(await decideUi()).toMatchObject({ decision: 'allow', decidedBy: 'policy' });
    expect((await decideUi({ window: undefined }, 'read_clipboard')).decision).toBe('allow');
  });

  it('mode = "deny" in either file denies', async () => {
    systemPolicy('[approval.ui]\nmode = "deny"\n');
    userPolicy('[approval.ui]\nmode = "allow"\nallow_apps = ["XMessage"]\n');
    const decision = await decideUi();
    expect(decision).toMatchObject({ decision: 'deny', decidedBy: 'policy', rule: `policy ${systemPolicyFile}: [approval.ui] mode = "deny"` });
  });

  it('mode = "ask" in one file wins over mode = "allow" in the other', async () => {
    systemPolicy('[approval.ui]\nmode = "ask"\n');
    userPolicy('[approval.ui]\nmode = "allow"\n');
    expectAsked(await decideUi());
  });

  it("the user's allow_apps cannot loosen the system file's mode = \"ask\" (the strictest file wins)", async () => {
    systemPolicy('[approval.ui]\nmode = "ask"\n');
    userPolicy('[approval.ui]\nallow_apps = ["XMessage"]\n');
    expectAsked(await decideUi());
  });

  it('in one file, allow_apps is the exception to its own mode = "ask"', async () => {
    userPolicy('[approval.ui]\nmode = "ask"\nallow_apps = ["XMessage"]\n');
    expect((await decideUi()).decision).toBe('allow');
    expectAsked(await decideUi({ window: { id: '0x5', title: 'Calculator', application: 'Galculator', instance: 'galculator', excluded: false } }));
  });
});

describe('a drag reaches two windows: both are judged', () => {
  const bank: UiActionWindow = { id: '0x6600001', title: 'My Bank - Firefox', application: 'firefox', instance: 'Navigator', excluded: false };
  const drag = (dropWindow: UiActionWindow) => decideUi({ command: "drag from 1,2 to 3,4 in window 'Installer' (XMessage) onto another window", dropWindow }, 'drag');

  it('a drop onto a window whose title matches deny_titles is RED', async () => {
    userPolicy('[approval.ui]\nmode = "allow"\ndeny_titles = ["*Bank*"]\n');
    const decision = await drag(bank);
    expectBlocked(decision);
    expect(decision.reasons.join(' ')).toContain('My Bank - Firefox');
  });

  it('a drop onto a window on the privacy list is denied', async () => {
    expect((await drag(keepass)).decision).toBe('deny');
  });

  it('allow_apps must name the application dropped onto as well', async () => {
    userPolicy('[approval.ui]\nallow_apps = ["XMessage"]\n');
    expectAsked(await drag(bank));
    userPolicy('[approval.ui]\nallow_apps = ["XMessage", "firefox"]\n');
    expect((await drag(bank)).decision).toBe('allow');
  });
});

describe('a broken policy file never makes anything more permissive', () => {
  it('allow_apps and mode = "allow" of a good file ask while the other file is broken', async () => {
    systemPolicy('[approval.ui]\nmode = "allow"\nallow_apps = ["XMessage"]\n');
    userPolicy('[approval.ui]\nmode = "alow"\n');
    expectAsked(await decideUi());
  });

  it("a session grant does not lift the deny_titles of a file that broke: it asks until the file is fixed", async () => {
    const bank: UiActionWindow = { id: '0x6600001', title: 'My Bank - Firefox', application: 'firefox', instance: 'Navigator', excluded: false };
    gate.grants.grant(uiActionShape({ window: bank }, 'click'), 'click');
    userPolicy('[approval.ui]\ndeny_titles = ["*Bank*"]\n');
    expectBlocked(await decideUi({ window: bank }));
    userPolicy('[approval.ui]\ndeny_titles = ["*Bank*"]\nmode = "alow"\n');
    const decision = await decideUi({ window: bank });
    expectAsked(decision);
    expect(decision.rule).not.toMatch(/allowed for this session/);
    // Fixed again, the grant covers other windows of the application.
    userPolicy('[approval.ui]\ndeny_titles = ["*Bank*"]\n');
    expect((await decideUi({ window: { ...bank, id: '0x6600002', title: 'News - Firefox' } })).decision).toBe('allow');
  });

  it('a hook cannot vouch for an action while a file is broken', async () => {
    userPolicy('this is not toml = = =\n');
    hook('pre-exec', answering('hook', { decision: 'allow', reason: 'fine by me' }));
    expectAsked(await decideUi());
  });

  it('a deny of the good file still denies; excluded and terminal keys stay refused', async () => {
    systemPolicy('[approval.ui]\nmode = "deny"\n');
    userPolicy('[approval]\nnonsense = 1\n');
    expect((await decideUi()).decision).toBe('deny');
    expect((await decideUi({ window: keepass })).decision).toBe('deny');
    expectBlocked(await decideUi({ window: xterm, intoTerminal: true }, 'key'));
  });
});

describe('pre-exec hooks (tool "ui_action")', () => {
  it('see the action in words, its purpose and where it belongs', async () => {
    hook('pre-exec', answering('hook', { decision: 'ask' }));
    const decision = await decideUi();
    expect(decision).toMatchObject({ decision: 'ask', decidedBy: 'hook' });
    const input = JSON.parse(readFileSync(join(out, 'hook.json'), 'utf8')) as Record<string, unknown>;
    expect(input).toMatchObject({ tool: 'ui_action', command: action().command, purpose: 'retry the install' });
    expect(JSON.stringify(input)).toContain('"p1"');
  });

  it('a hook that denies denies, with its reason, also over allow_apps', async () => {
    userPolicy('[approval.ui]\nallow_apps = ["XMessage"]\n');
    hook('pre-exec.guard', answering('guard', { decision: 'deny', reason: 'no clicking on Fridays' }));
    expect(await decideUi()).toMatchObject({ decision: 'deny', decidedBy: 'hook', rule: 'hook pre-exec.guard: no clicking on Fridays' });
  });

  it('a hook that fails denies (fail closed)', async () => {
    hook('pre-exec', 'cat >/dev/null\nexit 1');
    expect(await decideUi()).toMatchObject({ decision: 'deny', decidedBy: 'hook' });
  });

  it('a hook that allows lets it run unasked, also in an auto run', async () => {
    hook('pre-exec', answering('hook', { decision: 'allow', reason: 'installer clicks are fine' }));
    expect(await decideUi({ auto: true })).toMatchObject({ decision: 'allow', decidedBy: 'hook', rule: 'hook pre-exec: installer clicks are fine' });
  });

  it('a hook that asks makes an allowed application ask', async () => {
    userPolicy('[approval.ui]\nallow_apps = ["XMessage"]\n');
    hook('pre-exec', answering('hook', { decision: 'ask', reason: 'look first' }));
    expect(await decideUi()).toMatchObject({ decision: 'ask', decidedBy: 'hook', rule: 'hook pre-exec: look first' });
  });

  it('a hook cannot rewrite a UI action: a changed command makes it ask, and the action stays as it was', async () => {
    userPolicy('[approval.ui]\nmode = "allow"\n');
    hook('pre-exec', answering('hook', { command: 'click at 1,1 somewhere else' }));
    const decision = await decideUi();
    expectAsked(decision);
    expect(decision.command).toBe(action().command);
  });

  it('a hook that asks (or rewrites) cannot turn a policy deny into a question', async () => {
    userPolicy('[approval.ui]\nmode = "deny"\n');
    hook('pre-exec', answering('hook', { decision: 'ask' }));
    expect((await decideUi()).decision).toBe('deny');
    hook('pre-exec', answering('hook', { command: 'something else' }));
    expect((await decideUi()).decision).toBe('deny');
  });
});
