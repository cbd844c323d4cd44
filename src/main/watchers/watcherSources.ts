import { join, resolve } from 'node:path';
import type { WatcherSource } from '../../shared/watchers';
import type { TandemPaths } from '../settings/paths';
import { projectFolderOf, PROJECT_WATCHERS_FILE } from './projectFolders';
import type { ProjectTrust } from './projectTrust';
import { readWatchersFile, type WatchersFileRead } from './watcherFile';

/** A watchers.toml as read now, outside the engine (the CLI). */
export interface WatcherSourceFile {
  path: string;
  source: WatcherSource;
  /** The folder relative paths in it are read from. */
  root: string;
  read: WatchersFileRead;
  /** A project file that is not allowed as it is now. */
  untrusted: boolean;
}

/** The project a folder named on the command line belongs to: its project folder (see projectFolderOf), or the folder itself. */
export function projectOf(dir: string, home: string): string {
  const folder = resolve(dir);
  return projectFolderOf(folder, home) ?? folder;
}

/** The user's watchers.toml and the project's `.tandem/watchers.toml` of `dir`, when it has one. */
export function readWatcherSources(paths: TandemPaths, home: string, dir: string, trust: ProjectTrust): WatcherSourceFile[] {
  const files: WatcherSourceFile[] = [{ path: paths.watchersFile, source: 'user', root: home, read: readWatchersFile(paths.watchersFile), untrusted: false }];
  const project = projectOf(dir, home);
  const projectFile = join(project, PROJECT_WATCHERS_FILE);
  const read = readWatchersFile(projectFile);
  if (read.kind !== 'missing') {
    const text = read.text;
    files.push({ path: projectFile, source: 'project', root: project, read, untrusted: text === undefined || !trust.isTrusted(projectFile, text) });
  }
  return files;
}
