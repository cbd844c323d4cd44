import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { AgentInputSchema, type AgentInput } from './agentStream';
import type { AgentOptions } from './agentOptions';
import type { TerminalPrompter } from './approvals/terminalPrompter';
import { commandInstruction, instructionsFrom } from './instructionLines';
import { pipedDataForModel, readPipedData, type PipedData } from './pipedData';

export interface Instruction {
  text: string;
  /** Data piped into stdin, for the model (only with -c or a file, where stdin is not instructions). */
  data?: PipedData;
}

/** Messages on stdin other than instructions (`--input-format json`). */
export interface InputHandlers {
  approval(answer: Extract<AgentInput, { type: 'approval' }>): void;
  interrupt(): void;
  problem(message: string): void;
  /** stdin closed: no answer will come any more. */
  closed(): void;
}

/**
 * Where a run's instructions come from: `-c` (with what was piped in as data), a file of
 * instructions, NDJSON messages on stdin (`--input-format json`), the person at the terminal,
 * or lines piped into stdin.
 */
export async function* instructionSource(
  options: AgentOptions,
  io: { stdin: NodeJS.ReadStream },
  prompter: TerminalPrompter | undefined,
  handlers: InputHandlers,
): AsyncGenerator<Instruction> {
  if (options.inputFormat === 'json') {
    yield* jsonInstructions(io.stdin, handlers, options.command === undefined ? undefined : commandInstruction(options.command));
    return;
  }
  if (options.command !== undefined || options.file !== undefined) {
    const piped = io.stdin.isTTY ? undefined : await readPipedData(io.stdin);
    const data = piped && pipedDataForModel(piped);
    if (options.command !== undefined) {
      yield { text: commandInstruction(options.command), ...(data ? { data } : {}) };
      return;
    }
    let first = true;
    for await (const text of instructionsFrom(createReadStream(options.file!))) {
      // The data goes with the first instruction; the conversation keeps it for the rest.
      yield { text, ...(first && data ? { data } : {}) };
      first = false;
    }
    return;
  }
  if (io.stdin.isTTY && prompter) {
    for (;;) {
      const line = await prompter.line('# ');
      if (line === undefined) return;
      const text = commandInstruction(line);
      if (text) yield { text };
    }
  }
  for await (const text of instructionsFrom(io.stdin)) yield { text };
}

/**
 * NDJSON messages: instructions are yielded, approvals and interrupts handled as they come; a bad line is reported and skipped.
 * `first` (-c) is yielded only once stdin is being read, so the approvals its steps wait for can arrive while it runs.
 */
async function* jsonInstructions(stdin: NodeJS.ReadableStream, handlers: InputHandlers, first?: string): AsyncGenerator<Instruction> {
  const queue: string[] = first === undefined ? [] : [first];
  let closed = false;
  let wake: (() => void) | undefined;
  const reader = createInterface({ input: stdin, crlfDelay: Infinity, terminal: false });
  reader.on('line', (line) => {
    if (!line.trim()) return;
    let message: AgentInput;
    try {
      const parsed = AgentInputSchema.safeParse(JSON.parse(line));
      if (!parsed.success) {
        handlers.problem(`Not a message tandem agent takes (see docs/agent-protocol.md): ${line.slice(0, 200)} — ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'type'}: ${issue.message}`).join('; ')}`);
        return;
      }
      message = parsed.data;
    } catch {
      handlers.problem(`Not a line of JSON: ${line.slice(0, 200)}`);
      return;
    }
    if (message.type === 'instruction') queue.push(commandInstruction(message.text) || message.text);
    else if (message.type === 'approval') handlers.approval(message);
    else handlers.interrupt();
    wake?.();
  });
  reader.on('close', () => {
    closed = true;
    handlers.closed();
    wake?.();
  });
  for (;;) {
    const next = queue.shift();
    if (next !== undefined) {
      yield { text: next };
      continue;
    }
    if (closed) return;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
}
