import type { RemoteShell } from '../../shared/remoteShell';
import type { ScannedOsc } from './oscScanner';
import { percentDecode } from './percentEncoding';

/**
 * Shell-integration marks, from our own OSC 133 dialect and from foreign ones:
 * FinalTerm/iTerm2/kitty/fish 4 OSC 133, VS Code OSC 633, OSC 7 (file:// and
 * kitty-shell-cwd://) and iTerm2 OSC 1337 CurrentDir.
 *
 * Our own marks carry `tandem=<nonce>`; `nonce` is whatever the sequence carried, and the
 * caller decides trust by comparing it with the pane's secret.
 */
export type Mark =
  /** `prompt`: our integration's prompt number; the same number again is a redraw of that prompt. */
  | { kind: 'prompt-start'; nonce?: string; cwd?: string; prompt?: string }
  | { kind: 'input-start'; nonce?: string }
  /** `cwd`: the directory the command starts in (our integration sends it). */
  | { kind: 'command-start'; nonce?: string; commandLine?: string; cwd?: string }
  | { kind: 'command-end'; nonce?: string; exitCode?: number }
  /** VS Code sends the command line in its own sequence (633;E) before C. */
  | { kind: 'command-line'; nonce?: string; commandLine: string }
  /** `host`: OSC 7's host name, when it carried one (informational, like the path). */
  | { kind: 'cwd'; nonce?: string; path: string; host?: string }
  /** Our integration's report of exported variables (OSC 6973): a value, or undefined for unset / not exported. */
  | { kind: 'environment'; nonce?: string; values: Map<string, string | undefined> }
  /** The trusted local ssh wrapper is about to start connection `conn` (docs/ssh.md). */
  | { kind: 'ssh-start'; nonce?: string; conn: string; dest: string; key?: string }
  /** The trusted wrapper's ssh ended with `status`; it waits for the engine's verdict (retry plain or not). */
  | { kind: 'ssh-end'; nonce?: string; conn: string; status: number }
  /** Stage 1 on the remote host asks for the integration (untrusted bytes, matched by `conn`). */
  | { kind: 'ssh-request'; nonce?: string; conn: string; remote: RemoteShellInfo }
  /** Stage 1 gave up and started a plain login shell; `reason` is a short code. */
  | { kind: 'ssh-fallback'; nonce?: string; conn: string; reason: string; host: string };

/** What stage 1 says about the host it runs on: labels, not proof. */
export type RemoteShellInfo = RemoteShell;

/**
 * Tandem's own OSC: environment reports (`6973;env;tandem=<nonce>;NAME=<enc>;NAME…`) and the
 * ssh bootstrap's `6973;ssh;start|request|fallback|end;…` (docs/ssh.md).
 */
export const ENVIRONMENT_OSC = 6973;
/** Connection ids the local wrapper makes: 16 hex digits (more is accepted, nothing else). */
const CONN_ID = /^[0-9a-f]{16,64}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export function interpretOsc(osc: ScannedOsc): Mark | undefined {
  switch (osc.id) {
    case 133:
      return interpretSemanticPrompt(osc.payload.split(';'), 'tandem');
    case 633:
      return interpretVsCode(osc.payload);
    case 7:
      return interpretOsc7(osc.payload);
    case ENVIRONMENT_OSC:
      return osc.payload.startsWith('ssh;') ? interpretSsh(osc.payload) : interpretEnvironment(osc.payload);
    case 1337: {
      const prefix = 'CurrentDir=';
      return osc.payload.startsWith(prefix) ? { kind: 'cwd', path: osc.payload.slice(prefix.length) } : undefined;
    }
    default:
      return undefined;
  }
}

function parseOptions(parts: string[]): { positional: string[]; options: Map<string, string> } {
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq > 0) options.set(part.slice(0, eq), part.slice(eq + 1));
    else positional.push(part);
  }
  return { positional, options };
}

