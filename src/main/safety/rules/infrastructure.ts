/** Rules for infrastructure, cloud and database tools: terraform, pulumi, aws, gcloud, psql, redis-cli … */
import type { Arg } from './arguments';
import { credentialIn } from './credentialFiles';
import type { Rule, RuleEnv } from './rule';

export const terraformRule: Rule = (inv, out) => {
  const values = inv.args.map((a) => a.value ?? '').filter((v) => !v.startsWith('-chdir'));
  const i = values.findIndex((v) => !v.startsWith('-'));
  const runAll = values[i] === 'run-all' || (values[i] === 'run' && values.includes('--all'));
  const rest = values.slice(i + 1).filter((v) => v !== '--all');
  const verb = runAll ? (rest.find((v) => !v.startsWith('-')) ?? '') : (values[i] ?? '');
  const destroyFlag = rest.some((v) => /^--?destroy(=true)?$/.test(v));
  if (verb === 'destroy' || (verb === 'apply' && destroyFlag)) return out.red(`${inv.name} ${verb === 'destroy' ? 'destroy' : 'apply -destroy'} deletes every resource it manages`);
  if (/^(version|validate|show|output|providers|graph|help|fmt)$/.test(verb) && (verb !== 'fmt' || rest.includes('-check'))) return out.green(`${inv.name} ${verb} only reads`);
  if (verb === 'state' && /^(list|show|pull)$/.test(rest[0] ?? '')) return out.green(`${inv.name} state ${rest[0] as string} only reads`);
  if (verb === 'workspace' && /^(list|show)$/.test(rest[0] ?? '')) return out.green(`${inv.name} workspace ${rest[0] as string} only reads`);
  if (verb === 'apply') return out.yellow(`${inv.name} apply changes real infrastructure${rest.includes('-auto-approve') ? ', without asking' : ''}`);
  if (verb === 'plan') return out.yellow(`${inv.name} plan runs providers and data sources`);
  out.yellow(`${inv.name} ${verb} changes infrastructure or its state`.replace('  ', ' '));
};

export const pulumiRule: Rule = (inv, out) => {
  const values = inv.args.map((a) => a.value ?? '').filter((v) => !v.startsWith('-'));
  const [verb = '', sub = ''] = values;
  if (verb === 'destroy' || verb === 'down') return out.red('pulumi destroy deletes every resource in the stack');
  if (verb === 'stack' && (sub === 'rm' || sub === 'remove')) return out.yellow('pulumi stack rm deletes the stack and its history');
  if (/^(version|whoami|about|help|)$/.test(verb) || (verb === 'stack' && /^(ls|output|history|export|select)?$/.test(sub)) || (verb === 'config' && /^(get)?$/.test(sub))) return out.green(`pulumi ${verb} only reads`.trimEnd());
  out.yellow(`pulumi ${verb} changes infrastructure or its state`);
};

export const cloudRule: Rule = (inv, out, env) => {
  const uploaded = credentialUploaded(inv.args, env);
  if (uploaded) out.red(`${inv.name} sends credentials off the machine: ${uploaded}`);
  const values = inv.args.map((a) => a.value ?? '');
  const words = values.filter((v) => !v.startsWith('-'));
  const flags = values.filter((v) => v.startsWith('-'));
  const line = words.join(' ');
  const name = inv.name;
  if (name === 'aws' && /^s3 rm\b/.test(line) && flags.includes('--recursive')) return out.red('aws s3 rm --recursive deletes every object under the prefix');
  if (name === 'aws' && /^s3 rb\b/.test(line) && flags.includes('--force')) return out.red('aws s3 rb --force deletes a bucket and everything in it');
  if (name === 'gcloud' && /^projects delete\b/.test(line)) return out.red('gcloud projects delete deletes a whole project');
  if (name === 'az' && /^group delete\b/.test(line)) return out.red('az group delete deletes a resource group and everything in it');
  if (name === 'gsutil' && /\brm\b/.test(line) && flags.some((f) => /^-[a-zA-Z]*r/.test(f))) return out.red('gsutil rm -r deletes every object under the path');
  if (name === 'heroku' && /^(apps:destroy|pg:reset|apps:delete)\b/.test(line)) return out.red(`heroku ${words[0] as string} deletes an app or its database`);
  if (name === 'gh' && /^repo delete\b/.test(line)) return out.red('gh repo delete deletes a repository');
  const readVerb = words.some((w) => /^(describe|list|ls|get|show|view|status|info|version|whoami|help|cat|du|stat|search|diff|checks|account|config-list|get-caller-identity)([-_].*)?$/.test(w));
  const changeVerb = words.some((w) => /^(create|delete|remove|rm|rb|put|set|update|apply|deploy|terminate|stop|start|run|cp|mv|sync|edit|merge|close|reopen|comment|push|publish|release|destroy|reset|login|logout|auth|api)([-_:].*)?$/.test(w));
  if (readVerb && !changeVerb) return out.green(`${name} ${words.slice(0, 3).join(' ')} only reads`);
  out.yellow(`${name} ${words.slice(0, 3).join(' ')} changes cloud resources`.replace(/ +/g, ' '));
};

