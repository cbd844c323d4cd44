import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChildAgentView, ConversationItem, PlanStepView } from '../../src/shared/agent';
import type { EngineConnection } from '../../src/renderer/src/transport/engineConnection';
import { importRendererModule } from './support/rendererModule';

type MessageItemModule = typeof import('../../src/renderer/src/ai/MessageItem');
type PlanRequestsModule = typeof import('../../src/renderer/src/ai/planRequests');
type EngineModule = typeof import('../../src/renderer/src/app/engine');

// A spawn_agent step's card with the child agent nested under it, rendered from a fake view to
// the HTML the browser gets: who the child is, what it may do, its steps, usage, answer, and its
// steps that ask as approval cards of their own whose answers go to `agent.child-approval`.
// The engine connection is a stand-in at the edge; clicking is covered by e2e/ai-child-agent.spec.ts.

let MessageItem: MessageItemModule['MessageItem'];
let planRequests: PlanRequestsModule;
const sent: { method: string; params: unknown }[] = [];

beforeAll(async () => {
  vi.stubGlobal('window', { ...globalThis, tandemElectron: undefined });
  vi.stubGlobal('navigator', { platform: 'Linux x86_64' });
  const { setEngine } = await importRendererModule<EngineModule>('app/engine.ts');
  setEngine({
    async request(method: string, params: unknown) {
      sent.push({ method, params });
      return {};
    },
  } as unknown as EngineConnection);
  ({ MessageItem } = await importRendererModule<MessageItemModule>('ai/MessageItem.tsx'));
  planRequests = await importRendererModule<PlanRequestsModule>('ai/planRequests.ts');
});

afterAll(() => vi.unstubAllGlobals());

beforeEach(() => {
  sent.length = 0;
});

const SPAWN_COMMAND = "tandem agent --parent /run/user/1000/tandem/p1.sock --depth 1 -c 'count the TODOs in src'";

function childView(overrides: Partial<ChildAgentView> = {}): ChildAgentView {
  return {
    instruction: 'count the TODOs in src',
    may: ['run read-only commands without asking; anything else asks you', 'at most 20 steps'],
    depth: 1,
    state: 'running',
    pid: 1234,
    steps: [
      { index: 1, command: 'ls src', status: 'done', exitCode: 0 },
      { index: 2, command: 'grep -c TODO src/*.ts', status: 'failed', exitCode: 2 },
      { index: 3, command: 'touch src/marker', status: 'asking' },
    ],
    filesChanged: [],
    asking: [
      {
        id: 'req-7',
        kind: 'command',
        command: 'touch src/marker',
        purpose: 'mark the folder as counted',
        level: 'yellow',
        reasons: ['creates or changes files'],
        rule: 'builtin: yellow asks',
      },
    ],
    usage: { inputTokens: 1_500, outputTokens: 320, costUsd: 0.0123 },
    ...overrides,
  };
}

function spawnStep(child: ChildAgentView, overrides: Partial<PlanStepView> = {}): PlanStepView {
  return { id: 's1', index: 1, command: SPAWN_COMMAND, purpose: 'hand the count to a child agent', status: 'running', paneId: 1, child, ...overrides };
}

function render(step: PlanStepView, decisionStepId?: string): string {
  const item: ConversationItem = { id: 'i-plan', role: 'plan', at: 1, plan: { id: 'p1', mode: 'ask', state: 'active', steps: [step], decisionStepId } };
  return renderToStaticMarkup(createElement(MessageItem, { item }));
}

function attributeValues(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`${name}="([^"]*)"`, 'g'))].map((match) => match[1]!);
}

/** The text from the start of the first element with this test id to the end of the card (enough to read what it shows first). */
function textFrom(html: string, testId: string): string {
  const start = html.indexOf(`data-testid="${testId}"`);
  expect(start, `no ${testId}`).toBeGreaterThan(-1);
  return html.slice(html.indexOf('>', start) + 1).replace(/<[^>]+>/g, '');
}

