import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArguments, USAGE } from './cli/arguments';
import { keepWasmOnBaselineCompiler } from './cli/wasmTiering';
import { version } from './version';

/**
 * The `tandem` command's subcommands: under plain Node through bin/tandem.js, and inside the
 * packaged app (src/main/index.ts routes them here before any window exists).
 * Each subcommand's module is imported in its own case, so a command loads only what it
 * runs: `--version` nothing, `policy check` the gate, never the engine, panes or node-pty.
 */
export async function main(argv: string[], rendererDir = builtRendererDir()): Promise<void> {
  const command = parseArguments(argv);
  switch (command.kind) {
    case 'help':
      process.stdout.write(USAGE + '\n');
      return;
    case 'version':
      process.stdout.write(`tandem ${version}\n`);
      return;
    case 'error':
      process.stderr.write(`tandem: ${command.message}\n${USAGE}\n`);
      process.exitCode = 2;
      return;
    case 'app':
      process.stderr.write('tandem: the desktop app is started by `tandem` with no arguments, not by this entry.\n');
      process.exitCode = 2;
      return;
    case 'policy-check': {
      keepWasmOnBaselineCompiler();
      const { runPolicyCheck } = await import('./cli/policyCheckCommand');
      process.stdout.write(`${JSON.stringify(await runPolicyCheck(command.command, process.env, resolve(command.cwd ?? '.')))}\n`);
      return;
    }
    case 'policy-check-edit': {
      keepWasmOnBaselineCompiler();
      const { runPolicyEditCheck } = await import('./cli/policyCheckCommand');
      const checked = await runPolicyEditCheck(command.path, process.env, resolve(command.cwd ?? '.'));
      if ('error' in checked) {
        process.stderr.write(`tandem: ${checked.error}\n`);
        process.exitCode = 2;
      } else process.stdout.write(`${JSON.stringify(checked)}\n`);
      return;
    }
    case 'audit-verify': {
      const { runAuditVerify } = await import('./cli/auditCommand');
      const outcome = await runAuditVerify(command.file, process.env);
      (outcome.stream === 'stdout' ? process.stdout : process.stderr).write(`${outcome.text}\n`);
      process.exitCode = outcome.exitCode;
      return;
    }
    case 'trace': {
      const { runTraceCommand } = await import('./cli/traceCommand');
      const outcome = await runTraceCommand(command.argv, process.env);
      process.stdout.write(outcome.stdout);
      process.stderr.write(outcome.stderr);
      process.exitCode = outcome.exitCode;
      return;
    }
    case 'agent': {
      const { runAgentCommand } = await import('./headless/agentCommand');
      const { selfCommand } = await import('./agent/children/selfCommand');
      const status = await runAgentCommand(command.argv, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, version, selfCommand: selfCommand() });
      // The run is over and its output flushed: nothing left (a model connection kept alive, stdin) may hold the process.
      process.exit(status);
      return;
    }
    case 'usage': {
      const { runUsage } = await import('./cli/usageCommand');
      const outcome = await runUsage(command.argv, process.env);
      if (outcome.stdout) process.stdout.write(`${outcome.stdout}\n`);
      if (outcome.stderr) process.stderr.write(`${outcome.stderr}\n`);
      process.exitCode = outcome.exitCode;
      return;
    }
    case 'history': {
      const { runHistoryCommand } = await import('./cli/history/historyCommand');
      process.exitCode = await runHistoryCommand(command.argv, { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
      return;
    }
    case 'ssh': {
      const { runSshCommand } = await import('./cli/ssh/sshCommand');
      process.exitCode = await runSshCommand(command.argv, { env: process.env, interactive: process.stdin.isTTY === true && process.stdout.isTTY === true, stdout: process.stdout, stderr: process.stderr });
      return;
    }
    case 'watchers': {
      const { runWatchersCommand } = await import('./cli/watchers/watchersCommand');
      process.exitCode = await runWatchersCommand(command.argv, { env: process.env, cwd: process.cwd(), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
      return;
    }
    case 'web': {
      const { runWebCommand } = await import('./cli/webCommand');
      await runWebCommand({
        port: command.port,
        shell: command.shell,
        open: command.open,
        verbose: command.verbose,
        version,
        rendererDir,
      });
      return;
    }
  }
}

/** out/renderer, beside out/main — this code may run from out/main/cli.js or from a chunk in out/main/chunks/. */
function builtRendererDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  if (basename(dir) === 'chunks') dir = dirname(dir);
  return join(dir, '../renderer');
}
