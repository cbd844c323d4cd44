// A bare @anthropic-ai/sdk client as its own process, for the agentcli suite's first-token
// limit: `node bench/lib/sdkFirstToken.js <request.json>` streams that request body from
// ANTHROPIC_BASE_URL and prints `{"type":"delta"}` on its first text, as `tandem agent --json`
// prints its first `delta` line; then it waits for the whole message and exits.
import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';

const { stream: _stream, ...body } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const client = new Anthropic({ apiKey: process.env.ANTHROPIC_API_KEY, baseURL: process.env.ANTHROPIC_BASE_URL, maxRetries: 0 });
const stream = client.messages.stream(body);
let first = true;
stream.on('text', () => {
  if (first) process.stdout.write('{"type":"delta"}\n');
  first = false;
});
await stream.finalMessage();