describe('a spawn step with its child agent', () => {
  it('says who the child is, its state, what it was asked and what it may do', () => {
    const html = render(spawnStep(childView()));
    expect(html).toMatch(/<section class="child-agent child-agent--running" aria-label="Child agent · depth 1 · pid 1234" data-testid="child-agent" data-state="running" data-depth="1" data-pid="1234">/);
    expect(html).toMatch(/data-testid="child-who">Child agent · depth 1 · pid 1234</);
    expect(html).toMatch(/data-testid="child-state">running…</);
    expect(html).toMatch(/data-testid="child-instruction">count the TODOs in src</);
    expect(html).toMatch(/aria-label="What the child agent may do" data-testid="child-may"><li>run read-only commands without asking; anything else asks you<\/li><li>at most 20 steps<\/li><\/ul>/);
  });

  it("lists the child's steps as compact rows with status and exit code", () => {
    const html = render(spawnStep(childView()));
    expect(attributeValues(html, 'data-testid').filter((id) => id === 'child-step')).toHaveLength(3);
    expect(html).toMatch(/data-testid="child-step" data-index="1" data-status="done" data-command="ls src" data-exit-code="0">.*?exit 0.*?>done</);
    expect(html).toMatch(/data-testid="child-step" data-index="2" data-status="failed" data-command="grep -c TODO src\/\*.ts" data-exit-code="2">.*?exit 2.*?>failed</);
    expect(html).toMatch(/data-testid="child-step" data-index="3" data-status="asking" data-command="touch src\/marker">(?:(?!exit).)*?>asks you</);
    // The nested rows are not plan steps of the parent: the parent's step selectors find only the spawn step.
    expect(attributeValues(html, 'data-testid').filter((id) => id === 'plan-step')).toEqual(['plan-step']);
  });

  it('a step that asks is a nested approval card: who asks, the command, level, reasons, rule, Allow and Deny', () => {
    const html = render(spawnStep(childView()));
    expect(html).toMatch(
      /class="child-approval child-approval--yellow" role="group" aria-label="The child agent asks to run: touch src\/marker" data-testid="child-approval" data-request-id="req-7" data-kind="command" data-risk="yellow"/,
    );
    expect(textFrom(html, 'child-approval')).toMatch(/^The child agent asks to run:Child agent · depth 1 · pid 1234touch src\/markeryellowmark the folder as counted/);
    expect(html).toMatch(/data-testid="child-approval-reasons"><li>creates or changes files<\/li><\/ul>/);
    expect(html).toMatch(/data-testid="child-approval-rule">asks you · builtin: yellow asks</);
    // The spawn step runs: its own buttons are gone, the child's are live (and the plan's own controls stay).
    expect(attributeValues(html, 'data-action')).toEqual(['child-allow', 'child-deny', 'child-deny-with-reason', 'deny-plan', 'add-note']);
    expect(html).toMatch(/data-action="child-allow"[^>]*>Allow<\/button>/);
    expect(html).toMatch(/data-action="child-deny"[^>]*>Deny<\/button>/);
  });

  it("an edit that asks shows the child's diff, line by line", () => {
    const diff = ['--- a/src/app.ts', '+++ b/src/app.ts', '@@ -1,2 +1,2 @@', ' const a = 1;', '-const b = 2;', '+const b = 3;'].join('\n');
    const html = render(
      spawnStep(childView({ asking: [{ id: 'req-8', kind: 'edit', command: 'edit_file src/app.ts', purpose: '', level: 'yellow', reasons: [], rule: 'builtin: edits ask', diff }] })),
    );
    expect(html).toContain('aria-label="The child agent asks to change a file: edit_file src/app.ts"');
    expect(attributeValues(html, 'data-kind').filter((kind) => kind !== 'command' && kind !== 'edit')).toEqual(['file', 'file', 'hunk', 'same', 'remove', 'add']);
    expect(html).toMatch(/diff__line--remove" data-kind="remove">-const b = 2;</);
    expect(html).toMatch(/diff__line--add" data-kind="add">\+const b = 3;</);
    expect(html).not.toContain('data-testid="child-approval-reasons"');
  });

  it('usage with its cost, or "cost unknown" when the model has no price', () => {
    expect(render(spawnStep(childView()))).toMatch(/data-testid="child-usage" title="1,500 input tokens, 320 output tokens[^"]*">↑1.5k ↓320 tokens · \$0.012</);
    const unpriced = render(spawnStep(childView({ usage: { inputTokens: 900, outputTokens: 40 } })));
    expect(unpriced).toMatch(/data-testid="child-usage"[^>]*>↑900 ↓40 tokens · cost unknown</);
    expect(render(spawnStep(childView({ usage: undefined })))).not.toContain('data-testid="child-usage"');
  });

  it('when the child is done: its steps, files changed and its answer; no approval card is left', () => {
    const html = render(
      spawnStep(
        childView({
          state: 'done',
          steps: [{ index: 1, command: 'touch src/marker', status: 'done', exitCode: 0 }],
          asking: [],
          filesChanged: ['src/app.ts', 'src/marker'],
          answer: 'There are **3** TODOs.',
        }),
        { status: 'done', exitCode: 0 },
      ),
    );
    expect(html).toMatch(/data-testid="child-state">done</);
    expect(html).toMatch(/data-testid="child-files">2 files changed: <code class="child-agent__file">src\/app.ts<\/code><code class="child-agent__file">src\/marker<\/code>/);
    expect(html).toMatch(/data-testid="child-answer">.*There are <strong>3<\/strong> TODOs\./);
    expect(html).not.toContain('data-testid="child-approval"');
    expect(html).not.toContain('data-action="child-allow"');
  });

  it('when it ended without an answer, says why', () => {
    const html = render(spawnStep(childView({ state: 'stopped', asking: [], reason: 'it was interrupted' }), { status: 'failed', exitCode: 130 }));
    expect(html).toMatch(/data-testid="child-state">stopped</);
    expect(html).toMatch(/data-testid="child-reason">it was interrupted</);
    expect(html).not.toContain('data-testid="child-answer"');
  });

  it('before the spawn is allowed: what the child may do, and the spawn step takes the decision', () => {
    const child = childView({ state: 'starting', pid: undefined, steps: [], asking: [], usage: undefined });
    const html = render(spawnStep(child, { status: 'proposed', approval: { decision: 'ask', blocked: false, rule: 'builtin: spawn asks', decidedBy: 'builtin', grantable: false, shape: 'tandem agent' } }), 's1');
    expect(html).toMatch(/data-testid="child-who">Child agent · depth 1</);
    expect(html).toMatch(/data-testid="child-state">starts when you allow this step</);
    expect(html).toContain('data-testid="child-may"');
    expect(attributeValues(html, 'data-action').slice(0, 3)).toEqual(['approve', 'allow-session', 'deny']);
    expect(html).not.toContain('child-allow');
    // Denied, it never starts.
    expect(render(spawnStep(child, { status: 'denied' }))).toMatch(/data-testid="child-state">not started</);
  });

  it('a step without a child has no child section', () => {
    expect(render({ id: 's1', index: 1, command: 'ls', purpose: '', status: 'done', exitCode: 0 })).not.toContain('child-agent');
  });
});

describe('deciding a child step', () => {
  it('Allow sends agent.child-approval for the spawn step and the request', async () => {
    planRequests.decideChildStep('p1', 's1', 'req-7', 'allow');
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ method: 'agent.child-approval', params: { planId: 'p1', stepId: 's1', requestId: 'req-7', decision: 'allow', note: undefined } });
  });

  it("Deny with a reason sends the reason, trimmed, for the child's model; a blank reason is none", async () => {
    planRequests.decideChildStep('p1', 's1', 'req-7', 'deny', '  not in src  ');
    planRequests.decideChildStep('p1', 's1', 'req-8', 'deny', '   ');
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent.map((request) => request.params)).toEqual([
      { planId: 'p1', stepId: 's1', requestId: 'req-7', decision: 'deny', note: 'not in src' },
      { planId: 'p1', stepId: 's1', requestId: 'req-8', decision: 'deny', note: undefined },
    ]);
  });
});
