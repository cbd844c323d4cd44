import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

export interface ShellChoice {
  /** The shell to start, or '' when nothing usable exists. */
  path: string;
  /** What to try, in order, if it fails to start or dies at once. */
  fallbacks: string[];
  /** Set when the requested shell could not be used, in words for the user. */
  problem?: string;
}

const LAST_RESORTS = ['/bin/bash', '/usr/bin/bash', '/bin/zsh', '/usr/bin/zsh', '/bin/sh'];

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A bare name (`zsh`) is looked up on PATH; a path is taken as it is. */
export function locateExecutable(nameOrPath: string, env: NodeJS.ProcessEnv): string | undefined {
  if (!nameOrPath) return undefined;
  if (isAbsolute(nameOrPath) || nameOrPath.includes('/')) return isExecutableFile(nameOrPath) ? nameOrPath : undefined;
  for (const dir of (env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
    const candidate = join(dir, nameOrPath);
    if (dir && isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Why `nameOrPath` cannot be started as a shell, in words for the user, or undefined when it
 * can (or is empty: the default shell). A path must be an executable file; a bare name must
 * be found on PATH.
 */
export function shellPathProblem(nameOrPath: string, env: NodeJS.ProcessEnv): string | undefined {
  if (!nameOrPath || locateExecutable(nameOrPath, env)) return undefined;
  if (!isAbsolute(nameOrPath) && !nameOrPath.includes('/')) {
    return `there is no program "${nameOrPath}" on PATH; give the shell's full path (e.g. /usr/bin/${nameOrPath})`;
  }
  let isFile: boolean;
  try {
    isFile = statSync(nameOrPath).isFile();
  } catch {
    return `${nameOrPath} does not exist`;
  }
  if (!isFile) return `${nameOrPath} is not a program (it is a folder or a device)`;
  return `${nameOrPath} is not executable (chmod +x ${nameOrPath} if it is a shell)`;
}

/** The requested shell (settings or --shell), else $SHELL, else a shell every system has. */
export function resolveShell(requested: string | undefined, env: NodeJS.ProcessEnv): ShellChoice {
  const candidates: string[] = [];
  let problem: string | undefined;
  if (requested) {
    const found = locateExecutable(requested, env);
    if (found) candidates.push(found);
    else problem = `The shell "${requested}" was not found or is not executable.`;
  }
  const fromEnv = env.SHELL ? locateExecutable(env.SHELL, env) : undefined;
  if (fromEnv) candidates.push(fromEnv);
  for (const path of LAST_RESORTS) if (isExecutableFile(path)) candidates.push(path);
  const unique = [...new Set(candidates)];
  const [path = '', ...fallbacks] = unique;
  if (problem && path) problem += ` Using ${path} instead.`;
  if (!path) problem = problem ?? 'No shell found: set one in config.toml (shell.path).';
  return { path, fallbacks, problem };
}
