import { loadSettings } from '../settings/configFile';
import { tandemPaths } from '../settings/paths';
import { readUsageEntries } from '../telemetry/usageLedger';
import { usageReport, usageTable } from '../telemetry/usageReport';
import { parseSince } from '../telemetry/sinceOption';

export interface UsageOutcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const HELP = `Usage: tandem usage [--since 7d|24h|30m|YYYY-MM-DD] [--json]
  Tokens and cost of the agent's model requests per day, model and source, from the traces file.
  --since   how far back (default 7d)
  --json    one JSON object: { since, total, by_day, by_model, by_source }`;

/** `tandem usage`: 0 with the report, 2 for bad arguments or a traces file that cannot be read. */
export async function runUsage(argv: readonly string[], env: NodeJS.ProcessEnv, now = new Date()): Promise<UsageOutcome> {
  let sinceText = '7d';
  let json = false;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--json') json = true;
    else if (arg === '--help' || arg === '-h') return { stdout: HELP, stderr: '', exitCode: 0 };
    else if (arg === '--since' || arg.startsWith('--since=')) {
      const value = arg === '--since' ? argv[++index] : arg.slice('--since='.length);
      if (!value) return fail('--since needs a value such as 7d, 24h, 30m or 2026-11-01.');
      sinceText = value;
    } else return fail(`Unknown option "${arg}" for tandem usage.\n${HELP}`);
  }
  const since = parseSince(sinceText, now);
  if (!(since instanceof Date)) return fail(since.error);
  const paths = tandemPaths(env);
  let entries;
  try {
    entries = await readUsageEntries(paths.traceFile, { since });
  } catch (error) {
    return fail(`cannot read the traces file ${paths.traceFile}: ${(error as Error).message}`);
  }
  const telemetryOff = !loadSettings(paths.configFile).settings.telemetry.enabled;
  const missing = entries === undefined;
  const report = usageReport(entries ?? [], since);
  const why = missing
    ? telemetryOff
      ? `no traces file at ${paths.traceFile}: telemetry is off ([telemetry] enabled = false), so no usage is recorded`
      : `no traces file at ${paths.traceFile} yet: no model request has been recorded`
    : telemetryOff
      ? 'telemetry is off ([telemetry] enabled = false): requests made since it was turned off are not recorded'
      : undefined;
  if (json) return { stdout: JSON.stringify(report), stderr: why ? `tandem: ${why}` : '', exitCode: 0 };
  if (missing) return { stdout: `${why}.`, stderr: '', exitCode: 0 };
  return { stdout: usageTable(report) + (why ? `\n\nNote: ${why}.` : ''), stderr: '', exitCode: 0 };
}

function fail(message: string): UsageOutcome {
  return { stdout: '', stderr: `tandem: ${message}`, exitCode: 2 };
}
