// Module resolution hooks (run on Node's loader thread): each resolved URL, one a line.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (process.env.TANDEM_TEST_MODULE_LOG) appendFileSync(process.env.TANDEM_TEST_MODULE_LOG, `${resolved.url}\n`);
  return resolved;
}
