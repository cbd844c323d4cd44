import type { ClassifiedPart, RiskLevel } from '../riskTypes';

/** What the policy looks at in a command: its text, where it runs, its risk and its parts. */
export interface CommandFacts {
  command: string;
  cwd: string;
  home: string;
  level: RiskLevel;
  parts: readonly ClassifiedPart[];
}

const NETWORK_COMMANDS: ReadonlySet<string> = new Set([
  'curl', 'wget', 'http', 'https', 'xh', 'aria2c', 'ssh', 'scp', 'sftp', 'rsync', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ftp', 'lftp', 'mosh',
]);

/** Programs whose every operand is a URL, with their options that take a file name instead (`curl -o page.html`, `wget -O x.tgz`). */
const URL_PROGRAMS: ReadonlyMap<string, RegExp> = new Map([
  ['curl', /^(?:-[a-zA-Z]*[oTKbcDE]|--(?:output|upload-file|config|cookie|cookie-jar|dump-header|cacert|capath|cert|key|netrc-file|trace|trace-ascii|stderr))$/],
  ['wget', /^(?:-[a-zA-Z]*[OoaiP]|--(?:output-document|output-file|append-output|input-file|directory-prefix|load-cookies|save-cookies|ca-certificate|certificate|private-key))$/],
  ['aria2c', /^(?:-[a-zA-Z]*[odi]|--(?:out|dir|input-file))$/],
  ['http', /^(?:-[a-zA-Z]*o|--output)$/],
  ['https', /^(?:-[a-zA-Z]*o|--output)$/],
  ['xh', /^(?:-[a-zA-Z]*o|--output)$/],
]);

/**
 * Subcommands that reach the network, by tool, and the host they reach when the command names
 * none (a package registry). `git push origin` names no host: it counts as unknown.
 */
const NETWORK_SUBCOMMANDS: ReadonlyMap<string, { subcommands: ReadonlySet<string>; defaultHost?: string }> = new Map([
  ['git', { subcommands: new Set(['clone', 'fetch', 'pull', 'push', 'ls-remote']) }],
  ['npm', { subcommands: new Set(['install', 'i', 'ci', 'add', 'update', 'publish', 'view', 'info']), defaultHost: 'registry.npmjs.org' }],
  ['pnpm', { subcommands: new Set(['install', 'i', 'add', 'update', 'publish']), defaultHost: 'registry.npmjs.org' }],
  ['yarn', { subcommands: new Set(['install', 'add', 'upgrade', 'publish']), defaultHost: 'registry.yarnpkg.com' }],
  ['pip', { subcommands: new Set(['install', 'download']), defaultHost: 'pypi.org' }],
  ['pip3', { subcommands: new Set(['install', 'download']), defaultHost: 'pypi.org' }],
  ['cargo', { subcommands: new Set(['install', 'fetch', 'update', 'publish']), defaultHost: 'crates.io' }],
  ['docker', { subcommands: new Set(['pull', 'push', 'login']), defaultHost: 'docker.io' }],
  ['podman', { subcommands: new Set(['pull', 'push', 'login']), defaultHost: 'docker.io' }],
]);

/** A part that reaches the network, and the host it reaches when it names none (undefined: unknown). */
function networkPart(part: ClassifiedPart): { defaultHost?: string } | undefined {
  if (NETWORK_COMMANDS.has(part.command)) return {};
  const tool = NETWORK_SUBCOMMANDS.get(part.command);
  const subcommand = part.words.slice(1).find((word) => !word.startsWith('-'));
  if (!tool || subcommand === undefined || !tool.subcommands.has(subcommand)) return undefined;
  return { defaultHost: tool.defaultHost };
}

/** The command reaches the network (a downloader, ssh, git fetch, a package install …), and the hosts it names. */
export function networkUse(facts: CommandFacts): { hosts: string[] } | undefined {
  const networkParts = facts.parts.map(networkPart).filter((part) => part !== undefined);
  if (networkParts.length === 0) return undefined;
  const hosts = new Set<string>();
  // The userinfo ends before `/`, `?` or `#`: in `https://evil.example#@api.github.com` the host is evil.example.
  for (const match of facts.command.matchAll(/\b[a-z][a-z0-9+.-]*:\/\/(?:[^\s/?#@'"]*@)?(\[[0-9a-f:.]+\]|[^\s/:'"?#]+)/gi)) {
    hosts.add(match[1]!.toLowerCase());
  }
  for (const match of facts.command.matchAll(/(?:^|\s)(?:[\w.-]+@)?([a-z0-9][\w.-]*\.[a-z][\w-]*|[a-z0-9][\w.-]*@[\w.-]+):/gi)) {
    hosts.add(match[1]!.replace(/^.*@/, '').toLowerCase());
  }
  for (const match of facts.command.matchAll(/(?:^|\s)[\w.-]+@([a-z0-9][\w.-]*)/gi)) hosts.add(match[1]!.toLowerCase());
  // `curl evil.example/x https://api.github.com`: an argument without a scheme is a URL too (a file an option names is not).
  for (const part of facts.parts) {
    const fileOption = URL_PROGRAMS.get(part.command);
    if (!fileOption) continue;
    const args = part.words.slice(1);
    args.forEach((word, i) => {
      if (word.startsWith('-') || fileOption.test(args[i - 1] ?? '') || /^[a-z][a-z0-9+.-]*:\/\//i.test(word)) return;
      const bare = /^(?:[^\s/?#@]*@)?((?:[a-z0-9][\w-]*\.)+[a-z][\w-]*|\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?(?:[/?#]|$)/i.exec(word);
      if (bare) hosts.add(bare[1]!.toLowerCase());
    });
  }
  if (hosts.size === 0) for (const part of networkParts) if (part.defaultHost) hosts.add(part.defaultHost);
  if (hosts.size === 0) {
    // `ssh build-box uptime`: the first word after ssh's options names the host.
    const ssh = /(?:^|[\s;&|(])(?:ssh|mosh)((?:\s+-[A-Za-z]+(?:\s+\S+)?)*)\s+([\w.-]+)/.exec(facts.command);
    if (ssh) hosts.add(ssh[2]!.toLowerCase());
  }
  return { hosts: [...hosts] };
}

/** The hosts one parsed command reaches, or undefined when it is not a network command. */
export function partHosts(part: ClassifiedPart): string[] | undefined {
  return networkUse({ command: part.words.join(' '), cwd: '', home: '', level: part.level, parts: [part] })?.hosts;
}

/** Words of the command that name paths (`~/…`, `/…`, `./…`, `a/b`), unquoted. */
export function namedPaths(command: string): string[] {
  const paths = new Set<string>();
  for (const match of command.matchAll(/(?:^|[\s=<>])(['"]?)((?:~|\.{1,2}|\$HOME|\$\{HOME\})?\/[^\s'";&|<>()`]*|(?:~|\.\.?)(?=[\s'";&|<>()`]|$)|[\w.-]+\/[^\s'";&|<>()`]*)\1/g)) {
    const path = match[2]!;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) continue;
    paths.add(path);
  }
  // `wc -l < .env`: what `<` reads is a path, with or without a slash.
  for (const match of command.matchAll(/(?:^|[^<])<\s*(['"]?)([^\s'";&|<>()`]+)\1/g)) paths.add(match[2]!);
  return [...paths];
}
