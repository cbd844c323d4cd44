import { takeBrowserToken } from './browserToken';
import { electronPortChannelFactory } from './electronPortChannel';
import { EngineConnection } from './engineConnection';
import { webSocketChannelFactory } from './webSocketChannel';

/** Electron when the preload bridge is there, browser mode otherwise. */
export function openEngineConnection(): EngineConnection {
  const bridge = window.tandemElectron;
  if (bridge) return new EngineConnection(electronPortChannelFactory(bridge));
  const token = takeBrowserToken();
  return new EngineConnection(webSocketChannelFactory(() => token));
}
