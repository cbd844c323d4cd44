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
    const total = `200,000 lines (${formatBytes(printedBytes)}) printed in total`;
    expect(runResult?.content).toContain(`Output (200,000 lines, ${formatBytes(printedBytes)} printed in total; its middle scrolled out of the scrollback`);
    // How it began (kept as it streamed by), the middle marked as left out with the true totals, how it ended.
    expect(runResult?.content).toContain('<output block="p1b1">\n1\n2\n3\n');
    expect(runResult?.content).toMatch(new RegExp(`\\n80\\n… \\[199,800 lines \\([\\d.]+ MB\\) omitted; ${total.replace(/[().]/g, '\\$&')}\\] …\\n199881\\n`));
    expect(runResult?.content).toContain('\n200000\n</output>');

    const [historyResult] = toolResults(await model.waitForRequest(3));
    expect(historyResult?.content).toContain(`It printed 200,000 lines (${formatBytes(printedBytes)}) in total; its middle scrolled out of the scrollback`);
    expect(historyResult?.content).toContain('· 200,000 lines');
    expect(historyResult?.content).toContain(`omitted; ${total}] …`);
    expect(historyResult?.content).toMatch(/<output block="p1b1">\n1\n2\n/);
    expect(historyResult?.content).not.toMatch(/lines \([\d.]+ KB\) in total/);
    await waitForIdleWithAnswer(client, 'Counted.');
  });
});