function interpretSemanticPrompt(parts: string[], nonceKey: string): Mark | undefined {
  const [letter, ...rest] = parts;
  const { positional, options } = parseOptions(rest);
  const nonce = options.get(nonceKey);
  switch (letter) {
    case 'A': {
      const cwd = options.get('cwd');
      const prompt = options.get('prompt');
      return {
        kind: 'prompt-start',
        nonce,
        ...(cwd !== undefined ? { cwd: percentDecode(cwd) } : {}),
        ...(prompt !== undefined ? { prompt } : {}),
      };
    }
    case 'B':
      return { kind: 'input-start', nonce };
    case 'C': {
      const encoded = options.get('cmdline_url');
      const plain = options.get('cmdline');
      const commandLine = encoded !== undefined ? percentDecode(encoded) : plain;
      const cwd = options.get('cwd');
      return { kind: 'command-start', nonce, commandLine, ...(cwd !== undefined ? { cwd: percentDecode(cwd) } : {}) };
    }
    case 'D': {
      const code = positional[0];
      const exitCode = code !== undefined && /^-?\d{1,10}$/.test(code) ? Number(code) : undefined;
      return { kind: 'command-end', nonce, exitCode };
    }
    default:
      return undefined;
  }
}

function interpretVsCode(payload: string): Mark | undefined {
  const parts = payload.split(';');
  const letter = parts[0];
  if (letter === 'E') {
    // 633;E;<escaped command line>;<nonce>
    return { kind: 'command-line', commandLine: unescapeVsCode(parts[1] ?? ''), nonce: parts[2] };
  }
  if (letter === 'P') {
    const property = parts.slice(1).join(';');
    return property.startsWith('Cwd=') ? { kind: 'cwd', path: unescapeVsCode(property.slice(4)) } : undefined;
  }
  return interpretSemanticPrompt(parts, 'nonce');
}

/** VS Code escapes `\` as `\\` and bytes below 0x20 and `;` as `\xAB`. */
function unescapeVsCode(text: string): string {
  return text.replace(/\\(\\|x([0-9a-fA-F]{2}))/g, (_, escaped: string, hex?: string) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : escaped,
  );
}

function interpretOsc7(payload: string): Mark | undefined {
  const match = /^(file|kitty-shell-cwd):\/\/([^/]*)(\/.*)?$/.exec(payload);
  if (!match) return undefined;
  const path = match[3] ?? '/';
  const host = match[2] ? label(match[2]) : undefined;
  // kitty-shell-cwd carries the raw path; file:// is a URL and is percent-encoded.
  return { kind: 'cwd', path: match[1] === 'file' ? percentDecode(path) : path, ...(host ? { host } : {}) };
}

/** The remote `$HOME`, kept only when it is an absolute path without `..` (the gate takes `~` for it). */
function homeOf(text: string | undefined): { home?: string } {
  const home = label(text);
  return home.startsWith('/') && !home.split('/').includes('..') ? { home } : {};
}

/** A label from the remote side: printable, one line, at most 256 characters. */
function label(text: string | undefined): string {
  return percentDecode(text ?? '').replace(/[^\x20-\x7e\u00a0-\uffff]/g, '').slice(0, 256);
}

function interpretSsh(payload: string): Mark | undefined {
  const [, verb, ...rest] = payload.split(';');
  const { options } = parseOptions(rest);
  const conn = options.get('conn') ?? '';
  if (!CONN_ID.test(conn)) return undefined;
  switch (verb) {
    case 'start':
      return { kind: 'ssh-start', nonce: options.get('tandem'), conn, dest: label(options.get('dest')), ...(options.get('key') ? { key: label(options.get('key')) } : {}) };
    case 'end': {
      const status = options.get('status') ?? '';
      return /^\d{1,3}$/.test(status) && Number(status) < 256 ? { kind: 'ssh-end', nonce: options.get('tandem'), conn, status: Number(status) } : undefined;
    }
    case 'request':
      return {
        kind: 'ssh-request',
        conn,
        remote: {
          user: label(options.get('user')),
          host: label(options.get('host')),
          os: label(options.get('os')),
          arch: label(options.get('arch')),
          shell: label(options.get('shell')),
          ...homeOf(options.get('home')),
        },
      };
    case 'fallback':
      return { kind: 'ssh-fallback', conn, reason: label(options.get('reason')).slice(0, 64), host: label(options.get('host')) };
    default:
      return undefined;
  }
}

function interpretEnvironment(payload: string): Mark | undefined {
  const [kind, ...parts] = payload.split(';');
  if (kind !== 'env') return undefined;
  let nonce: string | undefined;
  const values = new Map<string, string | undefined>();
  for (const part of parts) {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    if (name === 'tandem' && eq > 0) nonce ??= part.slice(eq + 1);
    else if (ENV_NAME.test(name)) values.set(name, eq < 0 ? undefined : percentDecode(part.slice(eq + 1)));
  }
  return { kind: 'environment', nonce, values };
}
