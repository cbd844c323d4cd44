/** Rules for containers and clusters: docker, podman, compose, kubectl, helm. */
import { literalArg, parseOptions, shown, type Arg, type OptionSpec } from './arguments';
import { SYSTEM_DIRS, isDevice } from './pathChecks';
import { patternCovers, patternWithin, unescapeGlob } from './pathPatterns';
import type { Rule, RuleEnv } from './rule';
import type { Verdict } from './verdict';
import { resolveWord } from './wordPaths';

const DOCKER_MANAGEMENT: ReadonlySet<string> = new Set(['container', 'image', 'volume', 'network', 'system', 'builder', 'buildx', 'context', 'plugin', 'secret', 'config', 'node', 'service', 'stack', 'swarm', 'manifest', 'trust', 'checkpoint']);
const DOCKER_READ = /^(ps|images|logs|inspect|version|info|stats|top|port|diff|history|search|events|(container|image|volume|network|context|node|service|stack|secret|config|plugin|builder|buildx) (ls|list|ps|inspect|logs|top|port|stats|diff|history|show|services|du|version)|system (df|info|events)|manifest inspect|trust inspect)$/;
const RUN_VALUE_OPTIONS = ['volume', 'mount', 'env', 'env-file', 'publish', 'name', 'workdir', 'user', 'network', 'net', 'pid', 'ipc', 'uts', 'userns', 'cap-add', 'cap-drop', 'device', 'security-opt', 'entrypoint', 'label', 'hostname', 'memory', 'cpus', 'platform', 'restart', 'add-host', 'dns', 'tmpfs', 'volumes-from', 'log-driver', 'log-opt', 'ulimit', 'gpus', 'cgroupns', 'runtime', 'shm-size', 'stop-signal', 'health-cmd', 'attach', 'cidfile', 'expose', 'link', 'ip', 'label-file', 'pull', 'group-add', 'sysctl', 'storage-opt', 'cpu-shares', 'cpuset-cpus', 'memory-swap', 'annotation', 'detach-keys', 'mac-address', 'network-alias', 'pod', 'arch', 'os'];

/** `docker run -v /:/host --privileged …`: flags that hand the host to the container. */
function containerPrivileges(args: Arg[], out: Verdict, env: RuleEnv, tool: string): void {
  const o = parseOptions(args, { short: { v: 'volume', e: 'env', p: 'publish', w: 'workdir', u: 'user', l: 'label', h: 'hostname', m: 'memory', a: 'attach', c: 'cpu-shares' }, shortValue: 'vepwulhmac', long: Object.fromEntries([...RUN_VALUE_OPTIONS, 'privileged'].map((n) => [n, n])), longValue: RUN_VALUE_OPTIONS, stopAtOperand: true });
  if (o.has('privileged')) out.red(`${tool} --privileged gives the container full control of the host`);
  for (const ns of ['pid', 'userns', 'ipc', 'uts']) if ((o.values.get(ns) ?? []).some((a) => a.value === 'host')) out.red(`${tool} --${ns}=host shares the host's ${ns} namespace with the container`);
  for (const cap of o.values.get('cap-add') ?? []) if (/^(ALL|SYS_ADMIN|SYS_MODULE|SYS_PTRACE|SYS_RAWIO|DAC_READ_SEARCH)$/i.test((cap.value ?? '').replace(/^CAP_/i, ''))) out.red(`${tool} --cap-add=${shown(cap)} gives the container administrator powers on the host`);
  for (const device of o.values.get('device') ?? []) if (isDevice((device.value ?? '').split(':')[0] ?? '')) out.red(`${tool} --device=${shown(device)} gives the container a raw device`);
  const sources: Arg[] = [];
  for (const v of o.values.get('volume') ?? []) if (v.value?.includes(':') && /^[/~.$]/.test(v.value)) sources.push(literalArg(v.value.split(':')[0] as string, !v.value.startsWith('~')));
  for (const m of o.values.get('mount') ?? []) {
    const src = /(?:^|,)(?:source|src)=([^,]+)/.exec(m.value ?? '')?.[1];
    if (src) sources.push(literalArg(src));
  }
  for (const src of sources) {
    const known = resolveWord(src.word, env.paths).known.map(unescapeGlob);
    if (known.some((p) => p === '/' || SYSTEM_DIRS.includes(p) || p === '/var/run/docker.sock' || p === '/run/docker.sock')) out.red(`${tool} mounts ${shown(src)} of the host into the container: it can change the host's system`);
    else if (known.some((p) => env.paths.protectedPaths.some((pp) => patternCovers(p, pp) || patternWithin(p, pp)))) out.yellow(`${tool} mounts ${shown(src)} (with protected files) into the container`);
  }
}

export const dockerRule: Rule = (inv, out, env) => {
  const g = parseOptions(inv.args, { shortValue: 'Hcl', longValue: ['host', 'context', 'config', 'log-level', 'tlscacert', 'tlscert', 'tlskey'], stopAtOperand: true });
  const [first, ...rest] = g.operands;
  if (!first) return out.green(`${inv.name} only prints help`);
  if (first.value === undefined) return out.yellow(`${inv.name} subcommand known only at run time`);
  if (first.value === 'compose') return composeRule({ name: `${inv.name} compose`, args: rest, stdin: inv.stdin }, out, env);
  const management = DOCKER_MANAGEMENT.has(first.value);
  const verb = management ? (rest[0]?.value ?? '') : first.value;
  const args = management ? rest.slice(1) : rest;
  const key = management ? `${first.value} ${verb}` : verb;
  const flags = parseOptions(args).flags;
  if (DOCKER_READ.test(key)) return out.green(`${inv.name} ${key} only reads`);
  if (key === 'system prune' && (flags.has('--volumes') || flags.has('volumes'))) return out.red(`${inv.name} system prune --volumes deletes the data in every unused volume`);
  if (key === 'volume prune') return out.red(`${inv.name} volume prune deletes the data in unused volumes`);
  if (key === 'system prune') return out.yellow(`${inv.name} system prune deletes stopped containers, unused networks and images`);
  if (key === 'run' || key === 'create' || key === 'container run' || key === 'container create') {
    containerPrivileges(args, out, env, `${inv.name} ${verb}`);
    return out.yellow(`${inv.name} ${verb} starts a container`);
  }
  if (key === 'volume rm') return out.yellow(`${inv.name} volume rm deletes volumes and their data`);
  out.yellow(`${inv.name} ${key} changes containers, images or their settings`);
};

