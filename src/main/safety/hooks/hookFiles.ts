import { constants } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export type HookEvent = 'pre-exec' | 'post-exec';

export interface HookFile {
  name: string;
  path: string;
  /** Why the file cannot be run (not executable, broken link); undefined when it can. */
  problem?: string;
}

export type HookListing = { hooks: HookFile[] } | { error: string };

/** Editor backups, patch leftovers and explicitly disabled hooks are never run. */
const SKIPPED_SUFFIXES = ['~', '.swp', '.swo', '.swx', '.orig', '.bak', '.rej', '.tmp', '.disabled'];

export function isHookFileName(name: string, event: HookEvent): boolean {
  if (name !== event && !(name.startsWith(`${event}.`) && name.length > event.length + 1)) return false;
  return !SKIPPED_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

/**
 * The hooks for one event, in name order (plain code-unit order, so `pre-exec.10` sorts before
 * `pre-exec.2`). A missing hooks dir is no hooks; a dir that exists but cannot be read is an error,
 * because silently skipping the user's hooks would fail open.
 */
export async function listHooks(hooksDir: string, event: HookEvent): Promise<HookListing> {
  let names: string[];
  try {
    names = await readdir(hooksDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { hooks: [] };
    return { error: `the hooks dir ${hooksDir} could not be read: ${(error as Error).message}` };
  }
  const candidates = names.filter((name) => isHookFileName(name, event)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const hooks: HookFile[] = [];
  for (const name of candidates) {
    const path = join(hooksDir, name);
    const file = await inspectHookFile(name, path);
    if (file) hooks.push(file);
  }
  return { hooks };
}

/** Undefined for directories and other things that are not files (a `pre-exec.d/` is not a hook). */
async function inspectHookFile(name: string, path: string): Promise<HookFile | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return undefined;
  } catch (error) {
    return { name, path, problem: `hook ${name} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); fix or remove ${path}` };
  }
  try {
    await access(path, constants.X_OK);
    return { name, path };
  } catch {
    return { name, path, problem: `hook ${name} is not executable; run: chmod +x ${shellQuote(path)}` };
  }
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
