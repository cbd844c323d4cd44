import { z } from 'zod';
import { lookCommand } from '../vision/visionRequest';
import type { ToolDefinition } from '../backends/modelBackend';
import type { DesktopOffer } from '../vision/desktopOffer';
import type { LookTool } from './agentTool';

const ListWindowsInputSchema = z.object({ purpose: z.string().max(2_000).default('') });

function listWindowsDefinition(desktop: DesktopOffer): ToolDefinition {
  const users = [
    desktop.computerDisplay ? undefined : 'screenshot',
    desktop.ocr ? 'read_screen_text' : undefined,
    desktop.input && !desktop.computerDisplay ? 'ui_action' : undefined,
  ].filter((name) => name !== undefined);
  const use = users.length > 0 ? `Use an id as the "window_id" of ${users.join(', ')}. ` : '';
  return {
    name: 'list_windows',
    description:
      "List the desktop's windows, after the user approves it (once per conversation unless their policy allows it): " +
      'id, title, application (WM_CLASS), pid, geometry in screen pixels, focused or minimized, and screen index. ' +
      `${use}Windows on the privacy list are not listed, only counted, and cannot be captured.`,
    input_schema: {
      type: 'object',
      properties: { purpose: { type: 'string', description: 'One short sentence: why you need the list.' } },
    },
  };
}

/**
 * `list_windows`: the desktop's windows (id, title, application, pid, geometry, focus, screen).
 * Titles tell what the user is doing, so it is a read step like a screenshot, with its own
 * once-per-conversation approval; windows on the privacy list are only counted.
 */
export const listWindowsTool: LookTool = {
  definition: listWindowsDefinition({ looks: true, ocr: true, input: true }),
  offeredWith: (desktop) => desktop.looks,
  definitionWith: listWindowsDefinition,
  approval: 'gate',
  steps: 'look',

  propose(input) {
    const parsed = ListWindowsInputSchema.safeParse(input ?? {});
    if (!parsed.success) return { ok: false, refusal: 'Not listed: the tool input was invalid ("purpose" must be a string).' };
    const vision = { look: 'windows' as const };
    return { ok: true, step: { command: lookCommand(vision), purpose: parsed.data.purpose, vision } };
  },
};
