import { Menu, type MenuItemConstructorOptions } from 'electron';

/**
 * No default menu: its accelerators (Ctrl+W closes the window and every shell, Ctrl+R
 * reloads, Ctrl+Shift+I opens DevTools) would fire while a terminal has focus, because xterm
 * lets Ctrl+Shift+letter through. Every Tandem chord is handled by the page itself. macOS
 * needs an application menu for Quit, Hide and the Edit roles (copy/paste in text fields),
 * so it gets a minimal one without Close, Reload or DevTools.
 */
export function installApplicationMenu(platform: NodeJS.Platform): void {
  Menu.setApplicationMenu(platform === 'darwin' ? Menu.buildFromTemplate(macMenuTemplate()) : null);
}

export function macMenuTemplate(): MenuItemConstructorOptions[] {
  return [
    {
      role: 'appMenu',
      submenu: [{ role: 'about' }, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' }],
    },
    {
      role: 'editMenu',
      submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }],
    },
    { role: 'windowMenu', submenu: [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }] },
  ];
}
