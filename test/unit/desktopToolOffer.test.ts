import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/main/agent/backends/modelBackend';
import { Conversation } from '../../src/main/agent/conversation/conversation';
import type { AgentTool } from '../../src/main/agent/tools/agentTool';
import { computerTool } from '../../src/main/agent/tools/computerTool';
import { ToolDispatcher } from '../../src/main/agent/tools/toolDispatcher';
import { AGENT_TOOLS } from '../../src/main/agent/tools/toolRegistry';
import { spawnAgentTool } from '../../src/main/agent/children/spawnAgentTool';
import type { Desktop, DesktopAvailability, ScreenInfo } from '../../src/main/desktop/desktop';
import { createApprovalGate } from '../../src/main/safety/approval/gateSetup';
import { tandemPaths } from '../../src/main/settings/paths';

// Which tools the dispatcher offers for a desktop (none of the screen tools without a display,
// no ui_action without input, no read_screen_text without OCR, the computer tool in place of
// screenshot and ui_action), and how the offered tools describe each other.

/** A desktop that only answers what the offer depends on. */
class OfferDesktop implements Partial<Desktop> {
  availabilityNow: DesktopAvailability = { available: true, implementation: 'stand-in', screenInput: true };
  screenList: ScreenInfo[] | Error = [
    { index: 0, name: 'left', rect: { x: 0, y: 0, width: 1024, height: 768 }, primary: false },
    { index: 1, name: 'right', rect: { x: 1024, y: 0, width: 2560, height: 1440 }, primary: true },
  ];
  async availability(): Promise<DesktopAvailability> {
    return this.availabilityNow;
  }
  async screens(): Promise<ScreenInfo[]> {
    if (this.screenList instanceof Error) throw this.screenList;
    return this.screenList;
  }
}

function lacking(what: Partial<Record<'input' | 'ocr', string>>, screenInput = !what.input): () => OfferDesktop {
  return () => Object.assign(new OfferDesktop(), { availabilityNow: { available: true, implementation: 'stand-in', screenInput, lacking: what } as DesktopAvailability });
}

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tandem-offer-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function dispatcherWith(desktop: OfferDesktop | undefined, tools: readonly AgentTool[] = AGENT_TOOLS): ToolDispatcher {
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), XDG_STATE_HOME: join(home, '.local', 'state') };
  const conversation = new Conversation({
    surroundings: () => ({ status: 'idle', backend: 'anthropic', model: 'm', budget: { used: 0, limit: 0 }, grants: [], policyProblems: [] }),
    emit: () => undefined,
  });
  return new ToolDispatcher(tools, {
    pane: () => undefined,
    paneId: () => undefined,
    cwd: () => home,
    homeDir: home,
    conversation,
    gate: createApprovalGate(tandemPaths(env), env, { systemPolicyFile: join(root, 'none', 'policy.toml') }),
    audit: { append: async () => undefined },
    stepTimeoutMs: () => 60_000,
    desktop: desktop as Desktop | undefined,
  });
}

const names = (offer: { tools: { name: string }[] }) => offer.tools.map((tool) => tool.name);
const described = (offer: { tools: ToolDefinition[] }, name: string) => offer.tools.find((tool) => tool.name === name)?.description ?? '';
const SCREEN_TOOLS = ['screenshot', 'read_screen_text', 'list_windows', 'ui_action'];
// spawn_agent is offered only where child agents can start (the dispatcher here has no such host).
const generic = AGENT_TOOLS.filter((tool) => tool !== computerTool && tool !== spawnAgentTool).map((tool) => tool.definition.name);
const withoutScreen = generic.filter((name) => !SCREEN_TOOLS.includes(name));
const anthropic = { backend: 'anthropic' as const, model: 'claude-sonnet-4-5', computerUse: 'auto' as const };
const generalOnly = { ...anthropic, computerUse: 'off' as const };

/** No offered tool's description (or input schema) names a screen tool that is not offered. */
function namesOnlyOffered(offer: { tools: ToolDefinition[] }): void {
  const absent = ['read_screen_text', 'ui_action', 'list_windows'].filter((name) => !names(offer).includes(name));
  for (const tool of offer.tools) {
    const text = `${tool.description} ${JSON.stringify(tool.input_schema)}`;
    for (const name of absent) expect(text, `${tool.name} names ${name}`).not.toContain(name);
  }
}

