import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineClient } from '../support/engineClient';
import { latest, planIdOf, toolResults, waitForIdleWithAnswer, waitForStep } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';

// edit_file and write_file end to end in the engine: a real bash pane (its cwd decides what
// "inside" means), the real SDK, the real gate and audit log, a scripted model.

const open = useAgentEngine();

const editFile = (id: string, path: string, edits: { old_text: string; new_text: string }[]) => ({ toolUse: { id, name: 'edit_file', input: { path, edits, purpose: 'fix it' } } });
const writeFile = (id: string, path: string, content: string) => ({ toolUse: { id, name: 'write_file', input: { path, content, purpose: 'write it' } } });

async function inProject(client: EngineClient, paneId: number, home: string): Promise<string> {
  const project = join(home, 'proj');
  mkdirSync(project, { recursive: true });
  client.type(paneId, 'cd ~/proj\r');
  await client.waitForBlock(paneId, 'cd ~/proj');
  // The pane's cwd (OSC 7) is what relative paths start from; it may come just after the block.
  await client.waitFor(() => client.eventsOf('pane.state').filter((state) => state.paneId === paneId).at(-1)?.cwd === project, 10_000, 'the pane in ~/proj');
  return project;
}

function auditLines(home: string): Record<string, unknown>[] {
  return readFileSync(join(home, '.local/share/tandem/audit.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('file edits by the agent', () => {
  it('post-exec hooks hear of a written edit (its tool and command line), not of one that was not written', async () => {
    const { client, model, paneId, home } = await open();
    const project = await inProject(client, paneId, home);
    const hooks = join(home, '.config/tandem/hooks');
    mkdirSync(hooks, { recursive: true });
    writeFileSync(join(hooks, 'post-exec'), `#!/bin/sh\ncat >> "${join(home, 'post-exec.jsonl')}"\necho >> "${join(home, 'post-exec.jsonl')}"\n`);
    chmodSync(join(hooks, 'post-exec'), 0o755);
    const heard = () => (existsSync(join(home, 'post-exec.jsonl')) ? readFileSync(join(home, 'post-exec.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) : []);
    writeFileSync(join(project, 'a.txt'), 'one\n');
    model.script(
      { parts: [editFile('e1', 'a.txt', [{ old_text: 'one', new_text: 'uno' }]), editFile('e2', 'a.txt', [{ old_text: 'absent', new_text: 'x' }])] },
      { parts: [{ text: 'Done.' }] },
    );
    await client.request('agent.send', { text: 'edit a.txt', attachments: [], paneId });
    const first = await waitForStep(client, (candidate) => candidate.index === 1 && candidate.approval !== undefined, 'the first edit judged');
    await client.request('agent.step', { planId: planIdOf(client), stepId: first.id, action: 'approve' });
    await waitForIdleWithAnswer(client, 'Done.');
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('uno\n');
    const [written] = await client.waitFor(() => (heard().length > 0 ? heard() : undefined), 10_000, 'the post-exec hook to run');
    expect(written).toMatchObject({ event: 'post-exec', tool: 'edit_file', command: 'edit_file a.txt', cwd: project, step: 1, hook_event_name: 'PostToolUse', tool_name: 'edit_file' });
    // The second edit was never written (its text is absent): no hook heard of it.
    expect(heard()).toHaveLength(1);
  });

  it('shows the diff, writes the file once approved, tells the model, audits the sha256s, and undoes', async () => {
    const { client, model, paneId, home } = await open();
    const project = await inProject(client, paneId, home);
    const file = join(project, 'app.js');
    writeFileSync(file, 'const answer = 41;\nconsole.log(answer);\n');
    model.script({ parts: [editFile('e1', 'app.js', [{ old_text: 'const answer = 41;', new_text: 'const answer = 42;' }])] }, { parts: [{ text: 'Fixed.' }] });
    await client.request('agent.send', { text: 'fix the answer', attachments: [], paneId });

    const step = await waitForStep(client, (candidate) => candidate.index === 1 && candidate.approval !== undefined, 'the edit step judged');
    expect(step.kind).toBe('edit');
    expect(step.edit?.path).toBe(file);
    expect(step.edit?.diff).toMatchObject({ added: 1, removed: 1 });
    expect(step.approval).toMatchObject({ decision: 'ask', rule: 'default: file edits ask (YELLOW)' });
    expect(readFileSync(file, 'utf8')).toBe('const answer = 41;\nconsole.log(answer);\n');

    await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'approve' });
    await waitForIdleWithAnswer(client, 'Fixed.');
    expect(readFileSync(file, 'utf8')).toBe('const answer = 42;\nconsole.log(answer);\n');
    const [result] = toolResults(await model.waitForRequest(2));
    expect(result).toMatchObject({ tool_use_id: 'e1' });
    expect(result!.content).toBe(`Edited ${file}: +1 −1 lines. The change is applied.`);
    expect(result!.is_error).toBeUndefined();

    // Audit lines are appended in order but after the fact: wait for the one of the write.
    const executed = await client.waitFor(() => auditLines(home).find((line) => line.event === 'executed' && line.path === file), 5_000, 'the edit in the audit log');
    expect(executed).toMatchObject({ command: 'edit_file app.js', sha256Before: expect.stringMatching(/^[0-9a-f]{64}$/), sha256After: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(executed!.sha256Before).not.toBe(executed!.sha256After);

    await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'undo' });
    const undone = await waitForStep(client, (candidate) => candidate.id === step.id && candidate.edit?.undo !== undefined, 'the undo');
    expect(undone.edit?.undo).toEqual({ restored: true, message: `Undone: ${file} has its previous content again.` });
    expect(readFileSync(file, 'utf8')).toBe('const answer = 41;\nconsole.log(answer);\n');
    await client.waitFor(() => auditLines(home).find((line) => line.command === 'undo edit_file app.js'), 5_000, 'the undo in the audit log');
  });

  it('undo says why not when the file changed after the edit', async () => {
    const { client, model, paneId, home } = await open();
    const project = await inProject(client, paneId, home);
    model.script({ parts: [writeFile('w1', 'notes.md', '# notes\n')] }, { parts: [{ text: 'Written.' }] });
    await client.request('agent.send', { text: 'start notes', attachments: [], paneId });
    const step = await waitForStep(client, (candidate) => candidate.index === 1 && candidate.approval !== undefined, 'the write step judged');
    expect(step.edit?.creates).toBe(true);
    await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'approve' });
    await waitForIdleWithAnswer(client, 'Written.');
    writeFileSync(join(project, 'notes.md'), '# notes\nmine\n');
    await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'undo' });
    const undone = await waitForStep(client, (candidate) => candidate.id === step.id && candidate.edit?.undo !== undefined, 'the undo refused');
    expect(undone.edit?.undo?.restored).toBe(false);
    expect(undone.edit?.undo?.message).toMatch(/has changed since the edit/);
    expect(readFileSync(join(project, 'notes.md'), 'utf8')).toBe('# notes\nmine\n');
  });

  it('a denied edit leaves the file as it was, and the model hears it', async () => {
    const { client, model, paneId, home } = await open();
    const project = await inProject(client, paneId, home);
    writeFileSync(join(project, 'a.txt'), 'keep\n');
    model.script({ parts: [editFile('e1', 'a.txt', [{ old_text: 'keep', new_text: 'lose' }])] }, { parts: [{ text: 'Understood.' }] });
    await client.request('agent.send', { text: 'change it', attachments: [], paneId });
    const step = await waitForStep(client, (candidate) => candidate.approval !== undefined, 'the edit judged');
    await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'deny', reason: 'not that' });
    await waitForIdleWithAnswer(client, 'Understood.');
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('keep\n');
    const [result] = toolResults(await model.waitForRequest(2));
    expect(result).toMatchObject({ content: 'Not run: the user denied this step. Their reason: not that', is_error: true });
  });

  it("refuses Tandem's own files without asking, and asks for a file outside the pane's cwd", async () => {
    const { client, model, paneId, home } = await open();
    await inProject(client, paneId, home);
    writeFileSync(join(home, 'outside.txt'), 'x\n');
    model.script(
      { parts: [writeFile('own', '~/.config/tandem/config.toml', '[ai]\n'), writeFile('out', '../outside.txt', 'y\n')] },
      { parts: [{ text: 'Noted.' }] },
    );
    await client.request('agent.send', { text: 'go', attachments: [], paneId });
    const own = await waitForStep(client, (candidate) => candidate.index === 1 && candidate.status === 'denied', 'the own-file step denied');
    expect(own.approval?.rule).toMatch(/^builtin: the agent may never change Tandem's own files/);
    // The plan stops at the denial; going on brings the next step up for judgement.
    await client.request('agent.plan', { planId: planIdOf(client), action: 'continue' });
    const outside = await waitForStep(client, (candidate) => candidate.index === 2 && candidate.approval !== undefined, 'the outside step judged');
    expect(outside.approval).toMatchObject({ decision: 'ask', decidedBy: 'builtin' });
    expect(outside.approval?.rule).toMatch(/outside the pane's working directory/);
    await client.request('agent.step', { planId: planIdOf(client), stepId: outside.id, action: 'skip' });
    await waitForIdleWithAnswer(client, 'Noted.');
    const results = toolResults(await model.waitForRequest(2));
    expect(results.find((result) => result.tool_use_id === 'own')?.content).toMatch(/^Not run: denied by builtin: the agent may never change Tandem's own files/);
    expect(readFileSync(join(home, 'outside.txt'), 'utf8')).toBe('x\n');
    const config = join(home, '.config/tandem/config.toml');
    expect(existsSync(config) ? readFileSync(config, 'utf8') : '').not.toBe('[ai]\n');
  });

  it('an ambiguous text fails the step, saying how often and where; nothing is written', async () => {
    const { client, model, paneId, home } = await open();
    const project = await inProject(client, paneId, home);
    writeFileSync(join(project, 'b.txt'), 'one\none\n');
    model.script({ parts: [editFile('e1', 'b.txt', [{ old_text: 'one', new_text: 'two' }])] }, { parts: [{ text: 'I will be more precise.' }] });
    await client.request('agent.send', { text: 'edit', attachments: [], paneId });
    await waitForIdleWithAnswer(client, 'I will be more precise.');
    const [result] = toolResults(await model.waitForRequest(2));
    expect(result).toMatchObject({ is_error: true, content: expect.stringMatching(/old_text occurs 2 times in .*b\.txt \(at lines 1, 2\)/) });
    expect(readFileSync(join(project, 'b.txt'), 'utf8')).toBe('one\none\n');
    const plan = latest(client)?.items.find((item) => item.role === 'plan');
    expect(plan?.role === 'plan' && plan.plan.steps[0]?.status).toBe('failed');
  });

  it('two edits of one file in one answer: the second is worked out on what the first wrote', async () => {
    const { client, model, paneId, home } = await open();
    const project = await inProject(client, paneId, home);
    writeFileSync(join(project, 'd.txt'), 'alpha\nbeta\n');
    model.script(
      { parts: [editFile('e1', 'd.txt', [{ old_text: 'alpha', new_text: 'ALPHA' }]), editFile('e2', 'd.txt', [{ old_text: 'ALPHA\nbeta', new_text: 'ALPHA\nBETA' }])] },
      { parts: [{ text: 'Both done.' }] },
    );
    await client.request('agent.send', { text: 'shout', attachments: [], paneId });
    await waitForStep(client, (candidate) => candidate.index === 1 && candidate.approval !== undefined, 'the first edit judged');
    await client.request('agent.plan', { planId: planIdOf(client), action: 'allow-all' });
    await waitForIdleWithAnswer(client, 'Both done.');
    expect(readFileSync(join(project, 'd.txt'), 'utf8')).toBe('ALPHA\nBETA\n');
    expect(toolResults(await model.waitForRequest(2)).map((result) => result.is_error ?? false)).toEqual([false, false]);
  });

  it('works the same through an OpenAI-compatible endpoint', async () => {
    const { client, model, paneId, home } = await open({ openAiCompatible: true });
    const project = await inProject(client, paneId, home);
    writeFileSync(join(project, 'c.txt'), 'a\n');
    model.script({ parts: [editFile('call_1', 'c.txt', [{ old_text: 'a', new_text: 'b' }])] }, { parts: [{ text: 'Done.' }] });
    await client.request('agent.send', { text: 'edit', attachments: [], paneId });
    const step = await waitForStep(client, (candidate) => candidate.approval !== undefined, 'the edit judged');
    await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'approve' });
    await waitForIdleWithAnswer(client, 'Done.');
    expect(readFileSync(join(project, 'c.txt'), 'utf8')).toBe('b\n');
  });
});
