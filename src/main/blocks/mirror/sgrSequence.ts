import type { CellStyle } from './xtermInternals';

/**
 * One SGR sequence that sets exactly `style`, starting from a reset. Palette colours 0–15
 * are written as 30–37/90–97 whether they were set that way or as `38;5;n` (they look the
 * same), so equal-looking styles give the same sequence.
 */
export function sgrSequence(style: CellStyle): string {
  const params = ['0'];
  if (style.isBold()) params.push('1');
  if (style.isDim()) params.push('2');
  if (style.isItalic()) params.push('3');
  if (style.isUnderline()) params.push('4');
  if (style.isBlink()) params.push('5');
  if (style.isInverse()) params.push('7');
  if (style.isInvisible()) params.push('8');
  if (style.isStrikethrough()) params.push('9');
  if (style.isOverline()) params.push('53');
  params.push(...colorParams(style.isFgRGB(), style.isFgPalette(), style.getFgColor(), 30));
  params.push(...colorParams(style.isBgRGB(), style.isBgPalette(), style.getBgColor(), 40));
  return `\x1b[${params.join(';')}m`;
}

function colorParams(rgb: boolean, palette: boolean, color: number, base: 30 | 40): string[] {
  if (rgb) return [`${base + 8}`, '2', `${(color >> 16) & 0xff}`, `${(color >> 8) & 0xff}`, `${color & 0xff}`];
  if (!palette) return [];
  if (color < 8) return [`${base + color}`];
  if (color < 16) return [`${base + 60 + color - 8}`];
  return [`${base + 8}`, '5', `${color}`];
}
