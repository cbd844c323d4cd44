/** The `tandem` command line, parsed without a library: it is small and must never throw a stack trace. */
export type CliCommand =
  | { kind: 'app' }
  | { kind: 'web'; port: number; shell?: string; open: boolean; verbose: boolean }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'policy-check'; command: string; cwd?: string }
  | { kind: 'policy-check-edit'; path: string; cwd?: string }
  | { kind: 'audit-verify'; file?: string }
  /** `tandem agent …`: its own options (src/main/headless/agentOptions.ts). */
  | { kind: 'agent'; argv: string[] }
  /** `tandem trace …`: its own options (src/main/cli/traceCommand.ts). */
  | { kind: 'trace'; argv: string[] }
  /** `tandem usage …`: its own options (src/main/cli/usageCommand.ts). */
  | { kind: 'usage'; argv: string[] }
  /** `tandem history …`: its own options (src/main/cli/history/historyArguments.ts). */
  | { kind: 'history'; argv: string[] }
  /** `tandem ssh …`: every argument is ssh's (src/main/cli/ssh/sshCommand.ts). */
  | { kind: 'ssh'; argv: string[] }
  /** `tandem watchers …`: its own options (src/main/cli/watchers/watchersArguments.ts). */
  | { kind: 'watchers'; argv: string[] }
  | { kind: 'error'; message: string };

export const USAGE = `Usage:
  tandem                         open the Tandem window (Electron)
  tandem web [--port N] [--shell PATH] [--no-open] [--verbose]
                                 serve Tandem on 127.0.0.1 for a browser (--port 0 picks a free port;
                                 --verbose also prints the engine log to stderr)
  tandem policy check [--cwd DIR] -- 'COMMAND'
                                 how the agent's approval gate would judge COMMAND run in DIR
                                 (default: here), as one JSON line
  tandem policy check [--cwd DIR] --edit PATH
                                 the same for an edit_file / write_file of PATH from a pane in DIR
  tandem agent [-c INSTRUCTION | FILE] [--json] [--approve MODE] [--auto] …
                                 the agent without a window, for scripts, pipes, SSH and editors
                                 (\`tandem agent --help\` for its options)
  tandem audit verify [--file PATH]
                                 check the agent's audit trail; exit 0 when intact, 1 naming the first broken line,
                                 2 when it cannot be read or the --file does not exist
  tandem trace list [--since 7d] [--json]
                                 the agent's recent traces (start, id, duration, result, steps, tokens)
  tandem trace show TRACE-ID [--json]
                                 one trace as a tree: runs, model requests, steps, child agents
                                 (a unique prefix of the id will do; \`tandem trace --help\`)
  tandem usage [--since 7d|24h|30m|YYYY-MM-DD] [--json]
                                 tokens and cost of the agent's model requests per day, model and source
  tandem history [QUERY] [--failed] [--cwd DIR] [--since 2d] [--limit N] [--json]
                                 search the commands every pane ran (and imported shell history)
  tandem history forget ID… | --query QUERY [--yes]
  tandem history import [bash|zsh|fish|atuin] [FILE]
  tandem history stats [--json]
                                 (\`tandem history --help\` for the options and exit status)
  tandem ssh [SSH OPTIONS] DESTINATION [COMMAND…]
                                 a new tab of the running Tandem that runs ssh with these arguments,
                                 or else the system ssh on this terminal (\`tandem ssh --help\`)
  tandem watchers list [--json] [--dir DIR]
                                 the watchers of watchers.toml and of DIR's project (.tandem/watchers.toml)
  tandem watchers test NAME [--dir DIR]
                                 check one watcher and show what it would watch
  tandem watchers allow|deny [DIR] [--yes]
                                 trust a project's watchers file as it is now, or forget it
                                 (\`tandem watchers --help\`)
  tandem --help | --version`;

