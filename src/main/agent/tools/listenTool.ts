import { z } from 'zod';
import { LISTEN_MAX_SECONDS, type ListenRequest } from '../hearing/listenRequest';
import { lookCommand } from '../vision/visionRequest';
import type { LookTool } from './agentTool';
import { issueText } from './editFileTool';

const seconds = z.number().int().min(1).max(LISTEN_MAX_SECONDS);
const purpose = z.string().max(2_000).default('');
/** An application as pactl names it (`application.name` or `application.process.binary`): one line of text. */
const application = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^\P{Cc}+$/u, 'one line of text');

export const ListenInputSchema = z.discriminatedUnion('source', [
  z.strictObject({ source: z.enum(['microphone', 'system']), seconds, purpose }),
  z.strictObject({ source: z.literal('application'), application, seconds, purpose }),
]);

function listenRequest(input: z.infer<typeof ListenInputSchema>): ListenRequest {
  return input.source === 'application' ? { source: 'application', application: input.application, seconds: input.seconds } : { source: input.source, seconds: input.seconds };
}

/**
 * `listen`: records the microphone, what the speakers play or one application's stream for up to 60 s, has it
 * transcribed at `[voice] endpoint`, and returns the transcript (scrubbed). A look step:
 * `[approval.audio]` decides, and by default every recording asks.
 */
export const listenTool: LookTool = {
  definition: {
    name: 'listen',
    description:
      'Hear for a few seconds, after the user approves it (every time, unless their policy allows it): record "microphone", "system" (what the speakers play: a video, a call, an alert sound) ' +
      'or "application" (only what one application plays, named in "application" as the sound server knows it, e.g. "firefox"; refused with the names of the applications playing when it is not playing), ' +
      'for "seconds" (1 to 60), and get back the transcript of what was said. Only speech is transcribed; music and sounds are not described. ' +
      'Refused where audio cannot be recorded (no PulseAudio/PipeWire) or no transcription endpoint is set. The user can stop it early with Esc.',
    input_schema: {
      type: 'object',
      properties: {
        source: { type: 'string', enum: ['microphone', 'system', 'application'] },
        application: { type: 'string', description: 'With source "application": the application whose stream to record (its name or program, e.g. "firefox"; case does not matter).' },
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
    const vision = { look: 'listen' as const, listen: listenRequest(parsed.data) };
    return { ok: true, step: { command: lookCommand(vision), purpose: parsed.data.purpose, vision } };
  },
};
