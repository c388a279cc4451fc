/**
 * The config file's side of the contract: its kept backups, and putting one
 * back. Both go through the core's one config store (same lock, same atomic
 * write as every other change); the running core then applies the restored
 * file as it applies any change of the file.
 */
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { ConfigBackupView } from '../../shared/model/views.js';
import type { ConfigStore } from '../core/platform/index.js';

/** Handlers of `config.backups` and `config.restore` on `store` (absent: a core without a config file). */
export function configHandlers(
  store: ConfigStore | undefined,
): Pick<CoreHandlers, 'config.backups' | 'config.restore'> {
  const require = (): ConfigStore => {
    if (!store) throw new SwitchboardError(ErrorCode.NotSupported, 'this Switchboard runs without a config file');
    return store;
  };
  const view = (backup: ConfigBackupView): ConfigBackupView => ({
    index: backup.index,
    savedAt: backup.savedAt,
    size: backup.size,
    path: backup.path,
  });
  return {
    'config.backups': async () => (await require().backups()).map(view),
    'config.restore': async ({ index }) => view(await require().restore(index ?? 1)),
  };
}
