/**
 * The one way a component runs an action and shows how it went: `busy` while
 * it runs (a second run meanwhile is ignored, so no double submits), then the
 * outcome's error, if any, as data.
 */
import { useCallback, useRef, useState } from 'react';
import type { CallOutcome } from '../../../shared/contract.js';
import { ErrorCode, type ErrorData } from '../../../shared/errors.js';

/** What {@link useOutcome} gives a component. */
export interface OutcomeState {
  /** Whether an action is running. */
  busy: boolean;
  /** The label of the running action (`run`'s second argument), if any. */
  busyWith: string | undefined;
  /** The last action's error (cleared when the next one starts). */
  error: ErrorData | undefined;
  /** Shows an error found before calling anything (e.g. a form check). */
  setError(error: ErrorData | undefined): void;
  /** Runs `action` unless one is running (then resolves to undefined); keeps its error. */
  run<T>(action: () => Promise<CallOutcome<T>>, label?: string): Promise<CallOutcome<T> | undefined>;
}

/**
 * Busy and error state for actions that return a CallOutcome. With
 * `exclusive: false`, runs may overlap (busy until the last ends) instead of
 * a second one being ignored.
 */
export function useOutcome({ exclusive = true }: { exclusive?: boolean } = {}): OutcomeState {
  const [busyWith, setBusyWith] = useState<string | undefined>();
  const [error, setError] = useState<ErrorData | undefined>();
  const running = useRef(0);
  const run = useCallback(
    async <T>(action: () => Promise<CallOutcome<T>>, label = 'busy'): Promise<CallOutcome<T> | undefined> => {
      if (exclusive && running.current > 0) return undefined;
      running.current += 1;
      setBusyWith(label);
      setError(undefined);
      let outcome: CallOutcome<T>;
      try {
        outcome = await action();
      } catch (thrown) {
        outcome = { ok: false, error: { code: ErrorCode.Internal, message: String(thrown) } };
      } finally {
        running.current -= 1;
        if (running.current === 0) setBusyWith(undefined);
      }
      if (!outcome.ok) setError(outcome.error);
      return outcome;
    },
    [exclusive],
  );
  return { busy: busyWith !== undefined, busyWith, error, setError, run };
}
