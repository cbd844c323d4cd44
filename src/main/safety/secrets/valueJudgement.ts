/**
 * Whether a value written under a name is a secret, and what it is replaced with: shared by
 * every rule that finds secrets by their name.
 */
import { isBase64Credentials, looksLikeKeyMaterial } from './entropy';
import { redacted, type Redaction } from './redaction';
import { isMisshapenTelegramToken } from './idSecretTokens';
import { isDocumentationSlackToken } from './vendorTokens';
import { isPlaceholderValue, looksLikeCode, nameSecrecy, secretKindForName, type NameSecrecy } from './secretNames';

/** Unquotes a captured value; returns the quote char and the inner text. */
export function splitQuotes(raw: string): { quote: string; inner: string } {
  const first = raw[0];
  if ((first === '"' || first === "'") && raw.length >= 2 && raw.endsWith(first)) return { quote: first, inner: raw.slice(1, -1) };
  return { quote: '', inner: raw };
}

/**
 * `literal`: the value cannot be code (quoted, an XML text, a flag's argument). Otherwise a
 * member chain or call is code, and so is a bare identifier where code would put one
 * (`password: pwd,` but not `PASSWORD=hunter`).
 */
export function acceptsSecretValue(secrecy: NameSecrecy, inner: string, literal: boolean, bareIdentifierIsCode = false): boolean {
  // Every test must pass; the cheap ones that most values under these names fail come first.
  if (secrecy === 'key' && !looksLikeKeyMaterial(inner)) return false;
  if (secrecy === 'auth' && !isBase64Credentials(inner)) return false;
  if (isPlaceholderValue(inner) || isDocumentationSlackToken(inner) || isMisshapenTelegramToken(inner)) return false;
  return literal || !looksLikeCode(inner, bareIdentifierIsCode);
}

/** `prefix` + the redacted value (its quotes kept) + `suffix`, when `name` says the value is a secret and it is one. */
export function redactNamed(prefix: string, name: string, raw: string, suffix = ''): Redaction | undefined {
  const { quote, inner } = splitQuotes(raw);
  const secrecy = nameSecrecy(name);
  if (!secrecy || !acceptsSecretValue(secrecy, inner, true)) return undefined;
  const kind = secretKindForName(name);
  return { text: `${prefix}${quote}${redacted(kind)}${quote}${suffix}`, kind };
}
