/**
 * Profile files on the Clients screen (docs/profiles.md): export a profile
 * (the renderer saves the text it gets), preview what importing a file would
 * change, and import it. All through the core's own config store, client
 * tokens and keychain, so the running core takes the import at once. The
 * preview names secrets only; their values come from the renderer on import
 * and never go back.
 */
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { Switchboard } from '../core/api/index.js';
import { exportProfileText, importProfileText, previewProfileImport } from '../core/install/index.js';

type ProfileFileMethods = 'profiles.export' | 'profiles.previewImport' | 'profiles.import';

/** The handlers; refused as `not_supported` when the core runs without a config file. */
export function profileFileHandlers(core: Switchboard): Pick<CoreHandlers, ProfileFileMethods> {
  const store = () => {
    if (!core.configStore) {
      throw new SwitchboardError(ErrorCode.NotSupported, 'this Switchboard runs without a config file');
    }
    return core.configStore;
  };
  const owner = () => {
    if (!core.clientTokens) throw new SwitchboardError(ErrorCode.NotSupported, 'client tokens are not available');
    return { store: store(), tokens: core.clientTokens, keychain: core.secrets };
  };
  const options = (params: { as?: string | undefined; replace?: boolean | undefined }) => ({
    as: params.as?.trim() || undefined,
    replace: params.replace === true,
  });
  return {
    'profiles.export': async ({ id, servers }) => ({
      fileName: `${id}.profile.json`,
      text: await exportProfileText(store(), id, { servers: servers === true }),
    }),
    'profiles.previewImport': async (params) =>
      previewProfileImport({ store: store(), keychain: core.secrets }, params.text, options(params)),
    'profiles.import': async (params, { signal }) => {
      const outcome = await importProfileText(owner(), params.text, options(params), params.secrets, signal);
      return {
        id: outcome.plan.id,
        servers: outcome.plan.servers.filter((server) => server.state === 'added').map((server) => server.id),
        secrets: outcome.storedSecrets,
      };
    },
  };
}
