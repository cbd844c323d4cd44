import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConversationItem, PlanStepView } from '../../src/shared/agent';
import { readSentPayload } from '../../src/renderer/src/ai/sentPayloadView';
import { importRendererModule } from './support/rendererModule';

type MessageItemModule = typeof import('../../src/renderer/src/ai/MessageItem');
type SentPayloadModule = typeof import('../../src/renderer/src/ai/SentPayloadButton');

// A screenshot step's card shows the image exactly as sent; "What was sent" shows it too, in
// both wire formats, without its base64 in the text.
let MessageItem: MessageItemModule['MessageItem'];
let ReadableRequest: SentPayloadModule['ReadableRequest'];

beforeAll(async () => {
  vi.stubGlobal('window', { ...globalThis, tandemElectron: undefined });
  vi.stubGlobal('navigator', { platform: 'Linux x86_64' });
  ({ MessageItem } = await importRendererModule<MessageItemModule>('ai/MessageItem.tsx'));
  ({ ReadableRequest } = await importRendererModule<SentPayloadModule>('ai/SentPayloadButton.tsx'));
});

afterAll(() => vi.unstubAllGlobals());

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function render(step: PlanStepView, decisionStepId?: string): string {
  const item: ConversationItem = { id: 'i-plan', role: 'plan', at: 1, plan: { id: 'p1', mode: 'ask', state: decisionStepId ? 'active' : 'finished', steps: [step], decisionStepId } };
  return renderToStaticMarkup(createElement(MessageItem, { item }));
}

describe('a screenshot step', () => {
  it('asks with Allow once and Deny (no Edit), as data-kind="screenshot"', () => {
    const html = render({ id: 's1', index: 1, command: 'screenshot screen', purpose: 'see the dialog', status: 'proposed', kind: 'screenshot' }, 's1');
    expect(html).toContain('data-kind="screenshot"');
    expect(html).toContain('data-action="approve"');
    expect(html).toContain('data-action="deny"');
    expect(html).not.toContain('data-action="edit"');
    // Not typed into a pane: no pane line, and the approve button says what it does.
    expect(html).not.toContain('data-testid="step-where"');
    expect(html).toContain('Let the agent look');
  });

  it('shows a thumbnail of the image sent, with its size, while the image itself is fetched by id', () => {
    const screenshot = { id: 'img-1', width: 1280, height: 720, description: 'Screenshot of screen 0: 1280×720 image' };
    const html = render({ id: 's1', index: 1, command: 'screenshot screen', purpose: '', status: 'done', kind: 'screenshot', screenshot });
    expect(html).toMatch(/data-testid="screenshot"[^>]*data-width="1280"[^>]*data-height="720"/);
    expect(html).toContain('loading the screenshot');
  });
});

describe("a UI action's crop", () => {
  const crop = (target: NonNullable<NonNullable<PlanStepView['ui']>['target']>) =>
    render({ id: 'u1', index: 1, command: 'ui_action click', purpose: '', status: 'proposed', kind: 'ui', ui: { action: 'click', description: 'click', target } }, 'u1');
  const scaleOf = (html: string) => Number(/data-scale="([\d.]+)"/.exec(html)?.[1]);

  it('at the image\'s own size around a point near the edge of the window it reaches, the window outlined', () => {
    const html = crop({ screenshotId: 'img', width: 1280, height: 720, at: { x: 420, y: 230 }, frame: { x: 400, y: 200, width: 400, height: 200 } });
    expect(scaleOf(html)).toBe(1);
    // The window's top left corner sits 20 and 30 px up and left of the centred point (140, 80).
    expect(html).toMatch(/data-testid="ui-target-window" style="left:120px;top:50px;width:400px;height:200px"/);
  });

  it('zoomed out when the point is deep inside a large window (a plain page would show nothing else), until an edge of it is in view', () => {
    const html = crop({ screenshotId: 'img', width: 1280, height: 720, at: { x: 640, y: 400 }, frame: { x: 0, y: 40, width: 1280, height: 680 } });
    const scale = scaleOf(html);
    expect(scale).toBeLessThan(1);
    expect(scale).toBeGreaterThanOrEqual(280 / 1280);
    // An edge of the window's outline lies inside the 280×160 crop.
    const [left, top, width, height] = (/data-testid="ui-target-window" style="left:([-\d.]+)(?:px)?;top:([-\d.]+)(?:px)?;width:([\d.]+)px;height:([\d.]+)px"/.exec(html) ?? []).slice(1).map(Number) as number[];
    const edges = [left!, left! + width!].filter((x) => x >= 0 && x <= 280).length + [top!, top! + height!].filter((y) => y >= 0 && y <= 160).length;
    expect(edges).toBeGreaterThan(0);
  });

  it('without a window (none under the point) it stays at the image\'s own size and outlines nothing', () => {
    const html = crop({ screenshotId: 'img', width: 1280, height: 720, at: { x: 640, y: 400 } });
    expect(scaleOf(html)).toBe(1);
    expect(html).not.toContain('ui-target-window');
  });
});

describe('what was sent, with images', () => {
  it('Anthropic: the image block of a tool result is shown as an image, its text as text', () => {
    const body = {
      model: 'claude',
      messages: [
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'Screenshot of screen 0' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }] }] },
      ],
    };
    const view = readSentPayload(JSON.stringify(body));
    expect(view?.messages[0]?.parts).toEqual([{ kind: 'tool-result', label: 'result of t1', text: 'Screenshot of screen 0', images: [`data:image/png;base64,${png}`] }]);
    const html = renderToStaticMarkup(createElement(ReadableRequest, { request: view! }));
    expect(html).toContain('data-testid="screenshot"');
    expect(html.split(png)).toHaveLength(2);
  });

  it('OpenAI-compatible: an image_url part is shown as an image', () => {
    const body = { model: 'llava', messages: [{ role: 'user', content: [{ type: 'text', text: '[The image of tool call t1:]' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }] }] };
    const view = readSentPayload(JSON.stringify(body));
    expect(view?.messages[0]?.parts[1]).toEqual({ kind: 'text', label: 'image', text: '', images: [`data:image/png;base64,${png}`] });
  });
});
