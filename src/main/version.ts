// A named import of package.json's one field: the bundler keeps only this value, not the
// whole manifest (dependencies, scripts) in the built engine.
import { version as packageVersion } from '../../package.json';

export const version: string = packageVersion;
