/**
 * The detector table. Every detector looks at the whole text; where matches overlap, the row
 * nearer the top wins: key blocks first (so no other rule reports pieces of one), then token
 * formats, then the name-based and entropy rules. No detector matches `[REDACTED:…]`, which
 * makes scrubbing idempotent.
 */
import { scanAssignments } from './assignments';
import { scanAuthorizationHeaders } from './authorizationHeaders';
import { COMMAND_PASSWORD_DETECTORS } from './commandPasswords';
import { scanKubernetesSecrets } from './kubernetesSecrets';
import { NAMED_VALUE_DETECTORS, scanNetrc, scanXmlElements } from './namedShapes';
import { BASE64_PEM, redactBase64PrivateKey, scanPrivateKeys } from './privateKeys';
import type { SecretDetector } from './redaction';
import { TOKEN_FORMAT_DETECTORS, scanUrlPasswords } from './tokenFormats';
import { VENDOR_TOKEN_PATTERNS, scanVendorTokens } from './vendorTokens';

/** Detectors in the order they run. Extend by adding rows; keep specific formats before broad rules. */
export const SECRET_DETECTORS: readonly SecretDetector[] = [
  { kind: 'private-key', scan: scanPrivateKeys },
  { kind: 'private-key', needle: 'LS0tLS1CRUdJTi', pattern: BASE64_PEM, redact: redactBase64PrivateKey },
  { kind: 'vendor-token', scan: scanVendorTokens },
  ...TOKEN_FORMAT_DETECTORS,
  ...VENDOR_TOKEN_PATTERNS,
  { kind: 'authorization', scan: scanAuthorizationHeaders },
  { kind: 'url-password', scan: scanUrlPasswords },
  ...COMMAND_PASSWORD_DETECTORS,
  ...NAMED_VALUE_DETECTORS,
  { kind: 'secret-assignment', scan: scanXmlElements },
  { kind: 'password', scan: scanNetrc },
  { kind: 'secret-assignment', scan: scanKubernetesSecrets },
  { kind: 'secret-assignment', scan: scanAssignments },
];
