import { z } from 'zod';
import { LISTEN_MAX_SECONDS } from '../hearing/listenRequest';
import { lookCommand } from '../vision/visionRequest';
import type { LookTool } from './agentTool';
import { issueText } from './editFileTool';

export const ListenInputSchema = z
  .object({
    source: z.enum(['microphone', 'system']),
    seconds: z.number().int().min(1).max(LISTEN_MAX_SECONDS),
    purpose: z.string().max(2_000).default(''),
  })
  .strict();

/**
 * `listen`: records the microphone or what the speakers play for up to 60 s, has it
 * transcribed at `[voice] endpoint`, and returns the transcript (scrubbed). A look step:
 * `[approval.audio]` decides, and by default every recording asks.
 */
export const listenTool: LookTool = {
  definition: {
    name: 'listen',
    description:
      'Hear for a few seconds, after the user approves it (every time, unless their policy allows it): record "microphone" or "system" (what the speakers play: a video, a call, an alert sound), ' +
      'for "seconds" (1 to 60), and get back the transcript of what was said. Only speech is transcribed; music and sounds are not described. ' +
      'Refused where audio cannot be recorded (no PulseAudio/PipeWire) or no transcription endpoint is set. The user can stop it early with Esc.',
    input_schema: {
      type: 'object',
      properties: {
        source: { type: 'string', enum: ['microphone', 'system'] },
        seconds: { type: 'integer', minimum: 1, maximum: LISTEN_MAX_SECONDS, description: 'How long to record.' },
        purpose: { type: 'string', description: 'One short sentence: what you want to hear and why.' },
      },
      required: ['source', 'seconds'],
    },
  },
  approval: 'gate',
  steps: 'look',

  propose(input) {
    const parsed = ListenInputSchema.safeParse(input);
    if (!parsed.success) return { ok: false, refusal: `Not recorded: the tool input was invalid (${issueText(parsed.error)}).` };
    const vision = { look: 'listen' as const, listen: { source: parsed.data.source, seconds: parsed.data.seconds } };
    return { ok: true, step: { command: lookCommand(vision), purpose: parsed.data.purpose, vision } };
  },
};
