import type { ConversationItem } from '../../../shared/agent';
import { describeRedactions, scrubSecrets } from '../../safety/secretScrubber';
import type { AgentContent } from '../backends/modelBackend';
import type { Attachment } from './attachments';

/**
 * A user's message as the panel shows it (the text as typed, what was redacted) and as the
 * model gets it: before it, data piped in and the note an auto run left; then the attached
 * blocks; then the text, scrubbed, with a hint the panel does not show.
 */
export function userMessage(
  message: { id: string; text: string; source: 'panel' | 'prompt' | 'auto'; attachments: Attachment[]; data?: string; autoEnd?: string; modelHint?: string },
): { item: Extract<ConversationItem, { role: 'user' }>; content: AgentContent[] } {
  const { text, attachments } = message;
  const scrubbed = scrubSecrets(text);
  const item = {
    id: message.id,
    role: 'user' as const,
    text,
    source: message.source,
    attachments: attachments.map((attachment) => attachment.view),
    redacted: describeRedactions(scrubbed.redactions) || undefined,
    at: Date.now(),
  };
  const content: AgentContent[] = [
    ...(message.autoEnd ? [{ type: 'text' as const, text: message.autoEnd }] : []),
    ...(message.data ? [{ type: 'text' as const, text: message.data }] : []),
    ...attachments.map((attachment) => ({ type: 'text' as const, text: attachment.content })),
    ...(text ? [{ type: 'text' as const, text: message.modelHint ? `${scrubbed.text}\n${message.modelHint}` : scrubbed.text }] : []),
  ];
  return { item, content };
}
