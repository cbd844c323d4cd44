import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';

const schema = JSON.parse(readFileSync(join(__dirname, '../../docs/agent-protocol.schema.json'), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ allErrors: true, strict: false });
ajv.addSchema(schema);
const validateEvent = ajv.compile({ $ref: `${schema.$id as string}#/$defs/event` });

/** Problems of one line of `tandem agent` output against docs/agent-protocol.schema.json; empty when it is valid. */
export function eventProblems(event: unknown): string[] {
  if (validateEvent(event)) return [];
  return (validateEvent.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
}

/** Every line valid, or the first invalid one with what is wrong. */
export function invalidEvents(events: readonly unknown[]): { event: unknown; problems: string[] }[] {
  return events.flatMap((event) => {
    const problems = eventProblems(event);
    return problems.length ? [{ event, problems: problems.slice(0, 3) }] : [];
  });
}
