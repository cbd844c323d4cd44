/**
 * What the Anthropic Messages API checks of a request's `messages` before answering: it
 * starts with the user, roles alternate, every `tool_use` is answered by a `tool_result` at the
 * start of the very next (user) message, and every `tool_result` answers a `tool_use` of the
 * message just before it. Returns the API-style problem, or undefined when the sequence is valid.
 */
export function messageSequenceProblem(messages: unknown): string | undefined {
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: at least one message is required';
  let previous: { role: string; toolUses: string[] } | undefined;
  const seen = new Set<string>();
  for (const [index, message] of (messages as { role?: unknown; content?: unknown }[]).entries()) {
    const role = message.role;
    if (role !== 'user' && role !== 'assistant') return `messages.${index}.role: must be "user" or "assistant"`;
    if (index === 0 && role !== 'user') return 'messages.0.role: the first message must use the "user" role';
    if (previous?.role === role) return `messages.${index}: roles must alternate between "user" and "assistant"`;
    const parts = typeof message.content === 'string' ? [{ type: 'text' }] : Array.isArray(message.content) ? (message.content as { type?: string; id?: string; tool_use_id?: string }[]) : undefined;
    if (!parts || parts.length === 0) return `messages.${index}.content: must not be empty`;
    const results = parts.filter((part) => part.type === 'tool_result').map((part) => part.tool_use_id ?? '');
    const resultsFirst = parts.slice(0, results.length).every((part) => part.type === 'tool_result');
    if (results.length > 0 && (role !== 'user' || !resultsFirst)) return `messages.${index}: tool_result blocks must come first in a user message`;
    const expected = previous?.toolUses ?? [];
    const missing = expected.filter((id) => !results.includes(id));
    if (missing.length > 0) return `messages.${index}: tool_use ids were found without tool_result blocks immediately after: ${missing.join(', ')}`;
    const unknown = results.filter((id) => !expected.includes(id));
    if (unknown.length > 0) return `messages.${index}: unexpected tool_use_id found in tool_result blocks: ${unknown.join(', ')}`;
    const toolUses = parts.filter((part) => part.type === 'tool_use').map((part) => part.id ?? '');
    for (const id of toolUses) {
      if (seen.has(id)) return `messages.${index}: tool_use ids must be unique (${id})`;
      seen.add(id);
    }
    previous = { role, toolUses };
  }
  const unanswered = previous?.toolUses ?? [];
  if (unanswered.length > 0) return `messages: the last message has tool_use blocks without results: ${unanswered.join(', ')}`;
  return undefined;
}
