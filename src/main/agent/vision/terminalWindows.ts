/**
 * Terminal emulators by their window class or instance (lower case). Keys typed into one run
 * commands that never pass the approval gate, so the agent does not type into them; Tandem's
 * own window is one, and so is a browser window showing Tandem's page.
 */
const TERMINALS = new Set([
  'tandem',
  'xterm',
  'uxterm',
  'urxvt',
  'rxvt',
  'gnome-terminal',
  'gnome-terminal-server',
  'kgx',
  'konsole',
  'xfce4-terminal',
  'mate-terminal',
  'lxterminal',
  'qterminal',
  'terminator',
  'tilix',
  'terminology',
  'sakura',
  'guake',
  'tilda',
  'yakuake',
  'alacritty',
  'kitty',
  'wezterm',
  'wezterm-gui',
  'org.wezfurlong.wezterm',
  'foot',
  'footclient',
  'st',
  'st-256color',
  'cool-retro-term',
  'hyper',
  'tabby',
  'warp',
  'wave',
  'waveterm',
  'ghostty',
  'com.mitchellh.ghostty',
  'contour',
  'blackbox',
  'ptyxis',
  'iterm2',
  'terminal',
]);

/**
 * Tandem's page in a browser (browser mode): the page titles itself "<tab> — Tandem", and the
 * browser adds its own name ("… — Tandem - Chromium").
 */
const TANDEM_PAGE_TITLE = /(^|\s—\s)Tandem(\s|$)/;

export function isTerminalWindow(window: { application: string; instance: string; title: string }): boolean {
  return [window.application, window.instance].some((name) => TERMINALS.has(name.trim().toLowerCase())) || TANDEM_PAGE_TITLE.test(window.title);
}
