import { describe, expect, it } from 'vitest';
import { agentStatusText } from '../../src/renderer/src/ai/agentStatusText';
import { splitMarkdownChunks } from '../../src/renderer/src/ai/markdownChunks';
import { parsePanelInput } from '../../src/renderer/src/ai/panelInput';
import {
  clampPanelWidth,
  DEFAULT_PANEL_WIDTH,
  loadPanelPreferences,
  MIN_PANEL_WIDTH,
  savePanelPreferences,
} from '../../src/renderer/src/ai/panelPreferences';
import { canAllowAll, currentPlan, decisionStep } from '../../src/renderer/src/ai/planDecisions';
import { textForPrompt } from '../../src/renderer/src/ai/promptText';
import { contextFraction, contextLevel, formatCost, formatTokens } from '../../src/renderer/src/ai/usageFormat';
import type { ConversationView, PlanView } from '../../src/shared/agent';
import { conversationView } from './support/conversationView';

describe('AI input: `!` commands', () => {
  it('`! cmd` runs a command, with or without the space', () => {
    expect(parsePanelInput('! ls -la')).toEqual({ kind: 'run', command: 'ls -la' });
    expect(parsePanelInput('!git status')).toEqual({ kind: 'run', command: 'git status' });
    expect(parsePanelInput('  !   make test  \n')).toEqual({ kind: 'run', command: 'make test' });
    expect(parsePanelInput('! for f in *; do\n  echo $f\ndone')).toEqual({ kind: 'run', command: 'for f in *; do\n  echo $f\ndone' });
  });

  it('`!auto <task>` starts an auto run; `!autoexec` is a command; `\\!auto` a message', () => {
    expect(parsePanelInput('!auto fix the failing test')).toEqual({ kind: 'auto', task: 'fix the failing test' });
    expect(parsePanelInput('  !auto   make it build\n')).toEqual({ kind: 'auto', task: 'make it build' });
    expect(parsePanelInput('!auto')).toEqual({ kind: 'auto', task: '' });
    expect(parsePanelInput('!autoexec.bat')).toEqual({ kind: 'run', command: 'autoexec.bat' });
    expect(parsePanelInput('! auto')).toEqual({ kind: 'run', command: 'auto' });
    expect(parsePanelInput('\\!auto is what I typed')).toEqual({ kind: 'message', text: '!auto is what I typed' });
  });

  it('a lone `!` goes to the terminal; blank input does nothing', () => {
    expect(parsePanelInput('!')).toEqual({ kind: 'focus-terminal' });
    expect(parsePanelInput('  !  ')).toEqual({ kind: 'focus-terminal' });
    expect(parsePanelInput('')).toEqual({ kind: 'empty' });
    expect(parsePanelInput(' \n\t')).toEqual({ kind: 'empty' });
  });

  it('`# text`, as at the prompt (and as a transcript spoken at a pane lands), is a message of the text after it', () => {
    expect(parsePanelInput('# list the files here')).toEqual({ kind: 'message', text: 'list the files here' });
    expect(parsePanelInput('  #   why did it fail\nand how to fix it ')).toEqual({ kind: 'message', text: 'why did it fail\nand how to fix it' });
    // Not the prefix: no space after it, or nothing after it.
    expect(parsePanelInput('#42 is the issue')).toEqual({ kind: 'message', text: '#42 is the issue' });
    expect(parsePanelInput('#')).toEqual({ kind: 'message', text: '#' });
  });

  it('anything else is a message; `\\!` sends one that starts with "!"', () => {
    expect(parsePanelInput('why did make fail?')).toEqual({ kind: 'message', text: 'why did make fail?' });
    expect(parsePanelInput('what does `!!` do in bash!')).toEqual({ kind: 'message', text: 'what does `!!` do in bash!' });
    expect(parsePanelInput('\\!important: explain')).toEqual({ kind: 'message', text: '!important: explain' });
    expect(parsePanelInput('  line one\nline two  ')).toEqual({ kind: 'message', text: 'line one\nline two' });
  });
});

describe('insert into terminal', () => {
  it('strips trailing line breaks so nothing runs', () => {
    expect(textForPrompt('ls -la\n')).toBe('ls -la');
    expect(textForPrompt('make \\\n  all\r\n\r\n')).toBe('make \\\n  all');
    expect(textForPrompt('  echo hi  ')).toBe('  echo hi');
  });
});

describe('streaming Markdown pieces', () => {
  it('splits at blank lines, never inside a fenced code block', () => {
    const text = 'Intro paragraph.\n\n```bash\nls\n\nmake\n```\n\nAfter the code.\n\n- a\n- b';
    expect(splitMarkdownChunks(text)).toEqual(['Intro paragraph.', '```bash\nls\n\nmake\n```', 'After the code.', '- a\n- b']);
  });

  it('keeps indented continuations (list items, indented fences) with what they continue', () => {
    const text = '1. Step one\n\n    ```sh\n    ls\n\n    ```\n\n2. Step two';
    expect(splitMarkdownChunks(text)).toEqual(['1. Step one\n\n    ```sh\n    ls\n\n    ```', '2. Step two']);
  });

  it('leaves an unfinished fence open to the end (it is still streaming)', () => {
    expect(splitMarkdownChunks('Try:\n\n~~~\nfoo\n\nbar')).toEqual(['Try:', '~~~\nfoo\n\nbar']);
    expect(splitMarkdownChunks('')).toEqual([]);
  });
});

