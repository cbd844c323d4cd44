import { describe, expect, it } from 'vitest';
import type { ConversationItem, PlanStepView } from '../../src/shared/agent';
import { messageItemMarkup } from './support/messageItemMarkup';

// A command step's card for a pane that ssh took to another host: it says "on host X" where
// the pane and cwd are; a step on this machine names no host.
const markup = messageItemMarkup();

function render(step: PlanStepView): string {
  const item: ConversationItem = { id: 'i-plan', role: 'plan', at: 1, plan: { id: 'p1', mode: 'ask', state: 'active', steps: [step], decisionStepId: step.id } };
  return markup(item);
}

const step = (host?: string): PlanStepView => ({
  id: 's1',
  index: 1,
  command: 'git status',
  purpose: 'repo state',
  status: 'proposed',
  paneId: 2,
  cwd: '/srv/app',
  risk: { level: 'yellow', reasons: ['on db1: its git config is not readable from here'] },
  approval: { decision: 'ask', blocked: false, rule: 'default: ask (no policy.toml allows it)', decidedBy: 'default', grantable: true, shape: 'git status (on db1)', ...(host ? { host } : {}) },
});

describe('the card of a step on another host', () => {
  it('says "on host X" beside the pane and the remote cwd', () => {
    const html = render(step('db1'));
    const where = /<div class="plan-step__where" data-testid="step-where"([^>]*)>(.*?)<\/div>/.exec(html);
    expect(where?.[1]).toContain('data-host="db1"');
    expect(where?.[2]?.replace(/<[^>]+>/g, '')).toBe('pane 2 · on host db1 · /srv/app');
  });

  it('names no host for a step on this machine', () => {
    const html = render(step());
    const where = /<div class="plan-step__where" data-testid="step-where"([^>]*)>(.*?)<\/div>/.exec(html);
    expect(where?.[1]).not.toContain('data-host');
    expect(where?.[2]).toBe('pane 2 · /srv/app');
  });
});