export const composeRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { shortValue: 'fp', longValue: ['file', 'project-name', 'profile', 'env-file', 'project-directory', 'ansi', 'parallel', 'progress'], stopAtOperand: true });
  const verb = o.operands[0]?.value ?? '';
  if (/^(ps|logs|config|ls|images|top|version|events|port|convert|help|)$/.test(verb)) return out.green(`${inv.name} ${verb} only reads`.trimEnd());
  if (verb === 'down' && parseOptions(o.operands.slice(1), { short: { v: 'volumes' }, long: { volumes: 'volumes' } }).has('volumes')) return out.yellow(`${inv.name} down -v deletes the project's volumes and their data`);
  out.yellow(`${inv.name} ${verb} changes containers`);
};

/** kubectl's options that take a value, global ones (`--context prod`) included. */
const KUBECTL_VALUE_OPTIONS = [
  'namespace', 'context', 'cluster', 'user', 'kubeconfig', 'server', 'token', 'as', 'as-group', 'request-timeout', 'selector', 'output', 'filename', 'container',
  'field-selector', 'sort-by', 'template', 'since', 'tail', 'grace-period', 'timeout', 'kustomize', 'cascade', 'type', 'replicas', 'image', 'since-time',
  'chunk-size', 'label-columns', 'certificate-authority', 'client-certificate', 'client-key', 'tls-server-name', 'cache-dir', 'v',
];
const KUBECTL_SPEC: OptionSpec = {
  short: { n: 'namespace', A: 'all-namespaces', l: 'selector', o: 'output', f: 'filename', c: 'container', s: 'server', v: 'v', R: 'recursive', k: 'kustomize', w: 'watch', L: 'label-columns', i: 'stdin', t: 'tty' },
  shortValue: 'nlofcsvkL',
  long: {
    ...Object.fromEntries(KUBECTL_VALUE_OPTIONS.map((name) => [name, name])),
    'all-namespaces': 'all-namespaces',
    all: 'all',
    recursive: 'recursive',
    force: 'force',
    'dry-run': 'dry-run',
  },
  longValue: KUBECTL_VALUE_OPTIONS,
};
const KUBECTL_READ = /^(get|describe|logs|version|top|explain|api-resources|api-versions|cluster-info|events|wait|completion|kustomize|config (view|get-contexts|current-context|get-clusters|get-users)|auth (can-i|whoami)|plugin list|rollout (status|history)|help)$/;
const KUBE_WIDE_TYPES = /^(namespaces?|ns|nodes?|no|crds?|customresourcedefinitions?(\.apiextensions\.k8s\.io)?|pv|persistentvolumes?|clusterroles?|clusterrolebindings?|all)$/;

export const kubectlRule: Rule = (inv, out, env) => {
  const dash = inv.args.findIndex((a) => a.value === '--');
  const before = dash >= 0 ? inv.args.slice(0, dash) : inv.args;
  const o = parseOptions(before, KUBECTL_SPEC);
  out.addFlags(o.display);
  const [verb, ...operands] = o.operands.map((a) => a.value ?? '');
  if (verb === undefined) return out.green('kubectl only prints help');
  const key = verb === 'config' || verb === 'auth' || verb === 'plugin' || verb === 'rollout' ? `${verb} ${operands[0] ?? ''}` : verb;
  if (KUBECTL_READ.test(key) && !o.has('dry-run')) return out.green(`kubectl ${key} only reads`);
  if (verb === 'delete') {
    const types = operands.flatMap((t) => t.split(',')).map((t) => t.split('/')[0] as string);
    const wide = types.find((t) => KUBE_WIDE_TYPES.test(t));
    if (o.has('dry-run')) return out.green('kubectl delete --dry-run only checks');
    if (wide) return out.red(`kubectl delete ${wide} deletes cluster-wide resources (everything in them goes too)`);
    if (o.has('all', 'all-namespaces')) return out.red(`kubectl delete ${o.has('all') ? '--all' : '--all-namespaces'} deletes every matching resource`);
    return out.yellow('kubectl delete deletes resources');
  }
  if (verb === 'exec' || verb === 'debug' || verb === 'run') {
    if (dash >= 0) env.nestedArgv(inv.args.slice(dash + 1), `kubectl ${verb}`);
    return out.yellow(`kubectl ${verb} runs a command in the cluster`);
  }
  if (verb === 'drain') return out.yellow('kubectl drain evicts every pod from a node');
  out.yellow(`kubectl ${key.trim()} changes the cluster`);
};

export const helmRule: Rule = (inv, out) => {
  const verb = inv.args.find((a) => !(a.value ?? '-').startsWith('-'))?.value ?? '';
  if (/^(list|ls|status|get|history|hist|show|inspect|search|version|env|template|lint|verify|help|)$/.test(verb)) return out.green(`helm ${verb} only reads`.trimEnd());
  if (/^(uninstall|delete|del|un)$/.test(verb)) return out.yellow('helm uninstall deletes a release and its resources');
  out.yellow(`helm ${verb} changes the cluster or local charts`);
};
