import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WindowExclusion } from '../../../src/main/desktop/privacy/windowExclusion';
import { X11Desktop } from '../../../src/main/desktop/x11/x11Desktop';
import { latest, waitForIdleWithAnswer } from '../../support/agentConversation';
import { useAgentEngine } from '../../support/agentEngine';
import { eventually, missingDesktopPrograms, startXvfb, type XvfbDisplay } from '../../support/desktop/xvfbDisplay';
import type { RecordedRequest } from '../../support/modelServer';

// A window on the privacy list (configured in the test's policy.toml) beside an ordinary
// dialog, on a real X server: every tool the model can call about it — the window list, a
// screenshot and the OCR of the screen, a screenshot and the OCR of the window itself, a click
// on it, a key while it has the focus — answers without its title, class, id or text. The
// model is told only that a window was blacked out, or is on the list.

const missing = missingDesktopPrograms();
const open = useAgentEngine();

const TITLE = 'Secret Vault';
const CLASS = 'VaultKeeper';
const TEXT = 'hunter2-recovery-code';
const POLICY = `[approval.vision]\nscreenshot = "allow"\nexclude = ["${TITLE}"]\n`;

/** Every text the model was sent in tool results (images left out: their base64 is not text). */
function toolResultTexts(requests: readonly RecordedRequest[]): string[] {
  return requests.flatMap((request) =>
    (request.body?.messages ?? []).flatMap((message) => {
      if (!Array.isArray(message.content)) return [];
      return (message.content as { type: string; content?: unknown }[])
        .filter((part) => part.type === 'tool_result')
        .flatMap((part) => (typeof part.content === 'string' ? [part.content] : ((part.content ?? []) as { type: string; text?: string }[]).flatMap((inner) => (inner.text ? [inner.text] : []))));
    }),
  );
}

describe.skipIf(missing.length > 0)(`a window on the privacy list under Xvfb${missing.length > 0 ? ` (skipped: ${missing.join(', ')} not installed)` : ''}`, () => {
  let xvfb: XvfbDisplay;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    xvfb = await startXvfb(1920, 1080);
    const env = { ...process.env, DISPLAY: xvfb.display };
    children.push(spawn('xterm', ['-geometry', '60x8+100+100', '-title', TITLE, '-class', CLASS, '-e', 'sh', '-c', `echo ${TEXT}; sleep 100000`], { env, stdio: 'ignore' }));
    children.push(spawn('xmessage', ['-fn', 'fixed', '-geometry', '+900+500', '-title', 'Build failed', '-buttons', 'Retry:3,Cancel:4', 'Build failed'], { env, stdio: 'ignore' }));
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill();
    await xvfb?.stop();
  });

  it('no tool result, card or audit line carries its title, class, id or text; the model hears only that a window was blacked out or is on the list', async () => {
    const desktop = new X11Desktop(xvfb.display, new WindowExclusion([TITLE]));
    const vault = await eventually(async () => (await desktop.listWindows()).find((window) => window.title === TITLE && window.visible), 'the vault window');
    await eventually(async () => (await desktop.listWindows()).find((window) => window.title === 'Build failed' && window.visible), 'the dialog');
    expect(vault.excluded).toBe(true);
    // The user works in the vault: it has the keyboard focus (Tandem itself would refuse to focus it).
    await new X11Desktop(xvfb.display, new WindowExclusion([])).act({ kind: 'focus_window', windowId: vault.id });
    // The vault's centre in the 1280×720 screenshot of the 1920×1080 screen.
    const centre = { x: Math.round((vault.frame.x + vault.frame.width / 2) * (2 / 3)), y: Math.round((vault.frame.y + vault.frame.height / 2) * (2 / 3)) };

    const { client, model, paneId, home } = await open({ env: { DISPLAY: xvfb.display }, systemPolicyToml: POLICY, configToml: '[ai]\ncomputer_use = "off"\n' });
    const call = (id: string, name: string, input: Record<string, unknown>) => ({ parts: [{ toolUse: { id, name, input } }] });
    model.script(
      {
        parts: [
          { toolUse: { id: 'w1', name: 'list_windows', input: {} } },
          { toolUse: { id: 's1', name: 'screenshot', input: { target: 'screen' } } },
          { toolUse: { id: 'r1', name: 'read_screen_text', input: { target: 'screen' } } },
        ],
      },
      call('s2', 'screenshot', { target: 'window', window_id: vault.id }),
      call('r2', 'read_screen_text', { target: 'window', window_id: vault.id }),
      call('c1', 'ui_action', { action: 'click', x: centre.x, y: centre.y, target: 'screen' }),
      call('k1', 'ui_action', { action: 'key', keys: 'Return' }),
      { parts: [{ text: 'Done looking.' }] },
    );
    await client.request('agent.send', { text: 'what is on my screen?', attachments: [], paneId });
    await waitForIdleWithAnswer(client, 'Done looking.');

    // The last request carries the whole conversation: each tool result once.
    const texts = toolResultTexts(model.requests.slice(-1));
    const all = toolResultTexts(model.requests).join('\n');
    // The looks worked, and said what the privacy list did without naming the window.
    expect(all).toContain('"Build failed"  Xmessage');
    expect(all).toContain('(1 more window is on the privacy list: not listed, never captured or acted on.)');
    expect(all).toContain('1 window blacked out by the privacy list.');
    expect(all).toMatch(/Text:\n(.|\n)*Build failed/);
    expect(texts.filter((text) => text.includes('that window is on the privacy list'))).toHaveLength(2);
    expect(texts.filter((text) => text.includes('windows on the privacy list ([approval.vision] exclude) are never acted on'))).toHaveLength(2);
    const leaks = new RegExp(`${TITLE}|Secret|Vault|${CLASS}|hunter2|recovery|${vault.id}|${parseInt(vault.id, 16)}`, 'i');
    expect(all).not.toMatch(leaks);

    // What the panel shows of the UI steps, and what the audit trail keeps, name nothing of it either.
    const steps = latest(client)!.items.flatMap((item) => (item.role === 'plan' ? item.plan.steps : []));
    const ui = steps.filter((step) => step.kind === 'ui');
    expect(ui.map((step) => step.ui?.description)).toEqual([`click at ${centre.x},${centre.y} in a window on the privacy list`, 'press Return in a window on the privacy list']);
    expect(JSON.stringify(ui)).not.toMatch(leaks);
    // The audit is appended off the step's path: wait for the last step's line before reading it whole.
    const auditFile = join(home, '.local/share/tandem/audit.jsonl');
    const lastStep = '"command":"press Return in a window on the privacy list"';
    const audit = await eventually(async () => {
      const text = readFileSync(auditFile, 'utf8');
      return text.includes(lastStep) ? text : undefined;
    }, 'the last UI step in the audit log');
    expect(audit).toContain('in a window on the privacy list');
    expect(audit.split('\n').filter((line) => !line.includes('"screenshot window') && !line.includes('"read_screen_text window')).join('\n')).not.toMatch(leaks);
  });
});
