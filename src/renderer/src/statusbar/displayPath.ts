/** A path as a terminal user writes it: `~` for the home directory and what lies under it. */
export function displayPath(path: string, home: string): string {
  const base = home.replace(/\/+$/, '');
  if (!base || !path) return path;
  if (path === base || path === `${base}/`) return '~';
  return path.startsWith(`${base}/`) ? `~${path.slice(base.length)}` : path;
}
