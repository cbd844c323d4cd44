import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { paneQuery } from '../../src/main/desktop/electron/paneLocation';
import { importRendererModule } from './support/rendererModule';

// The Electron app finds a pane to capture with a selector run in the page
// (src/main/desktop/electron/paneLocation.ts): the element PaneView renders for a pane must
// answer to it, and another pane's must not.

type PaneViewModule = typeof import('../../src/renderer/src/terminal/PaneView');
type PanesStoreModule = typeof import('../../src/renderer/src/terminal/panesStore');

let PaneView: PaneViewModule['PaneView'];
let usePanesStore: PanesStoreModule['usePanesStore'];

beforeAll(async () => {
  vi.stubGlobal('window', { ...globalThis, tandemElectron: undefined });
  vi.stubGlobal('navigator', { platform: 'Linux x86_64', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' });
  ({ usePanesStore } = await importRendererModule<PanesStoreModule>('terminal/panesStore.ts'));
  ({ PaneView } = await importRendererModule<PaneViewModule>('terminal/PaneView.tsx'));
});

afterAll(() => vi.unstubAllGlobals());

/** The attributes of the selector's one compound: [name="value"]… */
function selectorAttributes(paneId: number): [string, string][] {
  const selector = /querySelector\('([^']*)'\)/.exec(paneQuery(paneId))![1]!;
  expect(selector).toMatch(/^(\[[\w-]+="[^"]*"\])+$/);
  return [...selector.matchAll(/\[([\w-]+)="([^"]*)"\]/g)].map((match) => [match[1]!, match[2]!]);
}

describe("a pane's element and the Electron app's query for it", () => {
  it('the outer element of PaneView carries every attribute the query selects on, with the pane id', () => {
    // Rendering on the server reads a zustand store's initial state (its server snapshot).
    usePanesStore.getInitialState().panes[7] = { paneId: 7, shell: '/bin/bash', shellName: 'bash', integration: true, cwd: '/home/user', state: 'PROMPT', notices: [] };
    const html = renderToStaticMarkup(createElement(PaneView, { paneId: 7, visible: true, focused: true, showFocus: false }));
    const outer = /^<div[^>]*>/.exec(html)![0];
    for (const [name, value] of selectorAttributes(7)) expect(outer).toContain(`${name}="${value}"`);
    expect(outer).not.toContain('data-pane-id="8"');
    expect(selectorAttributes(8)).toContainEqual(['data-pane-id', '8']);
  });
});
