/**
 * What an add is doing while it runs, with the seconds counting: storing the
 * secrets, then the check (`backends.add` starts the server and lists its
 * catalog before saving; the core reports no finer steps, so both are one phase).
 */
import { useNow } from '../../components/time.js';

/** A step of adding a server, as the renderer sees it. */
export type AddPhase = 'secrets' | 'checking';

const PHASE_TEXT: Record<AddPhase, string> = {
  secrets: 'Storing secrets…',
  checking: 'Starting… listing tools…',
};

/** The running step and the time since `since` (ms), ticking each second. */
export function AddProgress({ phase, since }: { phase: AddPhase; since: number }) {
  const now = useNow(1000);
  const seconds = Math.max(0, Math.floor((now - since) / 1000));
  return (
    <p role="status" className="small muted">
      {PHASE_TEXT[phase]} {seconds} s
    </p>
  );
}
