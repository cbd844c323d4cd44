import { z } from 'zod';
import { lookCommand } from '../vision/visionRequest';
import type { LookTool } from './agentTool';

const ListWindowsInputSchema = z.object({ purpose: z.string().max(2_000).default('') });

/**
 * `list_windows`: the desktop's windows (id, title, application, pid, geometry, focus, screen).
 * Titles tell what the user is doing, so it is a read step like a screenshot, with its own
 * once-per-conversation approval; windows on the privacy list appear by id only.
 */
export const listWindowsTool: LookTool = {
  definition: {
    name: 'list_windows',
    description:
      "List the desktop's windows, after the user approves it (once per conversation unless their policy allows it): " +
      'id, title, application (WM_CLASS), pid, geometry in screen pixels, focused or minimized, and screen index. ' +
      'Use an id as screenshot\'s "window_id". Windows on the privacy list are shown by id only and cannot be captured.',
    input_schema: {
      type: 'object',
      properties: { purpose: { type: 'string', description: 'One short sentence: why you need the list.' } },
    },
  },
  approval: 'gate',
  steps: 'look',

  propose(input) {
    const parsed = ListWindowsInputSchema.safeParse(input ?? {});
    if (!parsed.success) return { ok: false, refusal: 'Not listed: the tool input was invalid ("purpose" must be a string).' };
    const vision = { look: 'windows' as const };
    return { ok: true, step: { command: lookCommand(vision), purpose: parsed.data.purpose, vision } };
  },
};
