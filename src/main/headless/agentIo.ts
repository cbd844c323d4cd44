import { AGENT_EXIT } from './agentStream';

/** What a `tandem agent` run is given by the process that runs it. */
export interface AgentIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  version: string;
  /** The argv that starts `tandem` again (for child agents); absent: spawn_agent is not offered. */
  selfCommand?: readonly string[];
}

/** A usage error: said on stderr with the way to the options; the exit status to return. */
export function usageError(io: Pick<AgentIo, 'stderr'>, message: string): number {
  io.stderr.write(`tandem agent: ${message}\nRun \`tandem agent --help\` for the options.\n`);
  return AGENT_EXIT.usage;
}
