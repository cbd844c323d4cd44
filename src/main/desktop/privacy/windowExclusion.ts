/**
 * Windows never captured or acted on: password managers and password prompts by default;
 * `[approval.vision] exclude` in policy.toml replaces the list. A pattern matches a window's
 * title, WM_CLASS class or instance, case-insensitively, as whole words ("Keeper" matches
 * "Keeper Desktop" and "Keeper", not "Zookeeper"); `*` and `?` are wildcards within it.
 */
export const DEFAULT_EXCLUDED_WINDOWS: readonly string[] = [
  'KeePassXC',
  'KeePass',
  'KeePass2',
  'KeeWeb',
  '1Password',
  'Bitwarden',
  'LastPass',
  'Dashlane',
  'Enpass',
  'NordPass',
  'Proton Pass',
  'RoboForm',
  'Keeper',
  'Password Safe',
  'pwsafe',
  'QtPass',
  'Seahorse',
  'Passwords and Keys',
  'KWalletManager',
  'KWallet',
  'Keychain Access',
  'Authy',
  'Yubico Authenticator',
  'pinentry*',
  'gcr-prompter',
  'ssh-askpass',
  '*polkit*',
];

export interface WindowIdentity {
  title: string;
  application: string;
  instance: string;
}

export class WindowExclusion {
  private matchers: { pattern: string; regex: RegExp }[] = [];
  private compiledFrom: readonly string[] | undefined;

  /** `patterns`: the list, or where to read it each time (policy.toml, which may change while Tandem runs). */
  constructor(private readonly patterns: readonly string[] | (() => readonly string[]) = DEFAULT_EXCLUDED_WINDOWS) {}

  /** The pattern that excludes this window, or undefined when it may be seen. */
  matchFor(window: WindowIdentity): string | undefined {
    const names = [window.title, window.application, window.instance];
    return this.current().find(({ regex }) => names.some((name) => regex.test(name)))?.pattern;
  }

  excludes(window: WindowIdentity): boolean {
    return this.matchFor(window) !== undefined;
  }

  private current(): { pattern: string; regex: RegExp }[] {
    const patterns = typeof this.patterns === 'function' ? this.patterns() : this.patterns;
    if (patterns !== this.compiledFrom) {
      this.compiledFrom = patterns;
      this.matchers = patterns
        .map((pattern) => pattern.trim())
        .filter((pattern) => pattern.length > 0)
        .map((pattern) => ({ pattern, regex: wholeWordPattern(pattern) }));
    }
    return this.matchers;
  }
}

function wholeWordPattern(pattern: string): RegExp {
  const body = pattern
    .split(/([*?])/)
    .map((part) => (part === '*' ? '.*' : part === '?' ? '.' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`(?:^|[^\\p{L}\\p{N}])${body}(?:$|[^\\p{L}\\p{N}])`, 'iu');
}
