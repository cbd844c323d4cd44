/**
 * Removes secrets from text before it reaches a model: terminal output, commands, file
 * contents, environment values. The detectors live in `./secrets/`; this module is the one
 * the rest of the engine imports.
 */
export { SECRET_DETECTORS } from './secrets/detectors';
export { looksHighEntropy } from './secrets/entropy';
export { isSecretEnvironmentName, scrubEnvironment } from './secrets/environment';
export { redacted, type PatternDetector, type Redaction, type Replacement, type ScanDetector, type SecretDetector } from './secrets/redaction';
export { describeRedactions, findSecrets, scrubSecrets, type ScrubResult, type SecretSpan } from './secrets/scrub';
