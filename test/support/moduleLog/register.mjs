// Loaded with `node --import` (NODE_OPTIONS) in tests that check what a process loads: every
// module URL an import resolves to is appended to $TANDEM_TEST_MODULE_LOG.
import { register } from 'node:module';

register(new URL('./hooks.mjs', import.meta.url));
