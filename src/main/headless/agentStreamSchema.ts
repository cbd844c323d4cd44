import { z } from 'zod';
import { AGENT_STREAM_VERSION, AgentInputSchema, AgentStreamEventSchema } from './agentStream';

/**
 * The JSON Schema of `tandem agent`'s stream (docs/agent-protocol.schema.json), generated
 * from the zod declarations so the document and the code cannot drift apart; a test checks
 * the committed file against this and validates real runs' lines with it.
 */
export function agentProtocolJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://github.com/tandem-terminal/tandem/docs/agent-protocol.schema.json',
    title: `tandem agent event stream, version ${AGENT_STREAM_VERSION}`,
    description: 'One JSON object per line on stdout (`event`), and the messages accepted on stdin with --input-format json (`input`). See docs/agent-protocol.md.',
    $defs: {
      event: strip(z.toJSONSchema(AgentStreamEventSchema, { target: 'draft-2020-12' })),
      input: strip(z.toJSONSchema(AgentInputSchema, { target: 'draft-2020-12' })),
    },
    anyOf: [{ $ref: '#/$defs/event' }, { $ref: '#/$defs/input' }],
  };
}

function strip(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, ...rest } = schema;
  return rest;
}
