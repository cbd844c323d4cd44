import type { PlanEntry, SessionUpdate, ToolCallContent, ToolCallUpdate, ToolKind } from '@agentclientprotocol/sdk';
import type { PlanStepView } from '../../../shared/agent';
import type { AgentStreamEvent, StreamEventOf } from '../agentStream';
import { appliedDiff, proposedDiff, readText } from './editDiff';

/** The end of a step's output an editor is shown at most; earlier output is counted, not kept. */
const MAX_OUTPUT_CHARS = 64 * 1024;

interface ToolCallState {
  kind: ToolKind;
  /** The file an edit step changes, as it was when the step was proposed. */
  before?: string;
  output: string;
  droppedChars: number;
}

/**
 * The `tandem agent` event stream of one session, as ACP `session/update`s: streaming text
 * as `agent_message_chunk`s, each plan's steps as `plan` entries whose status follows the
 * steps, and each step as a `tool_call` (kind `execute` for a command, `edit` with `diff`
 * content for a file edit) with `tool_call_update`s as it is decided, runs, prints and ends.
 * `stepOf` finds a step in the conversation's view (for an edit's diff).
 */
export class SessionUpdates {
  private readonly calls = new Map<string, ToolCallState>();
  private readonly streamed = new Set<string>();
  private entries: (PlanEntry & { stepId: string })[] = [];

  constructor(
    private readonly send: (update: SessionUpdate) => void,
    private readonly stepOf: (stepId: string) => PlanStepView | undefined,
  ) {}

  /** A new prompt turn: its plan starts empty. */
  startTurn(): void {
    this.entries = [];
  }

