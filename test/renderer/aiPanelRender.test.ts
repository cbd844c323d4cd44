import { describe, expect, it } from 'vitest';
import type { ConversationItem, PlanView } from '../../src/shared/agent';
import { messageItemMarkup } from './support/messageItemMarkup';

/**
 * The panel's conversation rendered from a fake view, to the HTML the browser gets (no DOM
 * here): roles, test ids and data attributes, Markdown, and which plan controls appear when.
 */
const markup = messageItemMarkup();

function render(item: ConversationItem): string {
  return markup(item);
}

/** Attribute values of every element carrying `name`, in document order. */
function attributeValues(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`${name}="([^"]*)"`, 'g'))].map((match) => match[1]!);
}

describe('messages', () => {
  it('a user message from the prompt, with its attachments', () => {
    const html = render({
      id: 'u1',
      role: 'user',
      text: 'why did it fail?',
      source: 'prompt',
      at: 1,
      attachments: [{ blockId: 'p1b3', command: 'make', exitCode: 2, cwd: '/src', excerpt: 'error: x' }],
    });
    expect(html).toContain('data-testid="ai-message"');
    expect(html).toContain('data-role="user"');
    expect(html).toContain('data-item-id="u1"');
    expect(html).toContain('data-testid="from-prompt"');
    expect(html).toContain('from the prompt');
    expect(html).toMatch(/data-testid="message-attachment" data-block-id="p1b3"/);
    expect(html).toContain('exit 2');
  });

  it('an answer as Markdown: code blocks with Copy and Insert, links that do not navigate, raw HTML as text', () => {
    const html = render({
      id: 'a1',
      role: 'assistant',
      streaming: false,
      at: 2,
      interrupted: 'cancelled',
      text: [
        'The **build** failed. See [the docs](https://example.com/docs).',
        '',
        '```bash',
        'make clean && make',
        '```',
        '',
        '<img src=x onerror="alert(1)"> <script>alert(2)</script>',
        '',
        '| a | b |',
        '|---|---|',
        '| 1 | 2 |',
      ].join('\n'),
    });
    expect(html).toContain('data-role="assistant"');
    expect(html).toContain('<strong>build</strong>');
    expect(html).toMatch(/data-testid="ai-code" data-language="bash"/);
    expect(attributeValues(html, 'data-action')).toEqual(['copy-code', 'insert-code']);
    expect(html).toContain('make clean &amp;&amp; make</code>');
    expect(html).not.toContain('<a ');
    expect(html).toContain('data-href="https://example.com/docs"');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<table>');
    expect(html).toContain('data-testid="interrupted"');
  });

  it('a streaming answer renders the same Markdown in pieces', () => {
    const html = render({ id: 'a2', role: 'assistant', streaming: true, at: 3, text: 'One.\n\n```sh\nls\n' });
    expect(html).toContain('data-streaming="true"');
    expect(html).toContain('<p>One.</p>');
    expect(html).toContain('data-testid="ai-code"');
  });

  it('tool one-liners and errors', () => {
    const tool = render({ id: 't1', role: 'tool', tool: 'terminal_history', summary: 'read `make` output (40 lines)', ok: true, at: 4 });
    expect(tool).toContain('data-role="tool"');
    expect(tool).toContain('data-ok="true"');
    expect(tool).toContain('<code>make</code>');
    const error = render({ id: 'e1', role: 'error', text: 'Rate limited.', at: 5 });
    expect(error).toContain('data-role="error"');
    expect(error).toContain('Rate limited.');
  });
});

