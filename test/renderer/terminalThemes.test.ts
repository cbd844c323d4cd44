import { describe, expect, it } from 'vitest';
import { searchDecorationColors, terminalTheme } from '../../src/renderer/src/terminal/terminalThemes';

/** WCAG relative luminance and contrast ratio of two #RRGGBB colours. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe('find highlight colours', () => {
  for (const theme of ['dark', 'light'] as const) {
    it(`stand out from the ${theme} terminal background, and the text on them stays readable`, () => {
      const { background, foreground } = terminalTheme(theme);
      const colors = searchDecorationColors(theme);
      expect(contrast(colors.matchBackground, background!)).toBeGreaterThanOrEqual(1.5);
      expect(contrast(colors.activeMatchBackground, background!)).toBeGreaterThanOrEqual(1.8);
      // The current match differs from the others.
      expect(contrast(colors.activeMatchBackground, colors.matchBackground)).toBeGreaterThanOrEqual(1.2);
      expect(contrast(foreground!, colors.matchBackground)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(foreground!, colors.activeMatchBackground)).toBeGreaterThanOrEqual(4.5);
    });
  }
});
