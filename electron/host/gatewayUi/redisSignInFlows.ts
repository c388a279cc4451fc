/**
 * Sign-ins to the UI under way, shared by replicas through Redis (the
 * `cluster` section; loaded only then): the identity provider's callback
 * may land on another replica than the one that sent the browser there.
 * One key per flow, named by a digest of the flow's id (the id is in the
 * browser's cookie only), expiring with the flow and taken once (GETDEL).
 * Its value (state, nonce, PKCE verifier) is sealed (JWE, A256GCM) under a
 * key derived from the flow's id: what Redis holds cannot complete a
 * sign-in without the browser's cookie.
 */
import { createHash, hkdfSync } from 'node:crypto';
import { CompactEncrypt, compactDecrypt } from 'jose';
import type { Cluster } from '../../core/platform/index.js';
import type { PendingFlow, SignInFlows } from './uiSignIn.js';

const sealKey = (flowId: string): Uint8Array =>
  new Uint8Array(hkdfSync('sha256', flowId, '', 'switchboard ui sign-in flow', 32));

/** The flows in the cluster's Redis; see the module comment. */
export function redisSignInFlows(cluster: Cluster): SignInFlows {
  const keyOf = (flowId: string) => cluster.key('ui-flow', createHash('sha256').update(flowId).digest('base64url'));
  return {
    async put(flowId, flow, ttlMs) {
      const sealed = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(flow)))
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .encrypt(sealKey(flowId));
      await cluster.redis.set(keyOf(flowId), sealed, 'PX', Math.max(1, ttlMs));
    },
    async take(flowId) {
      const sealed = await cluster.redis.getdel(keyOf(flowId));
      if (sealed === null) return undefined;
      const { plaintext } = await compactDecrypt(sealed, sealKey(flowId));
      return JSON.parse(new TextDecoder().decode(plaintext)) as PendingFlow;
    },
  };
}