describe('retries and errors', () => {
  it('a waiting retry is a card: the reason, the countdown, what happens then, and Cancel', () => {
    const html = render({ id: 'r1', role: 'retry', reason: 'Rate limited by http://127.0.0.1:9 (429).', state: 'waiting', secondsLeft: 29, attempt: 2, attempts: 5, at: 1 });
    expect(html).toContain('data-role="retry"');
    expect(html).toContain('Rate limited by http://127.0.0.1:9 (429).');
    expect(html).toMatch(/data-testid="retry-countdown" data-seconds="29">Sending it again in <strong>29 s<\/strong> \(attempt 2 of 5\)/);
    expect(html).toContain('data-testid="retry-cancel"');
  });

  it('a long wait reads in minutes', () => {
    const html = render({ id: 'r1', role: 'retry', reason: 'Rate limited.', state: 'waiting', secondsLeft: 125, attempt: 2, attempts: 5, at: 1 });
    expect(html).toContain('<strong>2 min 5 s</strong>');
  });

  it('a cancelled retry stays as a marker, without Cancel', () => {
    const html = render({ id: 'r1', role: 'retry', reason: 'The model service failed (500).', state: 'cancelled', secondsLeft: 0, attempt: 2, attempts: 5, at: 1 });
    expect(html).toContain('Retry cancelled');
    expect(html).toContain('Not sent again');
    expect(html).not.toContain('data-testid="retry-cancel"');
  });

  it('a switch to a fallback backend: which answers now, why, what was passed over, and when the configured one is tried again', () => {
    const configured = { backend: 'anthropic' as const, model: 'claude-sonnet-5-5', endpoint: 'https://api.anthropic.com' };
    const html = render({
      id: 'f1',
      role: 'fallback',
      from: configured,
      to: { backend: 'openai-compatible', model: 'llama3', endpoint: 'http://127.0.0.1:11434/v1' },
      reason: 'Cannot reach https://api.anthropic.com (ECONNREFUSED).',
      skipped: ['openai-compatible qwen at https://vllm.example/v1 (VLLM_KEY is not set)'],
      configured,
      holdMinutes: 5,
      at: 1,
    });
    expect(html).toContain('data-role="fallback"');
    expect(html).toContain('Now answering: llama3 (openai-compatible, http://127.0.0.1:11434/v1)');
    expect(html).toContain('claude-sonnet-5-5 (anthropic, https://api.anthropic.com) could not be reached: Cannot reach https://api.anthropic.com (ECONNREFUSED).');
    expect(html).toContain('Passed over: openai-compatible qwen at https://vllm.example/v1 (VLLM_KEY is not set).');
    expect(html).toContain('stay on the fallback for 5 min or until a new conversation');
  });

  it('a failed request: says it retried, offers Retry and what was sent; other errors neither', () => {
    const failed = render({ id: 'e1', role: 'error', text: 'The model service failed (500).', retryable: true, attempts: 5, sentId: 'a1', at: 1 });
    expect(failed).toContain('Failed after 5 attempts');
    expect(failed).toContain('data-testid="error-retry"');
    expect(failed).toContain('data-testid="what-was-sent"');
    const once = render({ id: 'e2', role: 'error', text: 'The API key was refused (401).', retryable: true, attempts: 1, at: 1 });
    expect(once).not.toContain('Failed after');
    const budget = render({ id: 'e3', role: 'error', text: 'Stopped: budget.', at: 1 });
    expect(budget).not.toContain('error-retry');
    expect(budget).not.toContain('what-was-sent');
  });
});

