import type { Mark } from '../osc/marks';

type EnvironmentReport = Extract<Mark, { kind: 'environment' }>;

/**
 * The environment a pane's shell exports, as far as Tandem knows it: what the shell was
 * started with, overlaid with what our integration reported since (`export VIRTUAL_ENV=…`,
 * `unset NODE_ENV`). Only reports carrying the pane's nonce count: a program cannot print
 * its way into what the model is told.
 */
export class PaneEnvironment {
  private readonly reported = new Map<string, string | undefined>();
  private started: Readonly<Record<string, string | undefined>> = {};

  constructor(private readonly nonce: string) {}

  /** The environment the shell was spawned with (Tandem's own bootstrap variables left out). */
  shellStarted(env: Readonly<Record<string, string | undefined>>): void {
    this.started = Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('TANDEM_')));
    this.reported.clear();
  }

  /** Takes a report of ours; false (and nothing changes) for one without the pane's nonce. */
  report(mark: EnvironmentReport): boolean {
    if (mark.nonce === undefined || mark.nonce !== this.nonce) return false;
    for (const [name, value] of mark.values) this.reported.set(name, value);
    return true;
  }

  /** The latest value of each exported variable known; unset and unexported ones are absent. */
  values(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.started)) if (value !== undefined && !this.reported.has(name)) out[name] = value;
    for (const [name, value] of this.reported) if (value !== undefined) out[name] = value;
    return out;
  }
}
