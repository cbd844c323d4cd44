import picomatch from 'picomatch';

/**
 * Which commands are not stored, as the shell leaves them out of its own history: a line that
 * starts with a blank (`HISTCONTROL=ignorespace`, zsh's `HIST_IGNORE_SPACE`, fish's leading
 * space), and `[history] exclude` patterns — globs where `*` also spans spaces and slashes, or
 * `/regex/` — matched against the whole command.
 */
export class CommandExclusion {
  private readonly matchers: ((command: string) => boolean)[];

  constructor(readonly patterns: readonly string[]) {
    this.matchers = patterns.map(matcherOf);
  }

  excludes(command: string): boolean {
    if (/^[ \t]/.test(command)) return true;
    return this.matchers.some((matches) => matches(command));
  }
}

function matcherOf(pattern: string): (command: string) => boolean {
  if (pattern.length > 2 && pattern.startsWith('/') && pattern.endsWith('/')) {
    // The settings refuse a pattern that does not compile, so this one does.
    const regex = new RegExp(pattern.slice(1, -1));
    return (command) => regex.test(command);
  }
  return picomatch(pattern, { bash: true, dot: true });
}
