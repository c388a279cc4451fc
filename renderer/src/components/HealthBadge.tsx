/**
 * A backend's status as a badge: colour, icon and words, so it reads without colour.
 */
import type { BackendStatus } from '../../../shared/model/health.js';

/** The colour families the CSS defines. */
export type Tone = 'ok' | 'warn' | 'bad' | 'info' | 'idle';

/** How each status looks and reads. */
export const STATUS_LOOK: Record<BackendStatus, { label: string; icon: string; tone: Tone }> = {
  up: { label: 'Up', icon: '✓', tone: 'ok' },
  degraded: { label: 'Degraded', icon: '!', tone: 'warn' },
  down: { label: 'Down', icon: '✕', tone: 'bad' },
  connecting: { label: 'Connecting', icon: '↻', tone: 'info' },
  'needs-authorization': { label: 'Needs authorization', icon: '⚑', tone: 'warn' },
  disabled: { label: 'Disabled', icon: '⏸', tone: 'idle' },
  // Stopped on purpose with its catalog cached: the next request starts it (never shown as down).
  idle: { label: 'Idle', icon: '☾', tone: 'idle' },
};

/**
 * The badge for `status`. Not a live region: a screen with many cards would
 * announce every flap; the screen keeps one live summary instead. It is named
 * ("Status: Up") as an image of words, so tests and assistive tech find it by name.
 */
export function HealthBadge({ status }: { status: BackendStatus }) {
  const look = STATUS_LOOK[status];
  return (
    <span className={`badge tone-${look.tone}`} data-status={status} role="img" aria-label={`Status: ${look.label}`}>
      <span className="badge-icon" aria-hidden="true">
        {look.icon}
      </span>
      {look.label}
    </span>
  );
}

/** A small neutral or toned label. */
export function Badge({ tone = 'idle', children, title }: { tone?: Tone; children: React.ReactNode; title?: string }) {
  return (
    <span className={`badge tone-${tone}`} title={title}>
      {children}
    </span>
  );
}
