import type { Settings } from '../../shared/settings';
import type { ModelBackend } from './backends/modelBackend';

export type BackendKind = Settings['ai']['backend'];

export interface ModelConnection {
  backendKind: BackendKind;
  model: string;
  /** Absent when no model can be reached; then `setupHint` says how to connect one. */
  backend?: ModelBackend;
  setupHint?: string;
  /** Where requests go, for messages (no credentials in it). */
  endpoint?: string;
}

export const ANTHROPIC_ENDPOINT = 'https://api.anthropic.com';
export const OPENAI_ENDPOINT = 'https://api.openai.com/v1';

/** An endpoint as messages show it: without a user name or password written into the URL. */
export function shownEndpoint(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}

export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
  } catch {
    return false;
  }
}
