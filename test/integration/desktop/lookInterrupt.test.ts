import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanStepView } from '../../../src/shared/agent';
import { WindowExclusion } from '../../../src/main/desktop/privacy/windowExclusion';
import { X11Desktop } from '../../../src/main/desktop/x11/x11Desktop';
import { latest, planIdOf, toolResults, waitForIdleWithAnswer, waitForStep } from '../../support/agentConversation';
import { useAgentEngine } from '../../support/agentEngine';
import type { EngineClient } from '../../support/engineClient';
import { eventually, missingDesktopPrograms, startXvfb, type XvfbDisplay } from '../../support/desktop/xvfbDisplay';

// A full-screen OCR runs Tesseract for many seconds. Esc in the panel, or cancelling the plan,
// ends the look at once: the tesseract processes are killed, the step ends "interrupted" (or
// "cancelled"), and the model is told.

const missing = missingDesktopPrograms();
const open = useAgentEngine();

/** Tesseract processes this test process started (the engine runs in it); other tests' are not ours. */
function ourTesseracts(): number[] {
  const ps = spawnSync('ps', ['-e', '-o', 'pid=,ppid=,comm='], { encoding: 'utf8' }).stdout;
  return ps
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, comm]) => Number(ppid) === process.pid && comm === 'tesseract')
    .map(([pid]) => Number(pid));
}

/** A page of text in a window, so reading the screen keeps Tesseract busy. */
function pageOfText(): string {
  const words = ['build', 'failed', 'retry', 'cancel', 'installer', 'package', 'version', 'network', 'timeout', 'error'];
  return Array.from({ length: 60 }, (_, line) => Array.from({ length: 12 }, (_, n) => words[(line * 7 + n * 3) % words.length]).join(' ')).join('\n');
}

async function startOcrOfScreen(client: EngineClient, model: Awaited<ReturnType<typeof open>>['model'], paneId: number): Promise<PlanStepView> {
  model.script({ parts: [{ toolUse: { id: 'r1', name: 'read_screen_text', input: { target: 'screen', purpose: 'read everything' } } }] }, { parts: [{ text: 'Stopped, as you asked.' }] });
  await client.request('agent.send', { text: 'read the whole screen', attachments: [], paneId });
  const step = await waitForStep(client, (candidate) => candidate.status === 'proposed' && candidate.approval?.decision === 'ask', 'the OCR step asking');
  await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'approve' });
  await eventually(async () => (ourTesseracts().length > 0 ? true : undefined), 'tesseract running', 30_000);
  await waitForStep(client, (candidate) => candidate.id === step.id && candidate.status === 'running', 'the panel showing the step running');
  return step;
}

function stepNow(client: EngineClient, stepId: string): PlanStepView | undefined {
  for (const item of latest(client)?.items ?? []) if (item.role === 'plan') for (const step of item.plan.steps) if (step.id === stepId) return step;
  return undefined;
}

