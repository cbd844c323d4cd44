import type { Params, Results } from '../../shared/protocol';
import { UserError } from '../engine/engine';
import type { EngineWatchers } from './engineWatchers';

const NO_WATCHERS = { files: [], watchers: [] };

/**
 * The panel's watcher requests (docs/watchers.md "The watchers list"). `watchers` is absent
 * in a `tandem agent` run, which follows no watchers.toml.
 */
export function watchersRequests(watchers: () => EngineWatchers | undefined) {
  return {
    'watchers.list': (): Results['watchers.list'] => watchers()?.view() ?? NO_WATCHERS,
    'watchers.setEnabled': ({ name, source, file, enabled }: Params<'watchers.setEnabled'>): Results['watchers.setEnabled'] => {
      const engineWatchers = watchers();
      if (!engineWatchers) throw new UserError('This Tandem follows no watchers.toml.');
      const where = file ?? (source === 'user' ? 'your watchers.toml' : 'a project watchers.toml');
      if (!engineWatchers.service.setEnabled({ name, source, file }, enabled)) throw new UserError(`There is no watcher "${name}" in ${where} (the file may have changed: reopen the list).`);
      return engineWatchers.view();
    },
  };
}
