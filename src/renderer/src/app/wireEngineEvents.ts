import { wireAgentEvents } from '../ai/wireAgentEvents';
import { usePrivatePanes } from '../history/privateMode';
import { wireCompanion } from '../companion/wireCompanion';
import { startSession } from '../session/startSession';
import { showSettingsBanners } from '../settings/settingsBanners';
import { useSettingsStore } from '../settings/settingsStore';
import { openSshTab } from '../ssh/sshTab';
import type { EngineConnection } from '../transport/engineConnection';
import { wireWatchers } from '../watchers/watchersList';
import { useConnectionStore } from './connectionStore';
import { paneStreams } from './engine';

/** Engine events into the stores and pane sessions; each (re)connection starts the session. */
export function wireEngineEvents(connection: EngineConnection): void {
  connection.onOutput((paneId, bytes) => paneStreams.output(paneId, bytes));

  // Pane and block events sit in the pane's stream right after the output before them: they
  // go through the pane's queue with that output and reach the stores once it is on screen.
  connection.on('pane.state', (payload) => paneStreams.paneEvent({ name: 'pane.state', payload }));
  connection.on('pane.exit', (payload) => paneStreams.paneEvent({ name: 'pane.exit', payload }));
  connection.on('pane.notice', (payload) => paneStreams.paneEvent({ name: 'pane.notice', payload }));
  connection.on('pane.notice.withdrawn', (payload) => paneStreams.paneEvent({ name: 'pane.notice.withdrawn', payload }));
  connection.on('pane.skipped', (payload) => paneStreams.paneEvent({ name: 'pane.skipped', payload }));
  connection.on('pane.resized', (payload) => paneStreams.paneEvent({ name: 'pane.resized', payload }));
  connection.on('pane.private', ({ paneId, private: on }) => usePrivatePanes.getState().set(paneId, on));
  connection.on('ssh.open-tab', ({ args }) => void openSshTab(args));
  connection.on('block.started', (block) => paneStreams.block(block));
  connection.on('block.finished', (block) => paneStreams.block(block));

  connection.on('settings.changed', ({ settings, error, notice }) => {
    useSettingsStore.getState().setSettings(settings);
    showSettingsBanners(useSettingsStore.getState().configPath, { error, notice }, 'The settings in effect stay; your file was not changed.');
  });

  connection.onStatus((status, detail) => {
    useConnectionStore.getState().setStatus(status, detail);
    if (status === 'open') void startSession();
  });

  // After the session's listener, so `hello` is the connection's first request.
  wireAgentEvents(connection);
  wireCompanion(connection);
  wireWatchers(connection);
}
