/** How counts and sizes are written in excerpt markers and headers: "1,234", "3 lines", "56.7 KB". */

import { formatCount } from '../../shared/countWords';

export { agree, formatCount, plural } from '../../shared/countWords';

/** "512 B", "56.7 KB", "3.2 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatCount(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
}
