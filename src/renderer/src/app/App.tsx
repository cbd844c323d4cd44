import { AiPanel } from '../ai/AiPanel';
import { CloseQuestionDialog } from '../closing/CloseQuestionDialog';
import { CommandPalette } from '../palette/CommandPalette';
import { HistorySearchOverlay } from '../history/HistorySearchOverlay';
import { useHistorySearch } from '../history/historySearchStore';
import { SettingsDialog } from '../settings/SettingsDialog';
import { SshHostPicker } from '../ssh/SshHostPicker';
import { useSshPicker } from '../ssh/sshPickerStore';
import { StatusBar } from '../statusbar/StatusBar';
import { TabBar } from '../layout/TabBar';
import { Workspace } from '../layout/Workspace';
import { WatchersOverlay } from '../watchers/WatchersOverlay';
import { useWatchersList } from '../watchers/watchersStore';
import { LinkPopups } from '../terminal/LinkPopups';
import { Banners } from './Banners';
import { useUiStore } from './uiStore';

export function App() {
  const paletteOpen = useUiStore((state) => state.paletteOpen);
  const settingsOpen = useUiStore((state) => state.settingsOpen);
  const historyOpen = useHistorySearch((state) => state.open);
  const sshPickerOpen = useSshPicker((state) => state.open);
  const watchersOpen = useWatchersList((state) => state.open);
  return (
    <div className="app">
      <TabBar />
      <Banners />
      <div className="app__main">
        <Workspace />
        <AiPanel />
      </div>
      <StatusBar />
      {paletteOpen && <CommandPalette />}
      {settingsOpen && <SettingsDialog />}
      {historyOpen && <HistorySearchOverlay />}
      {sshPickerOpen && <SshHostPicker />}
      {watchersOpen && <WatchersOverlay />}
      <LinkPopups />
      <CloseQuestionDialog />
    </div>
  );
}
