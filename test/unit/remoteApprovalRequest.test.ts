import { describe, expect, it } from 'vitest';
import type { PlanStepView, PlanView } from '../../src/shared/agent';
import { approvalRequest } from '../../src/main/headless/approvals/approvalRequest';
import { eventProblems } from '../support/agentProtocol';

const step = (host?: string): PlanStepView => ({
  id: 'p1s1',
  index: 1,
  command: 'touch x',
  purpose: 'a file',
  status: 'proposed',
  risk: { level: 'yellow', reasons: ['touch changes files'] },
  approval: { decision: 'ask', blocked: false, rule: 'default: ask (no policy.toml allows it)', decidedBy: 'default', grantable: true, shape: 'touch x (on db1)', ...(host ? { host } : {}) },
});
const plan = (s: PlanStepView): PlanView => ({ id: 'p1', mode: 'ask', state: 'active', steps: [s], decisionStepId: s.id });

describe("a `tandem agent` run's approval request for a step on another host", () => {
  it('names the host, in a line the protocol schema accepts', () => {
    const request = approvalRequest({ plan: plan(step('db1')), step: step('db1') }, 'r1');
    expect(request.host).toBe('db1');
    expect(eventProblems(request)).toEqual([]);
  });

  it('has no host for a step on this machine', () => {
    const request = approvalRequest({ plan: plan(step()), step: step() }, 'r1');
    expect('host' in request).toBe(false);
    expect(eventProblems(request)).toEqual([]);
  });
});
