/**
 * The sidebar footer's words: how many servers stand where, and the endpoint
 * clients connect to, each figure saying what it counts.
 */
import type { BackendStatus } from '../../../shared/model/health.js';

/** How each status is counted in the footer, in the order shown. */
const GROUPS: { label: string; statuses: BackendStatus[] }[] = [
  { label: 'up', statuses: ['up'] },
  { label: 'degraded', statuses: ['degraded'] },
  { label: 'down', statuses: ['down'] },
  { label: 'starting', statuses: ['connecting'] },
  { label: 'need sign-in', statuses: ['needs-authorization'] },
  { label: 'idle until used', statuses: ['idle'] },
  { label: 'off', statuses: ['disabled'] },
];

/** "3 servers up, 1 down" (only the groups that have servers); "No servers yet" for none. */
export function serversSummary(statuses: BackendStatus[]): string {
  if (statuses.length === 0) return 'No servers yet';
  const parts = GROUPS.map((group) => ({
    label: group.label,
    count: statuses.filter((status) => group.statuses.includes(status)).length,
  })).filter((group) => group.count > 0);
  return parts
    .map((part, index) =>
      index === 0 ? `${part.count} server${part.count === 1 ? '' : 's'} ${part.label}` : `${part.count} ${part.label}`,
    )
    .join(', ');
}

/** "endpoint 127.0.0.1:47100" from the endpoint URL (the URL itself if it does not parse). */
export function endpointSummary(url: string): string {
  try {
    return `endpoint ${new URL(url).host}`;
  } catch {
    return `endpoint ${url}`;
  }
}
