/**
 * The request log, fetched with the current filters.
 */
import type { CoreClient } from '../../../../shared/contract.js';
import { fetchRemote, idle } from '../remote.js';
import type { LogSlice, SliceCreator } from '../types.js';

export type { LogSlice };

/** How many log lines the UI asks for. */
export const LOG_LIMIT = 200;

/** Creates the log slice. */
export function createLogSlice(client: CoreClient): SliceCreator<LogSlice> {
  return (set, get) => ({
    log: idle(),
    logFilter: {},
    fetchLog: () =>
      fetchRemote(
        () => get().log,
        (log) => set({ log }),
        () => client.call('log.query', { ...get().logFilter, limit: LOG_LIMIT }),
      ),
    setLogFilter(logFilter) {
      set({ logFilter });
      get().invalidate('log');
    },
  });
}
