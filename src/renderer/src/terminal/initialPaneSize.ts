import { currentAppearance } from './terminalAppearance';

/** Room taken by the tab bar, status bar and pane padding, in CSS pixels. */
const CHROME_HEIGHT = 72;
const CHROME_WIDTH = 24;

/**
 * The pty needs a size before its terminal is laid out; guess from the window and the font.
 * The pane's first fit sends the exact size right after.
 */
export function estimatePaneSize(widthFraction = 1, heightFraction = 1): { cols: number; rows: number } {
  const { fontSize } = currentAppearance();
  const cellWidth = fontSize * 0.6;
  const cellHeight = Math.ceil(fontSize * 1.2);
  const width = Math.max(0, window.innerWidth - CHROME_WIDTH) * widthFraction;
  const height = Math.max(0, window.innerHeight - CHROME_HEIGHT) * heightFraction;
  return {
    cols: Math.max(20, Math.floor(width / cellWidth)),
    rows: Math.max(5, Math.floor(height / cellHeight)),
  };
}
