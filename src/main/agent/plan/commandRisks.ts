import type { RiskResult } from '../../safety/commandRisk';
import type { RemoteHost } from '../../safety/riskTypes';

/** Classifications kept at most (the oldest go first); each is a few small objects. */
const MAX_KEPT = 500;

/**
 * The risk of each command text where it runs, classified once: the plan shows it while the
 * step waits, and the approval gate decides with the same result instead of parsing again.
 * A classification that failed is forgotten, so the next ask tries again.
 */
export class CommandRisks {
  private readonly known = new Map<string, Promise<RiskResult>>();

  constructor(private readonly classify: (command: string, cwd: string, environment?: Readonly<Record<string, string>>, remote?: RemoteHost) => Promise<RiskResult>) {}

  /**
   * `environment`: the variables the command runs with besides the shell's own (its verdict may differ with them).
   * `remote`: the host it runs on when that is not this machine (the same cwd there is another directory).
   */
  of(command: string, cwd: string, environment?: Readonly<Record<string, string>>, remote?: RemoteHost): Promise<RiskResult> {
    const key = `${remote ? JSON.stringify(remote) : ''}\0${cwd}\0${command}\0${environment ? JSON.stringify(environment) : ''}`;
    const known = this.known.get(key);
    if (known) return known;
    const risk = this.classify(command, cwd, environment, remote);
    this.known.set(key, risk);
    risk.catch(() => {
      if (this.known.get(key) === risk) this.known.delete(key);
    });
    if (this.known.size > MAX_KEPT) this.known.delete(this.known.keys().next().value!);
    return risk;
  }
}