describe('header formatting', () => {
  it('tokens, cost and the context gauge', () => {
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(1_000)).toBe('1k');
    expect(formatTokens(1_234)).toBe('1.2k');
    expect(formatTokens(48_700)).toBe('49k');
    expect(formatTokens(1_250_000)).toBe('1.3M');
    expect(formatCost(undefined)).toBeUndefined();
    expect(formatCost(0.0123)).toBe('$0.012');
    expect(formatCost(0.0004)).toBe('<$0.001');
    expect(formatCost(2.5)).toBe('$2.50');
    const usage = { inputTokens: 0, outputTokens: 0, contextTokens: 150_000, contextWindow: 200_000 };
    expect(contextFraction(usage)).toBe(0.75);
    expect(contextLevel(0.75)).toBe('high');
    expect(contextFraction({ ...usage, contextWindow: 0 })).toBe(0);
  });

  it('says what the agent does in a few words (the long story is in the conversation)', () => {
    expect(agentStatusText('idle')).toBe('Ready');
    expect(agentStatusText('awaiting-approval')).toBe('Waiting for you');
    expect(agentStatusText('retrying')).toBe('Retrying…');
    for (const status of ['idle', 'thinking', 'streaming', 'awaiting-approval', 'running-step', 'retrying'] as const) {
      expect(agentStatusText(status).length).toBeLessThanOrEqual(16);
    }
  });
});

describe('panel preferences', () => {
  it('round-trip through storage; anything broken gives the defaults', () => {
    const memory = new Map<string, string>();
    const storage = { getItem: (key: string) => memory.get(key) ?? null, setItem: (key: string, value: string) => void memory.set(key, value) };
    expect(loadPanelPreferences(storage)).toEqual({ open: false, width: DEFAULT_PANEL_WIDTH });
    savePanelPreferences(storage, { open: true, width: 520 });
    expect(loadPanelPreferences(storage)).toEqual({ open: true, width: 520 });
    memory.set('tandem.aiPanel', '{not json');
    expect(loadPanelPreferences(storage)).toEqual({ open: false, width: DEFAULT_PANEL_WIDTH });
    memory.set('tandem.aiPanel', '{"open":"yes","width":null}');
    expect(loadPanelPreferences(storage)).toEqual({ open: false, width: DEFAULT_PANEL_WIDTH });
    expect(loadPanelPreferences(undefined)).toEqual({ open: false, width: DEFAULT_PANEL_WIDTH });
  });

  it('the width stays between its minimum and what leaves the terminals room', () => {
    expect(clampPanelWidth(100, 1_600)).toBe(MIN_PANEL_WIDTH);
    expect(clampPanelWidth(450.4, 1_600)).toBe(450);
    expect(clampPanelWidth(1_500, 1_600)).toBe(1_200);
    expect(clampPanelWidth(900, 1_000)).toBe(760);
    expect(clampPanelWidth(900, 300)).toBe(MIN_PANEL_WIDTH);
    expect(clampPanelWidth(Number.NaN, 1_000)).toBe(DEFAULT_PANEL_WIDTH);
  });
});

describe('plan decisions', () => {
  const plan = (id: string, state: PlanView['state'], statuses: PlanView['steps'][number]['status'][]): PlanView => ({
    id,
    mode: 'ask',
    state,
    steps: statuses.map((status, index) => ({ id: `${id}-s${index + 1}`, index: index + 1, command: `cmd ${index + 1}`, purpose: '', status })),
  });
  const conversationWith = (...plans: PlanView[]): ConversationView =>
    conversationView(
      plans.map((entry, index) => ({ id: `i${index}`, role: 'plan', plan: entry, at: index })),
      { id: 'c', status: 'awaiting-approval' },
    );

  it('the keys act on the step the engine says waits, in the newest open plan; on none while a step runs', () => {
    const view = conversationWith(plan('old', 'active', ['proposed']), { ...plan('new', 'active', ['done', 'proposed', 'proposed']), decisionStepId: 'new-s2' }, plan('gone', 'finished', ['done']));
    expect(currentPlan(view)?.id).toBe('new');
    expect(decisionStep(currentPlan(view))?.id).toBe('new-s2');
    // Allow all, step 1 running: step 2 is proposed but takes no decisions.
    expect(decisionStep({ ...plan('r', 'active', ['running', 'proposed']), mode: 'allow-all' })).toBeUndefined();
    expect(decisionStep({ ...plan('h', 'halted', ['failed', 'proposed']), decisionStepId: 'h-s2' })).toBeUndefined();
    // A (Allow all) is a plan-level choice: it works while step 1 runs, as its button does.
    expect(canAllowAll(plan('r', 'active', ['running', 'proposed']))).toBe(true);
    expect(canAllowAll(plan('d', 'active', ['running', 'done']))).toBe(false);
    expect(currentPlan(conversationWith(plan('f', 'finished', ['done'])))).toBeUndefined();
  });
});

describe('model picker: the list of models', () => {
  it('when the engine cannot be asked, says so instead of waiting forever', async () => {
    // No engine connection is set up in this test, so the request fails as a dead one would.
    const { fetchModelList } = await import('../../src/renderer/src/ai/agentRequests');
    const list = await fetchModelList('anthropic');
    expect(list).toMatchObject({ backend: 'anthropic', models: [], source: 'catalog' });
    expect(list.note).toMatch(/could not list models/);
  });
});