export function parseArguments(argv: string[]): CliCommand {
  const [command, ...rest] = argv;
  if (command === undefined) return { kind: 'app' };
  if (command === '--help' || command === '-h' || command === 'help') return { kind: 'help' };
  if (command === '--version' || command === '-v') return { kind: 'version' };
  if (command === 'policy') return parsePolicyArguments(rest);
  if (command === 'audit') return parseAuditArguments(rest);
  // Answered here, as `tandem --version` is: the agent's own parser would load the agent, the engine and the SDKs first.
  if (command === 'agent' && rest.length === 1 && rest[0] === '--version') return { kind: 'version' };
  if (command === 'agent') return { kind: 'agent', argv: rest };
  if (command === 'trace') return { kind: 'trace', argv: rest };
  if (command === 'usage') return { kind: 'usage', argv: rest };
  if (command === 'history') return { kind: 'history', argv: rest };
  if (command === 'ssh') return { kind: 'ssh', argv: rest };
  if (command === 'watchers') return { kind: 'watchers', argv: rest };
  if (command !== 'web') return { kind: 'error', message: `Unknown command "${command}".` };
  let port = 0;
  let shell: string | undefined;
  let open = true;
  let verbose = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? rest[++i];
    if (flag === '--port') {
      const text = value();
      const parsed = Number(text);
      if (!text || !Number.isInteger(parsed) || parsed < 0 || parsed > 65_535) {
        return { kind: 'error', message: `--port needs a number from 0 to 65535, got "${text ?? ''}".` };
      }
      port = parsed;
    } else if (flag === '--shell') {
      shell = value();
      if (!shell) return { kind: 'error', message: '--shell needs a path.' };
    } else if (flag === '--no-open') {
      open = false;
    } else if (flag === '--verbose') {
      verbose = true;
    } else {
      return { kind: 'error', message: `Unknown option "${arg}" for tandem web.` };
    }
  }
  return { kind: 'web', port, shell, open, verbose };
}

function parsePolicyArguments(rest: string[]): CliCommand {
  const [sub, ...words] = rest;
  if (sub !== 'check') return { kind: 'error', message: `Unknown policy command "${sub ?? ''}"; try \`tandem policy check -- 'COMMAND'\`.` };
  let cwd: string | undefined;
  let edit: string | undefined;
  let at = 0;
  // Options come before the command (or before `--`); everything after is the command.
  for (;;) {
    const word = words[at];
    const flag = word === '--cwd' || word?.startsWith('--cwd=') ? 'cwd' : word === '--edit' || word?.startsWith('--edit=') ? 'edit' : undefined;
    if (!flag || !word) break;
    const inline = word.includes('=') ? word.slice(word.indexOf('=') + 1) : undefined;
    const value = inline ?? words[at + 1];
    at += inline === undefined ? 2 : 1;
    if (!value) return { kind: 'error', message: flag === 'cwd' ? '--cwd needs a directory.' : '--edit needs the path of a file.' };
    if (flag === 'cwd') cwd = value;
    else edit = value;
  }
  const remaining = words.slice(at);
  const command = (remaining[0] === '--' ? remaining.slice(1) : remaining).join(' ').trim();
  if (edit !== undefined) {
    if (command) return { kind: 'error', message: 'tandem policy check takes a command or --edit PATH, not both.' };
    return cwd === undefined ? { kind: 'policy-check-edit', path: edit } : { kind: 'policy-check-edit', path: edit, cwd };
  }
  if (!command) return { kind: 'error', message: "tandem policy check needs a command: tandem policy check -- 'rm -rf build'" };
  return cwd === undefined ? { kind: 'policy-check', command } : { kind: 'policy-check', command, cwd };
}

function parseAuditArguments(rest: string[]): CliCommand {
  const [sub, ...options] = rest;
  if (sub !== 'verify') return { kind: 'error', message: `Unknown audit command "${sub ?? ''}"; try \`tandem audit verify\`.` };
  let file: string | undefined;
  for (let i = 0; i < options.length; i++) {
    const arg = options[i]!;
    if (arg === '--file' || arg.startsWith('--file=')) {
      file = arg === '--file' ? options[++i] : arg.slice('--file='.length);
      if (!file) return { kind: 'error', message: '--file needs a path.' };
    } else {
      return { kind: 'error', message: `Unknown option "${arg}" for tandem audit verify.` };
    }
  }
  return file === undefined ? { kind: 'audit-verify' } : { kind: 'audit-verify', file };
}
