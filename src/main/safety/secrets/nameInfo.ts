/**
 * What a name before an assignment operator says, worked out once per name: assignment scans
 * meet the same few names again and again (`token`, `X-CSRF-Token`, `integrity`, `customer_id` …).
 */
import { holdsOrdinaryValue, nameSecrecy, randomValueMayBeSecret, secretKindForName, type NameSecrecy } from './secretNames';

export interface NameInfo {
  secrecy: NameSecrecy;
  /** The kind a redaction under this name reports. */
  kind: string;
  /** Its value is a hash, an id, a path …: not judged by entropy. */
  ordinary: boolean;
  /** `value`, `content`: the name of its pair decides (`{"name": "DB_PASSWORD", "value": …}`, `<meta name="csrf-token" content="…">`). */
  pairsWithName: boolean;
  /** Written like an environment variable (`DB_PASSWORD`): its value is a value, never code. */
  envStyle: boolean;
  /** Written like a Makefile variable (`API_TOKEN ?= …`). */
  makeStyle: boolean;
}

const nameInfos = new Map<string, NameInfo>();

export function infoForName(name: string): NameInfo {
  let info = nameInfos.get(name);
  if (info === undefined) {
    const secrecy = nameSecrecy(name);
    info = {
      secrecy,
      kind: secretKindForName(name),
      ordinary: holdsOrdinaryValue(name) || !randomValueMayBeSecret(name),
      pairsWithName: !secrecy && /^(?:value|content)$/i.test(name),
      envStyle: /^[A-Z0-9_]+$/.test(name),
      makeStyle: /^[A-Z][A-Z0-9_]*$/.test(name),
    };
    if (nameInfos.size >= 10_000) nameInfos.clear();
    nameInfos.set(name, info);
  }
  return info;
}

/** What an assignment scan does with a name: parse and judge its value ('named'), look for a random token ('entropy'), or nothing. */
export function ruleFor(info: NameInfo): 'named' | 'entropy' | 'none' {
  return info.secrecy || info.pairsWithName ? 'named' : info.ordinary ? 'none' : 'entropy';
}

/**
 * The names met last, by a hash of their characters: the name at text[start, end) is looked up
 * here without being cut out of the text (a copy, then a hash of it, for every operator).
 */
const RECENT_SLOTS = 1024;
const recentNames: (string | undefined)[] = new Array<string | undefined>(RECENT_SLOTS).fill(undefined);
const recentInfos: (NameInfo | undefined)[] = new Array<NameInfo | undefined>(RECENT_SLOTS).fill(undefined);

/** infoForName of text[start, end), whose characters' codes c folded into `hash` (from 0) as `hash = (Math.imul(hash, 31) + c) | 0`. */
export function infoForNameAt(text: string, start: number, end: number, hash: number): NameInfo {
  const slot = (hash ^ (hash >>> 10)) & (RECENT_SLOTS - 1);
  const recent = recentNames[slot];
  if (recent !== undefined && standsAt(text, start, end, recent)) return recentInfos[slot] as NameInfo;
  const name = text.slice(start, end);
  const info = infoForName(name);
  recentNames[slot] = name;
  recentInfos[slot] = info;
  return info;
}

/** Whether text[start, end) is `name`. */
function standsAt(text: string, start: number, end: number, name: string): boolean {
  if (name.length !== end - start) return false;
  for (let i = 0; i < name.length; i++) if (text.charCodeAt(start + i) !== name.charCodeAt(i)) return false;
  return true;
}
