import { contextBridge, ipcRenderer } from 'electron';

// The only things the page gets: which platform it runs on, and a way to ask for its
// MessagePort to the engine. The port itself is posted into the page, so bulk pty data
// never crosses contextBridge or ipcRenderer per chunk.
contextBridge.exposeInMainWorld('tandemElectron', {
  platform: process.platform,
  connect: () => ipcRenderer.send('tandem:connect'),
});

ipcRenderer.on('tandem:port', (event) => {
  window.postMessage({ type: 'tandem-port' }, '*', event.ports);
});
