import '@xterm/xterm/css/xterm.css';
import './styles/base.css';
import './styles/chrome.css';
import './styles/panes.css';
import './styles/blocks.css';
import './styles/dialogs.css';
import { createRoot } from 'react-dom/client';
import { installShortcuts } from './actions/installShortcuts';
import { App } from './app/App';
import { setEngine } from './app/engine';
import { wireEngineEvents } from './app/wireEngineEvents';
import { startSessionSaving } from './session/sessionSaver';
import { followSystemTheme } from './settings/followSystemTheme';
import { applyAppearanceLive } from './terminal/terminalAppearance';
import { openEngineConnection } from './transport/openEngineConnection';

const connection = openEngineConnection();
setEngine(connection);
followSystemTheme();
applyAppearanceLive();
installShortcuts();
wireEngineEvents(connection);
startSessionSaving();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(<App />);
connection.start();
