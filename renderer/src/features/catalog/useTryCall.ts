/**
 * One "try it" call at a time per panel, named by a fresh `callId`: its
 * progress (from `tryProgress` events), the server's questions waiting for
 * an answer, and Cancel (`catalog.cancelCall`: the server is sent
 * `notifications/cancelled`).
 */
import { useCallback, useMemo, useState } from 'react';
import type { CallOutcome } from '../../../../shared/contract.js';
import type { TryInputView, TryProgressView, TryResult } from '../../../../shared/model/views.js';
import { useAppStore } from '../../store/context.js';

/** What a panel shows while its call runs. */
export interface TryRunning {
  progress: TryProgressView | undefined;
  inputs: TryInputView[];
  cancel(): void;
  cancelling: boolean;
}

/** A panel's call: `start` runs `send` with a new call id; `running` is set while it runs. */
export function useTryCall(): {
  running: TryRunning | undefined;
  start(send: (callId: string) => Promise<CallOutcome<TryResult>>): Promise<CallOutcome<TryResult>>;
} {
  const call = useAppStore((s) => s.call);
  const clearProgress = useAppStore((s) => s.clearProgress);
  const [callId, setCallId] = useState<string | undefined>();
  const [cancelling, setCancelling] = useState(false);
  const progress = useAppStore((s) => (callId ? s.tryProgress[callId] : undefined));
  const allInputs = useAppStore((s) => s.tryInputs.data);
  const inputs = useMemo(() => (allInputs ?? []).filter((input) => input.callId === callId), [allInputs, callId]);

  const start = useCallback(
    async (send: (callId: string) => Promise<CallOutcome<TryResult>>) => {
      const id = crypto.randomUUID();
      setCallId(id);
      setCancelling(false);
      try {
        return await send(id);
      } finally {
        setCallId(undefined);
        clearProgress(id);
      }
    },
    [clearProgress],
  );
  const running = callId
    ? {
        progress,
        inputs,
        cancelling,
        cancel: () => {
          setCancelling(true);
          void call('catalog.cancelCall', { callId });
        },
      }
    : undefined;
  return { running, start };
}
