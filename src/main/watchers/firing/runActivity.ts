import { relative, isAbsolute } from 'node:path';

/** How long after a watcher run ends its folder's file events still count as its own. */
export const RUN_SETTLE_MS = 1_500;

/**
 * The folders watcher runs work in, while they run and for a settle time after (docs/watchers.md
 * "Loops"): a file event under one of them is the run's own and fires no watcher, so watchers
 * cannot set each other (or themselves) off.
 */
export class RunActivity {
  /** cwd → how many runs work there now. */
  private readonly running = new Map<string, number>();
  /** cwd → when its last run ended (epoch ms). */
  private readonly ended = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  started(cwd: string): void {
    this.running.set(cwd, (this.running.get(cwd) ?? 0) + 1);
  }

  stopped(cwd: string): void {
    const left = (this.running.get(cwd) ?? 1) - 1;
    if (left > 0) this.running.set(cwd, left);
    else this.running.delete(cwd);
    this.ended.set(cwd, this.now());
  }

  /** Whether a change of this (absolute) path is a watcher run's own. */
  owns(path: string): boolean {
    const now = this.now();
    for (const [cwd, at] of this.ended) if (now - at > RUN_SETTLE_MS) this.ended.delete(cwd);
    return [...this.running.keys(), ...this.ended.keys()].some((cwd) => inside(path, cwd));
  }
}

function inside(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
}
