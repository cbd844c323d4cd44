import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/main/context/outputExcerpt';
import { planIdOf, toolResults, waitForIdleWithAnswer, waitForStep } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';

const open = useAgentEngine();

describe('a huge output, with a real bash', () => {
  it('is reported with the true totals (counted as it streamed) and says its start was dropped', async () => {
    const { client, model, paneId } = await open();
    model.script(
      { parts: [{ toolUse: { id: 'toolu_seq', name: 'run_command', input: { command: 'seq 1 200000', purpose: 'count' } } }] },
      { parts: [{ toolUse: { id: 'toolu_history', name: 'terminal_history', input: { last: 1, detail: 'full' } } }] },
      { parts: [{ text: 'Counted.' }] },
    );
    await client.request('agent.send', { text: 'count to 200000', attachments: [], paneId });
    const step = await waitForStep(client, (s) => s.status === 'proposed', 'the step');
    await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'approve' });

    const printedBytes = Buffer.byteLength(`${Array.from({ length: 200_000 }, (_, n) => n + 1).join('\n')}\n`);
    const [runResult] = toolResults(await model.waitForRequest(2, 60_000));
    expect(runResult?.content).toContain(`200,000 lines, ${formatBytes(printedBytes)} printed in total`);
    expect(runResult?.content).toMatch(/the first [\d,]+ lines scrolled out of the scrollback/);
    expect(runResult?.content).toContain('\n200000\n');

    const [historyResult] = toolResults(await model.waitForRequest(3));
    expect(historyResult?.content).toContain(`It printed 200,000 lines (${formatBytes(printedBytes)}) in total`);
    expect(historyResult?.content).toContain('200,000 lines');
    expect(historyResult?.content).toMatch(/omitted; 200,000 lines \([\d.]+ MB\) printed in total; the first [\d,]+ scrolled out/);
    expect(historyResult?.content).not.toMatch(/lines \([\d.]+ KB\) in total/);
    await waitForIdleWithAnswer(client, 'Counted.');
  });
});
