import type { ITheme } from '@xterm/xterm';
import type { ResolvedTheme } from '../settings/settingsStore';

const dark: ITheme = {
  background: '#16181d',
  foreground: '#d8dee9',
  cursor: '#e5e9f0',
  cursorAccent: '#16181d',
  selectionBackground: '#3b4a66',
  selectionInactiveBackground: '#2c3546',
  scrollbarSliderBackground: 'rgba(216, 222, 233, 0.18)',
  scrollbarSliderHoverBackground: 'rgba(216, 222, 233, 0.3)',
  scrollbarSliderActiveBackground: 'rgba(216, 222, 233, 0.4)',
  black: '#1e2229',
  red: '#e06c75',
  green: '#98c379',
  yellow: '#e5c07b',
  blue: '#61afef',
  magenta: '#c678dd',
  cyan: '#56b6c2',
  white: '#c8ccd4',
  brightBlack: '#5c6370',
  brightRed: '#ef7f88',
  brightGreen: '#a9d48a',
  brightYellow: '#f0cc8c',
  brightBlue: '#7dc0f7',
  brightMagenta: '#d48ceb',
  brightCyan: '#6ccad6',
  brightWhite: '#eef1f5',
};

const light: ITheme = {
  background: '#fbfbfa',
  foreground: '#2b2f36',
  cursor: '#2b2f36',
  cursorAccent: '#fbfbfa',
  selectionBackground: '#c5d8f6',
  selectionInactiveBackground: '#dde6f3',
  scrollbarSliderBackground: 'rgba(43, 47, 54, 0.18)',
  scrollbarSliderHoverBackground: 'rgba(43, 47, 54, 0.3)',
  scrollbarSliderActiveBackground: 'rgba(43, 47, 54, 0.4)',
  black: '#2b2f36',
  red: '#c9303c',
  green: '#3f8a2e',
  yellow: '#9a6b00',
  blue: '#2463c4',
  magenta: '#9b3bb8',
  cyan: '#177f8c',
  white: '#d4d6da',
  brightBlack: '#6b7280',
  brightRed: '#dc4550',
  brightGreen: '#4f9e3c',
  brightYellow: '#b58300',
  brightBlue: '#3a78d8',
  brightMagenta: '#ae50cb',
  brightCyan: '#2293a1',
  brightWhite: '#ffffff',
};

export function terminalTheme(theme: ResolvedTheme): ITheme {
  return theme === 'dark' ? dark : light;
}

/** Colours for find-bar match decorations (the search addon wants #RRGGBB). */
export function searchDecorationColors(theme: ResolvedTheme) {
  return theme === 'dark'
    ? {
        matchBackground: '#4b4220',
        matchBorder: '#8a6d1f',
        matchOverviewRuler: '#e5c07b',
        activeMatchBackground: '#6e5518',
        activeMatchBorder: '#e5c07b',
        activeMatchColorOverviewRuler: '#f0cc8c',
      }
    : {
        // Strong enough to find at a glance on the near-white background, dark text still readable on it.
        matchBackground: '#f2c744',
        matchBorder: '#b58300',
        matchOverviewRuler: '#b58300',
        activeMatchBackground: '#f59e0b',
        activeMatchBorder: '#8a5a00',
        activeMatchColorOverviewRuler: '#8a5a00',
      };
}