describe('plan card', () => {
  const plan = (state: PlanView['state'], overrides: Partial<PlanView> = {}): ConversationItem => ({
    id: 'i-plan',
    role: 'plan',
    at: 6,
    plan: {
      id: 'plan-1',
      mode: 'ask',
      state,
      steps: [
        { id: 's1', index: 1, command: 'git fetch', purpose: 'get the branches', status: 'done', exitCode: 0, durationMs: 1_200 },
        { id: 's2', index: 2, command: 'git rebase origin/main', originalCommand: 'git rebase main', purpose: 'rebase', status: 'proposed' },
        { id: 's3', index: 3, command: 'npm test', purpose: 'check', status: 'proposed' },
      ],
      decisionStepId: state === 'active' ? 's2' : undefined,
      ...overrides,
    },
  });

  it('is not an ai-message; each step carries its status, command and id', () => {
    const html = render(plan('active'));
    expect(html).not.toContain('data-testid="ai-message"');
    expect(html).toMatch(/data-testid="plan" data-plan-id="plan-1"/);
    expect(attributeValues(html, 'data-step-id')).toEqual(['s1', 's2', 's3']);
    expect(attributeValues(html, 'data-status')).toEqual(['done', 'proposed', 'proposed']);
    expect(attributeValues(html, 'data-command')).toEqual(['git fetch', 'git rebase origin/main', 'npm test']);
    expect(html).toContain('exit 0 · 1.20 s');
    expect(html).toContain('git rebase main');
  });

  it('while active: decisions on the step the engine says waits, plan-level buttons, a note field', () => {
    const html = render(plan('active'));
    const actions = attributeValues(html, 'data-action');
    const perStep = ['approve', 'allow-session', 'deny', 'edit', 'skip', 'deny-with-reason'];
    expect(actions).toEqual([...perStep, 'allow-all', 'step-through', 'deny-plan', 'add-note']);
    expect(html.match(/data-action="approve"/g)).toHaveLength(1);
    expect(html).toMatch(/data-step-id="s2"[^>]*>.*data-action="approve"/s);
    expect(html).toContain('data-testid="plan-note"');
    expect(html).toContain('plan-step--next');
  });

  it('while active with nothing left to decide: Deny plan stops what runs; with nothing left at all, no controls', () => {
    const running = render(plan('active', { steps: [{ id: 's1', index: 1, command: 'make', purpose: '', status: 'running' }] }));
    expect(attributeValues(running, 'data-action')).toEqual(['deny-plan', 'add-note']);
    const over = render(plan('active', { steps: [{ id: 's1', index: 1, command: 'make', purpose: '', status: 'done', exitCode: 0 }] }));
    expect(attributeValues(over, 'data-action')).toEqual([]);
  });

  it('under Allow all, while step 1 runs, step 2 has no live buttons and no "checking" line', () => {
    const html = render(
      plan('active', {
        mode: 'allow-all',
        decisionStepId: undefined,
        steps: [
          { id: 's1', index: 1, command: 'read answer', purpose: '', status: 'running', decider: { verdict: 'allowed', by: 'allow-all', rule: 'Allow all' } },
          { id: 's2', index: 2, command: 'echo next', purpose: '', status: 'proposed' },
        ],
      }),
    );
    for (const stepAction of ['approve', 'allow-session', 'deny', 'edit', 'skip', 'deny-with-reason']) expect(html).not.toContain(`data-action="${stepAction}"`);
    expect(html).not.toContain('checking policy and hooks');
    expect(html).not.toContain('plan-step--next');
    expect(html).toContain('allowed by Allow all');
    expect(html).not.toContain('asks you');
  });

  it('the rule line says who decided, and a blocked step reads blocked, never "asks you"', () => {
    const approval = { decision: 'ask', blocked: true, rule: 'builtin: RED commands are blocked', decidedBy: 'builtin', grantable: false, shape: 'rm <path>' } as const;
    const blocked = render(plan('active', { decisionStepId: 's1', steps: [{ id: 's1', index: 1, command: 'rm -rf /', purpose: '', status: 'proposed', approval }] }));
    expect(blocked).toContain('blocked · builtin: RED commands are blocked');
    expect(blocked).not.toContain('asks you');
    const decided = render(
      plan('finished', {
        steps: [
          { id: 's1', index: 1, command: 'ls', purpose: '', status: 'done', decider: { verdict: 'allowed', by: 'policy', rule: 'policy: allow ls' } },
          { id: 's2', index: 2, command: 'make', purpose: '', status: 'done', decider: { verdict: 'allowed', by: 'you', rule: 'Allow once' } },
          { id: 's3', index: 3, command: 'rm x', purpose: '', status: 'denied', decider: { verdict: 'denied', by: 'hook', rule: 'hook no-rm' } },
          { id: 's4', index: 4, command: 'touch y', purpose: '', status: 'done', decider: { verdict: 'allowed', by: 'grant', rule: 'session grant: touch <path>' } },
        ],
      }),
    );
    expect(decided).toContain('allowed by policy · policy: allow ls');
    expect(decided).toContain('allowed by you (Allow once)');
    expect(decided).toContain('denied by a hook · hook no-rm');
    expect(decided).toContain('allowed by a session grant · session grant: touch &lt;path&gt;');
  });

  it('why a step is RED is on the card, said once (also when auto mode refused it)', () => {
    const risk = { level: 'red' as const, reasons: ['rm -r -f on / deletes everything.'] };
    const approval = { decision: 'ask', blocked: true, rule: 'builtin: RED commands are blocked', decidedBy: 'builtin', grantable: false, shape: 'rm <path>' } as const;
    const waiting = render(plan('active', { decisionStepId: 's1', steps: [{ id: 's1', index: 1, command: 'rm -rf /', purpose: '', status: 'proposed', risk, approval }] }));
    expect(waiting).toMatch(/data-testid="step-risk-why"[^>]*>RED: rm -r -f on \/ deletes everything\.</);
    const refused = render(
      plan('halted', {
        steps: [
          {
            id: 's1',
            index: 1,
            command: 'rm -rf /',
            purpose: '',
            status: 'denied',
            risk,
            approval,
            detail: 'refused (RED) by auto mode: rm -r -f on / deletes everything.',
            decider: { verdict: 'denied', by: 'auto', rule: 'RED: never runs in auto mode' },
          },
        ],
      }),
    );
    // Shown text only: the risk badge's tooltip says it too.
    expect(refused.replace(/title="[^"]*"/g, '').split('deletes everything').length - 1).toBe(1);
  });

  it("a policy's denial names its rule once", () => {
    const rule = 'policy ~/.config/tandem/policy.toml: [approval.shell] deny_patterns "touch *"';
    const html = render(
      plan('halted', {
        steps: [{ id: 's1', index: 1, command: 'touch x', purpose: '', status: 'denied', detail: `denied by ${rule}`, decider: { verdict: 'denied', by: 'policy', rule } }],
      }),
    );
    expect(html).toContain('denied by policy · ');
    expect(html.split('deny_patterns').length - 1).toBe(1);
  });

  it('when halted: the reason, Continue and Stop, and the note field', () => {
    const html = render(plan('halted', { haltReason: 'Step 2 failed with exit 1.' }));
    expect(html).toContain('Step 2 failed with exit 1.');
    expect(attributeValues(html, 'data-action')).toEqual(['continue', 'stop', 'add-note']);
  });

  it('when finished or cancelled: nothing to decide', () => {
    expect(attributeValues(render(plan('finished')), 'data-action')).toEqual([]);
    expect(attributeValues(render(plan('cancelled')), 'data-action')).toEqual([]);
  });
});
