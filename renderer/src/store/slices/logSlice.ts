/**
 * The request log, fetched with the current filters.
 */
import type { CoreClient } from '../../../../shared/contract.js';
import type { LogQueryView } from '../../../../shared/contractMethods.js';
import type { LogEntryView } from '../../../../shared/model/views.js';
import { fetchRemote, idle, type Remote } from '../remote.js';
import type { SliceCreator } from '../types.js';

/** How many log lines the UI asks for. */
export const LOG_LIMIT = 200;

/** Log state and actions. */
export interface LogSlice {
  log: Remote<LogEntryView[]>;
  logFilter: LogQueryView;
  fetchLog(): Promise<void>;
  /** Replaces the filters and re-fetches. */
  setLogFilter(filter: LogQueryView): void;
}

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