describe.skipIf(missing.length > 0)(`interrupting a look under Xvfb${missing.length > 0 ? ` (skipped: ${missing.join(', ')} not installed)` : ''}`, () => {
  let xvfb: XvfbDisplay;
  let page: ChildProcess;
  let dir: string;
  /** How long reading this screen takes when nobody interrupts it, measured once. */
  let ocrMs: number;

  beforeAll(async () => {
    xvfb = await startXvfb(1920, 1080);
    dir = mkdtempSync(join(tmpdir(), 'tandem-ocr-'));
    writeFileSync(join(dir, 'page.txt'), pageOfText());
    page = spawn('xmessage', ['-geometry', '+40+40', '-title', 'Release notes', '-file', join(dir, 'page.txt')], { env: { ...process.env, DISPLAY: xvfb.display }, stdio: 'ignore' });
    const desktop = new X11Desktop(xvfb.display, new WindowExclusion());
    await eventually(async () => (await desktop.listWindows()).find((window) => window.title === 'Release notes'), 'the page of text');
    const started = performance.now();
    const read = await desktop.readText({ kind: 'screen' });
    ocrMs = performance.now() - started;
    expect(read.text).toContain('installer');
  }, 120_000);

  afterAll(async () => {
    if (page?.exitCode === null) page.kill();
    await xvfb?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('Esc: the OCR ends at once, tesseract is killed, the step ends "interrupted" and the model is told', async () => {
    const { client, model, paneId } = await open({ env: { DISPLAY: xvfb.display } });
    const step = await startOcrOfScreen(client, model, paneId);
    const pressed = performance.now();
    expect(await client.request('agent.cancel', { everything: false })).toEqual({ cancelled: 'step' });
    await eventually(async () => (stepNow(client, step.id)?.status !== 'running' ? true : undefined), 'the step ended', 120_000);
    const endedMs = performance.now() - pressed;
    await eventually(async () => (ourTesseracts().length === 0 ? true : undefined), 'no tesseract left');
    console.log(`OCR of the screen uninterrupted: ${Math.round(ocrMs)} ms; step ended ${Math.round(endedMs)} ms after Esc`);
    expect(endedMs).toBeLessThan(ocrMs / 4);
    expect(stepNow(client, step.id)).toMatchObject({ status: 'failed', detail: 'interrupted' });

    await waitForIdleWithAnswer(client, 'Stopped, as you asked.');
    const [result] = toolResults(await model.waitForRequest(2));
    expect(result).toMatchObject({ tool_use_id: 'r1', is_error: true, content: expect.stringContaining('the user stopped it before it finished') });
  }, 120_000);

  it('cancelling the plan (Esc twice): the step ends "cancelled", tesseract is killed', async () => {
    const { client, model, paneId } = await open({ env: { DISPLAY: xvfb.display } });
    const step = await startOcrOfScreen(client, model, paneId);
    const pressed = performance.now();
    expect(await client.request('agent.cancel', { everything: true })).toEqual({ cancelled: 'everything' });
    await eventually(async () => (stepNow(client, step.id)?.status !== 'running' ? true : undefined), 'the step ended', 120_000);
    const endedMs = performance.now() - pressed;
    await eventually(async () => (ourTesseracts().length === 0 ? true : undefined), 'no tesseract left');
    expect(endedMs).toBeLessThan(ocrMs / 4);
    expect(stepNow(client, step.id)).toMatchObject({ status: 'failed', detail: 'cancelled' });
  }, 120_000);

  it("an auto run's Stop ends a look it runs unasked (policy allows looks): tesseract killed, the card and the model told it was the run's Stop", async () => {
    const { client, model, paneId } = await open({ env: { DISPLAY: xvfb.display }, systemPolicyToml: '[approval.vision]\nscreenshot = "allow"\n' });
    model.script({ parts: [{ toolUse: { id: 'r1', name: 'read_screen_text', input: { target: 'screen', purpose: 'read everything' } } }] }, { parts: [{ text: 'Noted.' }] });
    await client.request('agent.auto', { paneId, task: 'read the screen' });
    const step = await waitForStep(client, (candidate) => candidate.status === 'running', 'the OCR running unasked');
    await eventually(async () => (ourTesseracts().length > 0 ? true : undefined), 'tesseract running', 30_000);
    const pressed = performance.now();
    await client.request('agent.auto-stop', {});
    await eventually(async () => (stepNow(client, step.id)?.status !== 'running' ? true : undefined), 'the step ended', 120_000);
    const endedMs = performance.now() - pressed;
    await eventually(async () => (ourTesseracts().length === 0 ? true : undefined), 'no tesseract left');
    expect(endedMs).toBeLessThan(ocrMs / 4);
    expect(stepNow(client, step.id)).toMatchObject({ status: 'failed', detail: 'auto run stopped (Stop on its banner)' });

    await eventually(async () => (latest(client)?.auto === undefined && latest(client)?.status === 'idle' ? true : undefined), 'the run ended');
    await client.request('agent.send', { text: 'what happened?', attachments: [], paneId });
    const next = await model.waitForRequest(2);
    expect(JSON.stringify(next.body?.messages)).toContain('Not done: it was stopped before it finished (the user stopped the auto run with Stop on its banner); nothing was captured or read.');
  }, 120_000);
});
