import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentProtocolJsonSchema } from '../../src/main/headless/agentStreamSchema';
import { eventProblems } from '../support/agentProtocol';

describe('docs/agent-protocol.schema.json', () => {
  it('is what the zod declarations generate (run `npm run protocol:schema` after changing them)', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '../../docs/agent-protocol.schema.json'), 'utf8'));
    expect(committed).toEqual(agentProtocolJsonSchema());
  });

  it('accepts a result line in the shape Claude Code tooling reads, and rejects a line with a field it does not declare', () => {
    const result = { type: 'result', subtype: 'success', is_error: false, exit_code: 0, duration_ms: 12, num_turns: 1, usage: { input_tokens: 1, output_tokens: 2, context_tokens: 3 }, session_id: 's', result: 'ok' };
    expect(eventProblems(result)).toEqual([]);
    expect(eventProblems({ ...result, surprise: 1 })).not.toEqual([]);
    expect(eventProblems({ type: 'step', phase: 'finished', plan_id: 'p', step_id: 'p1', index: 1, command: 'ls', status: 'exploded' })).not.toEqual([]);
  });
});