describe('the tools offered (ToolDispatcher.definitions)', () => {
  it("Anthropic, a model that can, the setting on and a screen: the computer tool (the primary screen's scaled size) instead of screenshot and ui_action", async () => {
    const offer = await dispatcherWith(new OfferDesktop()).definitions(anthropic);
    expect(offer.computerTool).toEqual({ type: 'computer_20250124', name: 'computer', display_width_px: 1280, display_height_px: 720 });
    expect(names(offer)).toEqual(generic.filter((name) => name !== 'screenshot' && name !== 'ui_action'));
    expect(names(offer)).toEqual(expect.arrayContaining(['list_windows', 'read_screen_text']));
    expect(names(offer)).not.toContain('computer');
  });

  it("with the computer tool, read_screen_text gives boxes in its display and list_windows's ids are for read_screen_text: neither names screenshot or ui_action", async () => {
    const offer = await dispatcherWith(new OfferDesktop()).definitions(anthropic);
    const read = described(offer, 'read_screen_text');
    expect(read).toContain("in pixels of the computer tool's display (1280×720");
    expect(read).not.toMatch(/as screenshot|UI actions|ui_action/);
    const list = described(offer, 'list_windows');
    expect(list).toContain('Use an id as the "window_id" of read_screen_text.');
    expect(list).not.toMatch(/screenshot|ui_action/);
    namesOnlyOffered(offer);
  });

  it('without the computer tool, read_screen_text points at screenshot and UI actions, list_windows at all three', async () => {
    const offer = await dispatcherWith(new OfferDesktop()).definitions(generalOnly);
    expect(described(offer, 'read_screen_text')).toContain('the same targets as screenshot');
    expect(described(offer, 'read_screen_text')).toContain('the space UI actions use');
    expect(described(offer, 'list_windows')).toContain('Use an id as the "window_id" of screenshot, read_screen_text, ui_action.');
  });

  it('a screen smaller than 1280 px is the display as it is', async () => {
    const desktop = new OfferDesktop();
    desktop.screenList = [{ index: 0, name: 'only', rect: { x: 0, y: 0, width: 1024, height: 768 }, primary: false }];
    expect((await dispatcherWith(desktop).definitions(anthropic)).computerTool).toMatchObject({ display_width_px: 1024, display_height_px: 768 });
  });

  it.each([
    ['computer_use = "off"', generalOnly, () => new OfferDesktop()],
    ['an OpenAI-compatible endpoint', { ...anthropic, backend: 'openai-compatible' as const }, () => new OfferDesktop()],
    ['a model without computer use', { ...anthropic, model: 'claude-3-5-haiku-latest' }, () => new OfferDesktop()],
    [
      "a desktop whose input reaches only Tandem's window (Electron without X11)",
      anthropic,
      () => Object.assign(new OfferDesktop(), { availabilityNow: { available: true, implementation: 'Electron', screenInput: false } as DesktopAvailability }),
    ],
    ['no screen', anthropic, () => Object.assign(new OfferDesktop(), { screenList: [] })],
    ['screens that cannot be read', anthropic, () => Object.assign(new OfferDesktop(), { screenList: new Error('xrandr failed') })],
  ])('the generic tools with %s', async (_why, connection, desktop) => {
    const offer = await dispatcherWith(desktop()).definitions(connection);
    expect(offer.computerTool).toBeUndefined();
    expect(names(offer)).toEqual(generic);
  });

  it.each([
    ['no desktop capability', () => undefined],
    ['a desktop that is not available here (no display)', () => Object.assign(new OfferDesktop(), { availabilityNow: { available: false, reason: 'no graphical display' } as DesktopAvailability })],
  ])('none of the screen tools with %s', async (_why, desktop) => {
    for (const connection of [anthropic, generalOnly]) {
      const offer = await dispatcherWith(desktop()).definitions(connection);
      expect(offer.computerTool).toBeUndefined();
      expect(names(offer)).toEqual(withoutScreen);
      namesOnlyOffered(offer);
    }
  });

  it('a display without input (no xdotool): no ui_action and no computer tool; screenshot does not promise UI actions', async () => {
    for (const connection of [anthropic, generalOnly]) {
      const offer = await dispatcherWith(lacking({ input: 'clicks, keys and window actions need xdotool' })()).definitions(connection);
      expect(offer.computerTool).toBeUndefined();
      expect(names(offer)).toEqual(generic.filter((name) => name !== 'ui_action'));
      expect(described(offer, 'screenshot')).not.toContain('UI actions');
      expect(described(offer, 'read_screen_text')).not.toContain('UI actions');
      namesOnlyOffered(offer);
    }
  });

  it('a display without OCR (no tesseract): no read_screen_text, and nothing points at it', async () => {
    const generalOffer = await dispatcherWith(lacking({ ocr: 'reading text on screen needs Tesseract' })()).definitions(generalOnly);
    expect(names(generalOffer)).toEqual(generic.filter((name) => name !== 'read_screen_text'));
    namesOnlyOffered(generalOffer);
    const computerOffer = await dispatcherWith(lacking({ ocr: 'reading text on screen needs Tesseract' })()).definitions(anthropic);
    expect(computerOffer.computerTool).toBeDefined();
    expect(names(computerOffer)).toEqual(withoutScreen.concat('list_windows').sort((a, b) => generic.indexOf(a) - generic.indexOf(b)));
    expect(described(computerOffer, 'list_windows')).not.toContain('Use an id');
    namesOnlyOffered(computerOffer);
  });

  it('never the computer tool when the registry has none', async () => {
    const tools = AGENT_TOOLS.filter((tool) => tool !== computerTool);
    const offer = await dispatcherWith(new OfferDesktop(), tools).definitions(anthropic);
    expect(offer.computerTool).toBeUndefined();
    expect(names(offer)).toEqual(generic);
  });
});
