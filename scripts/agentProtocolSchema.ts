// Writes docs/agent-protocol.schema.json from the zod declarations of `tandem agent`'s stream
// (src/main/headless/agentStream.ts). Run after changing them: npm run protocol:schema
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentProtocolJsonSchema } from '../src/main/headless/agentStreamSchema';

const file = join(__dirname, '../docs/agent-protocol.schema.json');
writeFileSync(file, `${JSON.stringify(agentProtocolJsonSchema(), null, 2)}\n`);
console.log(`wrote ${file}`);
