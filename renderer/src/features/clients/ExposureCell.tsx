/**
 * One profile's tool exposure on the Clients screen: what its tools/list holds
 * and costs ("40 tools, ~11k tokens" or "search: 2 tools, ~350 tokens, 527
 * searchable"), and a choice of the exposures (shared/model/exposure.ts) or the
 * policy's default.
 */
import { EXPOSURES, type Exposure } from '../../../../shared/model/exposure.js';
import type { ProfileView } from '../../../../shared/model/views.js';

/** What each choice is called in the select. */
const EXPOSURE_LABELS: Record<Exposure, string> = {
  all: 'all tools',
  search: 'search',
  'search+load': 'search + load found tools',
  code: 'code (run_code)',
  auto: 'auto (fits its caps)',
};

/** "~11k" for 11,234. */
export function approxTokens(tokens: number): string {
  return tokens >= 1000 ? `~${(tokens / 1000).toFixed(tokens >= 10_000 ? 0 : 1)}k` : `~${tokens}`;
}

/** The summary line of a profile's tools/list. */
export function exposureSummary(tools: NonNullable<ProfileView['tools']>): string {
  const list = `${tools.listed} tools, ${approxTokens(tools.tokens)} tokens`;
  return tools.inForce === 'all' ? list : `${tools.inForce}: ${list}; ${tools.reachable} searchable`;
}

/** The cell. */
export function ExposureCell({
  profile,
  busy,
  onSet,
  defaultLabel = 'default',
}: {
  profile: ProfileView;
  busy: boolean;
  onSet: (exposure: Exposure | null) => void;
  /** What "no setting of its own" is called (for the main token: the policy's default, all tools). */
  defaultLabel?: string;
}) {
  const tools = profile.tools;
  if (!tools) return <span className="muted">—</span>;
  return (
    <div className="row">
      <span>{exposureSummary(tools)}</span>
      <select
        aria-label={`Exposure of ${profile.name}`}
        value={tools.exposure ?? 'default'}
        disabled={busy}
        onChange={(event) => onSet(event.target.value === 'default' ? null : (event.target.value as Exposure))}
      >
        <option value="default">{defaultLabel}</option>
        {EXPOSURES.map((exposure) => (
          <option key={exposure} value={exposure}>
            {EXPOSURE_LABELS[exposure]}
          </option>
        ))}
      </select>
    </div>
  );
}