  event(event: AgentStreamEvent): void {
    switch (event.type) {
      case 'delta':
        this.streamed.add(event.message_id);
        this.send({ sessionUpdate: 'agent_message_chunk', messageId: event.message_id, content: { type: 'text', text: event.text } });
        return;
      case 'message':
        // Streamed already; an answer that came whole (or was cut before any text) is sent here.
        if (!this.streamed.has(event.message_id) && event.text) this.send({ sessionUpdate: 'agent_message_chunk', messageId: event.message_id, content: { type: 'text', text: event.text } });
        return;
      case 'plan':
        for (const step of event.steps) this.entries.push({ stepId: step.step_id, content: step.purpose || step.command, priority: 'medium', status: 'pending' });
        this.sendPlan();
        return;
      case 'step':
        this.step(event);
        return;
      case 'output':
        this.output(event);
        return;
      case 'error':
        this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\n**Error:** ${event.message}\n` } });
        return;
      case 'fallback':
        this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\n**Tandem:** ${event.reason} Answering with ${event.to.model} (${event.to.backend}) instead.\n` } });
        return;
      case 'notice':
        if (event.level === 'error') this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\n**Tandem:** ${event.message}\n` } });
        return;
      default:
        return;
    }
  }

  /** The tool call a permission request is about: the step as it waits for the decision. */
  toolCall(step: PlanStepView): ToolCallUpdate {
    const state = this.announce(step);
    return { toolCallId: step.id, title: step.command, kind: state.kind, status: 'pending', content: this.proposedContent(step, state), rawInput: rawInput(step) };
  }

  private step(event: StreamEventOf<'step'>): void {
    const step = this.stepOf(event.step_id);
    if (!step) return;
    switch (event.phase) {
      case 'proposed':
        if (this.calls.has(step.id)) this.send({ sessionUpdate: 'tool_call_update', toolCallId: step.id, title: step.command, content: this.proposedContent(step, this.calls.get(step.id)!), rawInput: rawInput(step) });
        else this.announce(step);
        return;
      case 'started': {
        const state = this.announce(step);
        // The proposal's text gives way to the output (which may have come first, when the view was held back).
        const content = step.kind === 'edit' ? {} : { content: state.output ? [textContent(this.shownOutput(state))] : [] };
        this.send({ sessionUpdate: 'tool_call_update', toolCallId: step.id, status: 'in_progress', title: event.command, ...content });
        this.planStatus(step.id, 'in_progress');
        return;
      }
      case 'finished':
        this.finished(step, event);
        return;
      default:
        return;
    }
  }

  /** The `tool_call` of a step, sent once. */
  private announce(step: PlanStepView): ToolCallState {
    const known = this.calls.get(step.id);
    if (known) return known;
    const state: ToolCallState = { kind: toolKind(step), output: '', droppedChars: 0, ...(step.edit && !step.edit.creates ? { before: readText(step.edit.path) } : {}) };
    this.calls.set(step.id, state);
    this.send({
      sessionUpdate: 'tool_call',
      toolCallId: step.id,
      title: step.command,
      kind: state.kind,
      status: 'pending',
      content: this.proposedContent(step, state),
      ...(step.edit ? { locations: [{ path: step.edit.path }] } : {}),
      rawInput: rawInput(step),
    });
    return state;
  }

  private proposedContent(step: PlanStepView, state: ToolCallState): ToolCallContent[] {
    if (step.edit) return proposedDiff(step.edit, state.before);
    const risk = step.risk ? `${step.risk.level.toUpperCase()}${step.risk.reasons.length ? `: ${step.risk.reasons.join('; ')}` : ''}` : '';
    const lines = [step.purpose, risk, step.approval?.rule ? `(${step.approval.rule})` : ''].filter(Boolean);
    return lines.length ? [textContent(lines.join('\n'))] : [];
  }

  private output(event: StreamEventOf<'output'>): void {
    const state = this.calls.get(event.step_id);
    if (!state) return;
    state.output += event.text;
    if (state.output.length > MAX_OUTPUT_CHARS) {
      const cut = state.output.length - MAX_OUTPUT_CHARS;
      state.droppedChars += cut;
      state.output = state.output.slice(cut);
    }
    this.send({ sessionUpdate: 'tool_call_update', toolCallId: event.step_id, content: [textContent(this.shownOutput(state))] });
  }

  private finished(step: PlanStepView, event: StreamEventOf<'step'> & { phase: 'finished' }): void {
    const state = this.announce(step);
    const ran = event.status === 'done' || event.status === 'failed';
    const content: ToolCallContent[] = [];
    if (step.edit) content.push(...(event.status === 'done' ? appliedDiff(step.edit, state.before) : proposedDiff(step.edit, state.before)));
    else if (ran) content.push(textContent(this.shownOutput(state) + (event.exit_code !== undefined && event.exit_code !== 0 ? `\n[exit ${event.exit_code}]` : '')));
    if (event.detail && event.status !== 'done') content.push(textContent(`${ran ? 'Failed' : event.status === 'denied' ? 'Not run' : 'Skipped'}: ${event.detail}`));
    this.send({
      sessionUpdate: 'tool_call_update',
      toolCallId: step.id,
      status: event.status === 'done' ? 'completed' : 'failed',
      content,
      rawOutput: { status: event.status, ...(event.exit_code !== undefined ? { exit_code: event.exit_code } : {}), ...(event.duration_ms !== undefined ? { duration_ms: event.duration_ms } : {}), ...(event.cwd ? { cwd: event.cwd } : {}) },
    });
    this.planStatus(step.id, 'completed');
  }

  private shownOutput(state: ToolCallState): string {
    return state.droppedChars ? `… ${state.droppedChars.toLocaleString('en-US')} characters of earlier output not shown\n${state.output}` : state.output;
  }

  private planStatus(stepId: string, status: PlanEntry['status']): void {
    const entry = this.entries.find((candidate) => candidate.stepId === stepId);
    if (!entry || entry.status === status || entry.status === 'completed') return;
    entry.status = status;
    this.sendPlan();
  }

  private sendPlan(): void {
    this.send({ sessionUpdate: 'plan', entries: this.entries.map(({ content, priority, status }) => ({ content, priority, status })) });
  }
}

function toolKind(step: PlanStepView): ToolKind {
  if (step.kind === 'edit') return 'edit';
  if (step.kind === undefined || step.kind === 'command') return 'execute';
  return 'other';
}

function rawInput(step: PlanStepView): Record<string, unknown> {
  return {
    kind: step.kind ?? 'command',
    command: step.command,
    purpose: step.purpose,
    ...(step.edit ? { path: step.edit.path } : {}),
    ...(step.cwd ? { cwd: step.cwd } : {}),
    ...(step.risk ? { level: step.risk.level, reasons: step.risk.reasons } : {}),
    ...(step.approval ? { rule: step.approval.rule } : {}),
  };
}

function textContent(text: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text } };
}
