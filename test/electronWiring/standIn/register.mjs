// `node --import ./register.mjs`: makes `import ... from 'electron'` load the stand-in.
import { register } from 'node:module';

register('./resolveHooks.mjs', import.meta.url);
