/**
 * The detector table. Each row names the keywords its matches hold and looks only where the
 * scrubber's one keyword pass found them; where matches overlap, the row nearer the top wins: key blocks first (so no other rule reports pieces of one), then token
 * formats, then the name-based and entropy rules. No detector matches `[REDACTED:…]`, which
 * makes scrubbing idempotent.
 */
import { base64SecretsDetector } from './base64Secrets';
import { findReplacements } from './findReplacements';
import { FACEBOOK_KEYWORDS, TELEGRAM_BOT_TOKEN, scanFacebookAppTokens } from './idSecretTokens';
import { ASSIGNMENT_KEYWORDS, ASSIGNMENT_OPERATORS, scanAssignments } from './assignments';
import { scanAuthorizationHeaders } from './authorizationHeaders';
import { COMMAND_PASSWORD_DETECTORS } from './commandPasswords';
import { scanCurlCredentials } from './curlCredentials';
import { scanKubernetesSecrets } from './kubernetesSecrets';
import { NAMED_VALUE_DETECTORS, scanNetrc, scanXmlElements } from './namedShapes';
import { BASE64_PEM, PRIVATE_KEY_MARKS, redactBase64PrivateKey, scanPrivateKeys } from './privateKeys';
import type { SecretDetector } from './redaction';
import { TOKEN_FORMAT_DETECTORS, scanUrlPasswords } from './tokenFormats';
import { vendorNamedValuesDetector } from './vendorNamedValues';
import { VENDOR_TOKEN_KEYWORDS, VENDOR_TOKEN_PATTERNS, scanVendorTokens } from './vendorTokens';

/** Formats recognisable wherever they stand. */
const FORMATS: readonly SecretDetector[] = [
  { kind: 'private-key', keywords: PRIVATE_KEY_MARKS, scan: scanPrivateKeys },
  { kind: 'private-key', keywords: ['LS0tLS1CRUdJTi'], pattern: BASE64_PEM, redact: redactBase64PrivateKey },
  { kind: 'vendor-token', keywords: VENDOR_TOKEN_KEYWORDS, scan: scanVendorTokens },
  ...TOKEN_FORMAT_DETECTORS,
  ...VENDOR_TOKEN_PATTERNS,
  TELEGRAM_BOT_TOKEN,
  { kind: 'facebook-access-token', keywords: FACEBOOK_KEYWORDS, ignoreCase: true, scan: scanFacebookAppTokens },
  vendorNamedValuesDetector,
];

/** Secrets recognised by where they stand: a header, a URL, a command's option, a name before them. */
const IN_CONTEXT: readonly SecretDetector[] = [
  { kind: 'authorization', keywords: ['authorization'], ignoreCase: true, scan: scanAuthorizationHeaders },
  { kind: 'url-password', keywords: ['://'], scan: scanUrlPasswords },
  { kind: 'password', keywords: ['curl'], scan: scanCurlCredentials },
  ...COMMAND_PASSWORD_DETECTORS,
  ...NAMED_VALUE_DETECTORS,
  { kind: 'secret-assignment', keywords: ['</'], scan: scanXmlElements },
  { kind: 'password', keywords: ['passw'], scan: scanNetrc },
  { kind: 'secret-assignment', keywords: ['kind'], scan: scanKubernetesSecrets },
  { kind: 'secret-assignment', keywords: ASSIGNMENT_KEYWORDS, ignoreCase: true, locate: ASSIGNMENT_OPERATORS, scan: scanAssignments },
];

/** Detectors in the order they run. Extend by adding rows (see docs/safety.md, "How the scrubber searches"); keep specific formats before broad rules. Base64 is looked into last:
 * what another rule redacts (an `Authorization: Basic` credential, a Kubernetes secret's data) is reported as that, and its
 * search of decoded text may reuse the keyword scanner's hit lists (see base64Secrets.ts). */
export const SECRET_DETECTORS: readonly SecretDetector[] = [...FORMATS, ...IN_CONTEXT, base64SecretsDetector((decoded) => findReplacements(decoded, SECRET_DETECTORS))];
