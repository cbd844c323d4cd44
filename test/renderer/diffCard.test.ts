import { describe, expect, it } from 'vitest';
import type { ConversationItem, EditStepView, PlanStepView } from '../../src/shared/agent';
import { messageItemMarkup } from './support/messageItemMarkup';

// An edit step's card rendered from a fake view: the diff with its line numbers and colours,
// the test ids the e2e tests rely on, and Undo once the edit is done.
const markup = messageItemMarkup();

const edit: EditStepView = {
  tool: 'edit_file',
  path: '/home/me/proj/app.js',
  creates: false,
  diff: {
    added: 1,
    removed: 1,
    hunks: [
      {
        oldStart: 3,
        newStart: 3,
        lines: [
          { kind: 'same', text: 'function f() {', oldLine: 3, newLine: 3 },
          { kind: 'remove', text: '  return 41;', oldLine: 4 },
          { kind: 'add', text: '  return 42;', newLine: 4 },
          { kind: 'same', text: '}', oldLine: 5, newLine: 5 },
        ],
      },
    ],
  },
};

function render(step: PlanStepView, decisionStepId?: string): string {
  const item: ConversationItem = { id: 'i-plan', role: 'plan', at: 1, plan: { id: 'p1', mode: 'ask', state: decisionStepId ? 'active' : 'finished', steps: [step], decisionStepId } };
  return markup(item);
}

describe('the diff card of an edit step', () => {
  it('marks the step as an edit of its path and shows the diff with both line numbers', () => {
    const html = render({ id: 's1', index: 1, command: 'edit_file app.js', purpose: 'fix', status: 'proposed', kind: 'edit', edit }, 's1');
    expect(html).toMatch(/data-testid="plan-step"[^>]*data-kind="edit" data-path="\/home\/me\/proj\/app.js"/);
    expect(html).toMatch(/data-testid="diff" data-added="1" data-removed="1"/);
    expect(html).toContain('@@ −3,3 +3,3 @@');
    expect(html).toMatch(/diff__line--remove" data-kind="remove"><td class="diff__number">4<\/td><td class="diff__number"><\/td><td class="diff__sign">-<\/td><td class="diff__text"> {2}return 41;<\/td>/);
    expect(html).toMatch(/diff__line--add" data-kind="add"><td class="diff__number"><\/td><td class="diff__number">4<\/td><td class="diff__sign">\+<\/td>/);
    // An edit is approved or denied, not edited in place; nothing to undo yet.
    const actions = [...html.matchAll(/data-action="([^"]*)"/g)].map((match) => match[1]);
    expect(actions).toEqual(['approve', 'allow-session', 'deny', 'skip', 'deny-with-reason', 'allow-all', 'step-through', 'deny-plan', 'add-note']);
  });

  it('a command step is data-kind="command" and has no diff', () => {
    const html = render({ id: 's1', index: 1, command: 'ls', purpose: '', status: 'done', exitCode: 0 });
    expect(html).toContain('data-kind="command"');
    expect(html).not.toContain('data-testid="diff"');
    expect(html).not.toContain('data-action="undo"');
  });

  it('a finished edit offers Undo; after it, says how it went', () => {
    const done = render({ id: 's1', index: 1, command: 'edit_file app.js', purpose: '', status: 'done', kind: 'edit', edit });
    expect(done).toContain('data-action="undo"');
    const refused = render({ id: 's1', index: 1, command: 'edit_file app.js', purpose: '', status: 'done', kind: 'edit', edit: { ...edit, undo: { restored: false, message: 'Not undone: it has changed since the edit.' } } });
    expect(refused).toContain('data-action="undo"');
    expect(refused).toMatch(/data-testid="undo-result" data-restored="false">Not undone: it has changed since the edit\./);
    const restored = render({ id: 's1', index: 1, command: 'edit_file app.js', purpose: '', status: 'done', kind: 'edit', edit: { ...edit, undo: { restored: true, message: 'Undone.' } } });
    expect(restored).not.toContain('data-action="undo"');
    expect(restored).toContain('data-restored="true"');
  });

  it('a new file says so', () => {
    const html = render({ id: 's1', index: 1, command: 'write_file n.md', purpose: '', status: 'proposed', kind: 'edit', edit: { ...edit, tool: 'write_file', creates: true } }, 's1');
    expect(html).toContain('new file');
  });
});
