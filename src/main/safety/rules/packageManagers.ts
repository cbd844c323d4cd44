/** Rules for package managers and build tools. */
import { parseOptions } from './arguments';
import { cloudRule } from './infrastructure';
import type { Rule } from './rule';

/** A tool whose first operand is a verb: GREEN for the reading verbs. */
export const verbRule =
  (read: RegExp, what: string, valueOptions = ''): Rule =>
  (inv, out) => {
    const o = parseOptions(inv.args, { shortValue: valueOptions, stopAtOperand: true });
    const [first, second] = o.operands;
    if (!first) return o.flags.size === 0 || o.has('--help', '-h', '--version', '-v', '-V') ? out.green(`${inv.name} only prints help`) : out.yellow(`${inv.name} ${what}`);
    const verb = first.value ?? '';
    const key = `${verb} ${second?.value ?? ''}`.trim();
    if (read.test(verb) || read.test(key)) return out.green(`${inv.name} ${verb} only reads`);
    out.yellow(`${inv.name} ${verb} ${what}`);
  };

export const npmRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { stopAtOperand: true, shortValue: 'w', longValue: ['workspace', 'prefix', 'registry', 'loglevel'] });
  const [verb = '', ...rest] = o.operands.map((a) => a.value ?? '');
  const restFlags = rest.filter((r) => r.startsWith('-'));
  const restWords = rest.filter((r) => !r.startsWith('-'));
  if (verb === '' || /^(ls|list|ll|la|view|info|show|v|outdated|search|s|se|find|help|root|prefix|bin|whoami|explain|why|fund|doctor|query|ping|get|help-search)$/.test(verb)) return out.green(`${inv.name} ${verb} only reads`.trimEnd());
  if (verb === 'config' && /^(get|list|ls)$/.test(restWords[0] ?? '')) return out.green(`${inv.name} config ${restWords[0] as string} only reads`);
  if ((verb === 'run' || verb === 'run-script') && restWords.length === 0) return out.green(`${inv.name} run only lists scripts`);
  if (verb === 'audit' && !restWords.includes('fix')) return out.green(`${inv.name} audit only reads`);
  if (verb === 'version' && restWords.length === 0) return out.green(`${inv.name} version only prints versions`);
  if ((verb === 'publish' || verb === 'pack') && restFlags.includes('--dry-run')) return out.yellow(`${inv.name} ${verb} --dry-run runs lifecycle scripts`);
  if (verb === 'unpublish') return out.yellow(`${inv.name} unpublish removes a published package from the registry`);
  if (verb === 'publish') return out.yellow(`${inv.name} publish publishes a package to the registry`);
  out.yellow(`${inv.name} ${verb} installs packages or runs project scripts`);
};

export const PACKAGE_READ: Readonly<Record<string, RegExp>> = {
  yarn: /^(list|info|why|outdated|versions|licenses|config (get|list)|help|bin|workspaces info|npm info)$/,
  pnpm: /^(ls|list|ll|why|outdated|licenses|view|info|config (get|list)|root|bin|help|audit)$/,
  bun: /^(pm ls|outdated|pm bin|pm hash|help)$/,
  pip: /^(list|show|freeze|check|help|inspect|debug|index|cache (dir|info|list)|config (list|get|debug))$/,
  pip3: /^(list|show|freeze|check|help|inspect|debug|index|cache (dir|info|list)|config (list|get|debug))$/,
  uv: /^(pip (list|show|freeze|tree|check)|tree|version|python list|tool list|help)$/,
  cargo: /^(tree|metadata|search|version|--list|help|locate-project|pkgid|verify-project|read-manifest)$/,
  go: /^(version|list|doc|help|env|mod (graph|why|verify))$/,
  gem: /^(list|search|info|environment|contents|dependency|query|which|specification|help)$/,
  brew: /^(list|ls|info|search|outdated|deps|uses|leaves|config|doctor|desc|cat|log|--prefix|--cellar|--repository|--caskroom|--cache|commands|tap-info|missing|shellenv|help)$/,
  apt: /^(list|show|search|policy|depends|rdepends|showsrc|changelog|help)$/,
  'apt-cache': /^(?!gencaches).*$/,
  dnf: /^(list|info|search|repolist|provides|check-update|history|deplist|repoquery|help)$/,
  yum: /^(list|info|search|repolist|provides|check-update|history|deplist|help)$/,
  zypper: /^(search|se|info|if|list-updates|lu|repos|lr|help)$/,
  snap: /^(list|info|find|version|services|changes|connections|help)$/,
  flatpak: /^(list|info|search|remotes|history|help)$/,
  gh: /^((pr|issue|run|release|repo|workflow|gist|label|secret|variable|cache) (list|view|status|diff|checks)|auth status|status|help|search \w+)$/,
  glab: /^((mr|issue|ci|release|repo) (list|view|status|diff)|auth status|help)$/,
  poetry: /^(show|check|search|version|env (info|list)|help)$/,
  conda: /^(list|info|search|env list|config --show|help)$/,
  rustup: /^(show|which|toolchain list|target list|component list|help)$/,
};

export const packageRule: Rule = (inv, out, env) => {
  const read = PACKAGE_READ[inv.name];
  const values = inv.args.map((a) => a.value ?? '');
  const words = values.filter((v) => !v.startsWith('-'));
  const key1 = words[0] ?? '';
  const key2 = words.slice(0, 2).join(' ');
  const key3 = words.slice(0, 3).join(' ');
  if (inv.name === 'go' && key1 === 'env' && values.some((v) => v === '-w' || v === '-u')) return out.yellow('go env -w changes Go settings');
  if (inv.name === 'yarn' && (words.length === 0 || key1 === 'install')) return out.yellow('yarn installs dependencies (and runs their install scripts)');
  if (words.length === 0 && values.every((v) => /^(-h|--help|-v|-V|--version)$/.test(v))) return out.green(`${inv.name} only prints help`);
  if (read && (read.test(key1) || read.test(key2) || read.test(key3))) return out.green(`${inv.name} ${key1} only reads`);
  if (inv.name === 'gh' || inv.name === 'glab') return cloudRule(inv, out, env);
  out.yellow(`${inv.name} ${key1} installs packages or runs project code`.replace('  ', ' '));
};

export const dpkgRule: Rule = (inv, out) => {
  const values = inv.args.map((a) => a.value ?? '');
  if (inv.name === 'dpkg-query' || values.some((v) => /^(-l|-L|-s|-S|-p|-c|-I|--list|--listfiles|--status|--search|--print-avail|--get-selections|--print-architecture|--contents|--info|--audit|--version|--help)$/.test(v))) return out.green(`${inv.name} only reads`);
  out.yellow(`${inv.name} installs or removes packages`);
};

export const rpmRule: Rule = (inv, out) => {
  if (inv.args.some((a) => /^(-q\w*|--query|--verify|-V|--version|--help|--showrc)$/.test(a.value ?? ''))) return out.green('rpm only queries');
  out.yellow('rpm installs or removes packages');
};

export const pacmanRule: Rule = (inv, out) => {
  if (inv.args.some((a) => /^-(Q\w*|S[sil]\w*|Si|Ss|Sl|F\w*|V|h)$|^--(query|version|help)$/.test(a.value ?? ''))) return out.green(`${inv.name} only queries`);
  out.yellow(`${inv.name} installs or removes packages`);
};

/** Build and test tools: they run project code (scripts, tests, plugins), which can do anything. */
export const runsProjectCode: Rule = (inv, out) => out.yellow(`${inv.name} runs project code (builds, tests, scripts)`);
