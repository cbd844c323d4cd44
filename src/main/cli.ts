import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArguments, USAGE } from './cli/arguments';
import { runAuditVerify } from './cli/auditCommand';
import { runPolicyCheck } from './cli/policyCheckCommand';
import { runWebCommand } from './cli/webCommand';
import { version } from './version';

/** Entry of the `tandem` command for everything that runs under plain Node (no Electron). */
export async function main(argv: string[]): Promise<void> {
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
      process.stderr.write('tandem: the desktop app is started by bin/tandem.js, not by this entry.\n');
      process.exitCode = 2;
      return;
    case 'policy-check':
      process.stdout.write(`${JSON.stringify(await runPolicyCheck(command.command, process.env, resolve(command.cwd ?? '.')))}\n`);
      return;
    case 'audit-verify': {
      const outcome = await runAuditVerify(command.file, process.env);
      (outcome.stream === 'stdout' ? process.stdout : process.stderr).write(`${outcome.text}\n`);
      process.exitCode = outcome.exitCode;
      return;
    }
    case 'web':
      await runWebCommand({
        port: command.port,
        shell: command.shell,
        open: command.open,
        verbose: command.verbose,
        version,
        rendererDir: join(dirname(fileURLToPath(import.meta.url)), '../renderer'),
      });
  }
}
