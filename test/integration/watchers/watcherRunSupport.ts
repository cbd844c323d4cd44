import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ChildAgentView } from '../../../src/shared/agent';
import type { Desktop, DesktopNotification } from '../../../src/main/desktop/desktop';
import { UnavailableDesktop } from '../../../src/main/desktop/unavailableDesktop';
import type { TandemPaths } from '../../../src/main/settings/paths';
import { TANDEM_BIN } from '../../support/agentCli';
import type { EngineClient } from '../../support/engineClient';

/** How the engine starts `tandem` again for a watcher's run (a child agent). */
export const SELF = [process.execPath, TANDEM_BIN];

/** A `run_command` tool use in a scripted model reply. */
export const run = (id: string, command: string) => ({ toolUse: { id, name: 'run_command', input: { command, purpose: `run ${command}` } } });

/** No desktop here, but its notifications are recorded. */
export function recordingDesktop(): Desktop & { notifications: DesktopNotification[] } {
  const notifications: DesktopNotification[] = [];
  return Object.assign(new UnavailableDesktop('tests'), { notifications, notify: async (notification: DesktopNotification) => void notifications.push(notification) });
}

/** Writes the user's watchers.toml; returns the audit log's path. */
export function watcherFile(engine: { paths: TandemPaths }, toml: string): string {
  mkdirSync(dirname(engine.paths.watchersFile), { recursive: true });
  writeFileSync(engine.paths.watchersFile, toml);
  return engine.paths.auditFile;
}

/** The run card of a firing once `predicate` holds for it. */
export function runView(client: EngineClient, firingId: string, predicate: (run: ChildAgentView) => boolean, what: string): Promise<ChildAgentView> {
  return client.waitFor(() => client.eventsOf('watcher.run').filter((event) => event.firingId === firingId && event.run && predicate(event.run)).pop()?.run ?? undefined, 60_000, what);
}
