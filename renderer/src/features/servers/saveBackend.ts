/**
 * Saving a backend from any of the add/edit flows: secrets first (write-only,
 * to the keychain), then `backends.add` (which checks the connection and
 * catalog before saving) or `backends.update`.
 */
import type { CallOutcome, CoreClient } from '../../../../shared/contract.js';
import type { BackendView } from '../../../../shared/model/views.js';
import type { PendingSecret } from '../../../../shared/presets.js';
import type { AppStore } from '../../store/types.js';
import type { AddPhase } from './AddProgress.js';

/** Stores `secrets`, then adds (or, with `mode: 'update'`, updates) the backend; `onPhase` hears each step begin. */
export async function saveBackend(
  store: Pick<AppStore, 'call' | 'addBackend' | 'updateBackend'>,
  request: {
    id: string;
    entry: Record<string, unknown>;
    secrets: PendingSecret[];
    mode?: 'add' | 'update';
    force?: boolean;
  },
  onPhase?: (phase: AddPhase) => void,
): Promise<CallOutcome<BackendView>> {
  const call: CoreClient['call'] = store.call;
  if (request.secrets.length > 0) onPhase?.('secrets');
  for (const secret of request.secrets) {
    const stored = await call('secrets.set', secret);
    if (!stored.ok)
      return {
        ok: false,
        error: { ...stored.error, message: `Could not store ${secret.name}: ${stored.error.message}` },
      };
  }
  onPhase?.('checking');
  return request.mode === 'update'
    ? store.updateBackend(request.id, request.entry)
    : store.addBackend(request.id, request.entry, request.force);
}
