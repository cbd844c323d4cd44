import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommandLine } from './electron/commandLine';
import { startDesktopApp } from './electron/desktopApp';
import { tandemArguments } from './electron/launchArguments';
import { defaultWindowPaths } from './electron/mainWindow';

// The Electron entry. With arguments it is the `tandem` command (routed before any window
// exists); without, the desktop app. Everything else lives in the plain-Node engine so it
// can be tested without Electron.
const paths = defaultWindowPaths(dirname(fileURLToPath(import.meta.url)));
const args = tandemArguments(process.argv, process.defaultApp === true);

if (args.length > 0) void runCommandLine(args, paths.rendererDir);
else startDesktopApp(paths);