/**
 * `aws s3 cp ~/.aws/credentials s3://…`, `gsutil cp … gs://…`, `gh gist create ~/.ssh/id_rsa`,
 * `gh release upload v1 .env`: the local files an upload sends. A download into a local file is no upload.
 */
function credentialUploaded(args: readonly Arg[], env: RuleEnv): string | undefined {
  const operands = args.filter((a) => !(a.value ?? a.text).startsWith('-'));
  const words = operands.map((a) => a.value ?? '');
  const verb = words.findIndex((w) => /^(cp|mv|sync|rsync|upload|create|edit)$/.test(w));
  if (verb < 0) return undefined;
  const rest = operands.slice(verb + 1);
  const remote = (a: Arg | undefined): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(a?.value ?? a?.text ?? '');
  const last = rest[rest.length - 1];
  const sources = remote(last) ? rest.slice(0, -1) : /^(upload|create|edit)$/.test(words[verb] as string) ? rest : [];
  const tree = /^(sync|rsync)$/.test(words[verb] as string) || args.some((a) => a.value === '--recursive' || a.value === '-r');
  for (const source of sources) {
    if (remote(source)) continue;
    const found = credentialIn(source, env.paths, tree);
    if (found) return found;
  }
  return undefined;
}

const DESTRUCTIVE_SQL = /\b(drop\s+(database|schema|table|keyspace|collection|index)|truncate\s+(table\s+)?[\w."]+|delete\s+from\s+[\w."]+\s*(;|$)|dropDatabase\s*\(|\.drop\s*\(|flushall|flushdb|deleteMany\s*\(\s*\{\s*\}\s*\))/i;

/** psql -c, mysql -e, sqlite3 db "…", redis-cli FLUSHALL, mongosh --eval: RED for statements that destroy data. */
export const databaseRule: Rule = (inv, out) => {
  const name = inv.name;
  if (name === 'dropdb' || name === 'dropuser') return out.red(`${name} deletes a database${name === 'dropuser' ? ' role' : ''}`);
  const values = inv.args.map((a) => a.value ?? a.text);
  let code: string[] = [];
  const after = (flags: string[]): string[] => values.flatMap((v, i) => (flags.includes(v) ? [values[i + 1] ?? ''] : flags.filter((f) => f.startsWith('--')).filter((f) => v.startsWith(`${f}=`)).map((f) => v.slice(f.length + 1))));
  if (name === 'psql') code = after(['-c', '--command']);
  else if (name === 'mysql' || name === 'mariadb') code = after(['-e', '--execute']);
  else if (name === 'mongo' || name === 'mongosh') code = after(['--eval']);
  else if (name === 'sqlite3') code = values.filter((v) => !v.startsWith('-')).slice(1);
  else if (name === 'redis-cli') code = [values.filter((v) => !v.startsWith('-')).join(' ')];
  else if (name === 'mysqladmin' && values.some((v) => v === 'drop' || v === 'drop-database')) return out.red('mysqladmin drop deletes a database');
  const destructive = code.find((c) => DESTRUCTIVE_SQL.test(c));
  if (destructive) return out.red(`${name} runs "${destructive.slice(0, 60)}", which destroys data`);
  out.yellow(`${name} connects to a database${code.length > 0 ? ' and runs a statement' : ''}`);
};
