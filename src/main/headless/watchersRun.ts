import { spawn, type ChildProcess } from 'node:child_process';
import { homedir } from 'node:os';
import { createInterface } from 'node:readline';
import { Emitter } from '../../shared/events';
import { AuditLog } from '../safety/audit/auditLog';
import { tandemPaths } from '../settings/paths';
import { RunActivity } from '../watchers/firing/runActivity';
import { watcherInstruction } from '../watchers/firing/watcherRun';
import { ProjectTrust } from '../watchers/projectTrust';
import type { UserBlock } from '../watchers/triggers/userBlocks';
import type { WatcherFiring } from '../watchers/watcherFiring';
import { projectOf } from '../watchers/watcherSources';
import { WatchersService } from '../watchers/watchersService';
import { AGENT_EXIT, type ApprovalMode } from './agentStream';
import { usageError, type AgentIo } from './agentIo';
import type { AgentOptions } from './agentOptions';

type Event = { type: string } & Record<string, unknown>;

/**
 * `tandem agent --watchers [DIR]`: the watchers of the user's file and DIR's project (allowed
 * projects only) in a foreground process without a window (docs/watchers.md). Each firing is
 * a `watcher-fired` event; an `ask`/`auto` run is a `tandem agent --watcher NAME` process in
 * the watcher's folder whose events follow, under `--approve` (default policy: what would ask
 * is refused, nobody is there). SIGTERM or SIGINT stops the watchers and the runs; exit 0.
 */
export async function runWatchers(options: AgentOptions, dir: string, io: AgentIo): Promise<number> {
  const approve: ApprovalMode = options.approve ?? 'policy';
  if (approve === 'ask') return usageError(io, '--watchers runs without a terminal to ask at: use --approve=policy, deny or stdio.');
  if (!io.selfCommand) return usageError(io, 'this Tandem does not know how to start itself here, so it cannot start watcher runs.');
  const self = io.selfCommand;
  const json = options.json || io.stdout.isTTY !== true;
  const print = (event: Event): void => void io.stdout.write(json ? `${JSON.stringify(event)}\n` : `${eventText(event)}\n`);
  const home = io.env.HOME || homedir();
  const paths = tandemPaths(io.env);
  const audit = new AuditLog(paths.auditFile, paths.auditHeadFile, { onError: (error) => io.stderr.write(`tandem: the audit log could not be written: ${error.message}\n`) });
  const activity = new RunActivity();
  const runs = new Set<ChildProcess>();
  /** Our id of an approval request (run number + its own id) → where its answer goes. */
  const asking = new Map<string, { child: ChildProcess; id: string }>();
  let runNumber = 0;

  const startRun = (firing: WatcherFiring): Promise<void> => {
    const number = ++runNumber;
    const argv = [...self, 'agent', '--json', '--cwd', firing.cwd, '--watcher', firing.watcher.name, '--approve', approve, ...(approve === 'stdio' ? ['--input-format', 'json'] : []), ...(firing.watcher.action === 'auto' ? ['--auto'] : []), ...options.policies.flatMap((file) => ['--policy', file]), '-c', watcherInstruction(firing)];
    const child = spawn(argv[0]!, argv.slice(1), { cwd: firing.cwd, env: io.env, stdio: ['pipe', 'pipe', 'inherit'] });
    runs.add(child);
    activity.started(firing.cwd);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let event: Event;
      try {
        event = JSON.parse(line) as Event;
      } catch {
        return;
      }
      if (event.type === 'approval_request' && typeof event.id === 'string') {
        const id = `${number}.${event.id}`;
        asking.set(id, { child, id: event.id });
        event = { ...event, id };
      }
      print({ ...event, watcher: firing.watcher.name });
    });
    return new Promise((resolve) => {
      child.on('error', (error) => print({ type: 'error', watcher: firing.watcher.name, message: `the watcher run could not start: ${error.message}` }));
      child.on('close', () => {
        runs.delete(child);
        activity.stopped(firing.cwd);
        resolve();
      });
    });
  };

  const service = new WatchersService({
    userFile: paths.watchersFile,
    home,
    trust: new ProjectTrust(paths.watcherTrustFile),
    finishedBlocks: new Emitter<UserBlock>().event,
    focusedPane: () => undefined,
    ownWrite: (path) => activity.owns(path),
    log: { info: () => undefined, warning: (message) => io.stderr.write(`tandem: watchers: ${message}\n`) },
    onHold: (watcher, hold) => hold && print({ type: 'watcher-held', watcher, hold }),
    onFiring: async (firing) => {
      await audit.append({ event: 'watcher-fired', cwd: firing.cwd, reason: firing.reason, watcher: firing.watcher.name });
      print({ type: 'watcher-fired', watcher: firing.watcher.name, action: firing.watcher.action, reason: firing.reason, cwd: firing.cwd, at: firing.at });
      if (firing.watcher.action === 'notify') return;
      if (firing.watcher.action === 'ask' && approve !== 'stdio') {
        print({ type: 'watcher-refused', watcher: firing.watcher.name, reason: `nobody to ask: an ask watcher needs --approve=stdio here (this run has --approve=${approve})` });
        return;
      }
      await startRun(firing);
    },
  });
  service.addProject(projectOf(dir, home));
  for (const file of service.view().files) if (file.error || file.untrusted) io.stderr.write(`tandem: ${file.path}: ${file.error ?? 'not allowed: run `tandem watchers allow` for it'}\n`);
  print({ type: 'watchers', watchers: service.view().watchers.map((watcher) => ({ name: watcher.name, source: watcher.source, trigger: watcher.trigger, action: watcher.action })) });

  if (approve === 'stdio') {
    createInterface({ input: io.stdin }).on('line', (line) => {
      let message: { type?: string; id?: string };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        print({ type: 'error', message: 'stdin: a line that is not JSON was ignored' });
        return;
      }
      const target = message.type === 'approval' && message.id ? asking.get(message.id) : undefined;
      if (!target) {
        print({ type: 'error', message: `stdin: no watcher run waits for ${message.id ?? 'that'}` });
        return;
      }
      asking.delete(message.id!);
      target.child.stdin!.write(`${JSON.stringify({ ...message, id: target.id })}\n`);
    });
  }

  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  service.dispose();
  for (const child of runs) child.kill('SIGTERM');
  await Promise.all([...runs].map((child) => new Promise((resolve) => child.once('close', resolve))));
  print({ type: 'watchers-stopped' });
  return AGENT_EXIT.ok;
}

function eventText(event: Event): string {
  const who = typeof event.watcher === 'string' ? `[${event.watcher}] ` : '';
  switch (event.type) {
    case 'watchers':
      return `watching: ${(event.watchers as { name: string }[]).map((watcher) => watcher.name).join(', ') || 'no watchers'}`;
    case 'watcher-fired':
      return `${who}fired: ${String(event.reason)}`;
    case 'message':
    case 'result':
      return `${who}${String(event.text ?? event.answer ?? event.type)}`;
    default:
      return `${who}${event.type}${typeof event.command === 'string' ? `: ${event.command}` : typeof event.reason === 'string' ? `: ${event.reason}` : ''}`;
  }
}
