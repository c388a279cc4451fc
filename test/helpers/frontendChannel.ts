/**
 * A frontend as the relay sees it, for unit tests of the relay's parts: the
 * era and capabilities given, and a `send` that fails (nothing asks it unless
 * a test gives its own).
 */
import type { FrontendChannel } from '../../electron/core/frontend/index.js';

/** A frontend of `era` that declared form elicitation; `extra` replaces any part. */
export function testFrontend(era: 'legacy' | 'modern', extra: Partial<FrontendChannel> = {}): FrontendChannel {
  return {
    era,
    key: {},
    capabilities: { elicitation: { form: {} } },
    send: () => Promise.reject(new Error('not asked')),
    inputResponses: undefined,
    requestState: undefined,
    ...extra,
  };
}
