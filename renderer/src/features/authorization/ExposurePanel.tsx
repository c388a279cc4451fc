/**
 * The selected profile's tool exposure on the Authorization screen (the main
 * token's for "Everyone": the policy's default), shown and set with the same
 * cell as the Clients screen.
 */
import type { ProfileToolsView } from '../../../../shared/model/views.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';
import { ExposureCell } from '../clients/ExposureCell.js';

/** The panel; `profile` `*` is the main token (and every client without its own setting). */
export function ExposurePanel({ profile, name, tools }: { profile: string; name: string; tools: ProfileToolsView }) {
  const setExposure = useAppStore((s) => s.setExposure);
  const { busy, error, run } = useOutcome();
  return (
    <section className="panel" aria-label="Tool exposure">
      <div className="row spread">
        <h2>Tool exposure</h2>
        <span className="small muted">
          {profile === '*'
            ? 'The main token, and every client without a setting of its own.'
            : 'All tools, or search_tools and call_tool only (auto: search past its caps).'}
        </span>
      </div>
      <ExposureCell
        profile={{ id: profile, name, hasToken: false, tools }}
        busy={busy}
        {...(profile === '*' ? { defaultLabel: 'not set (all tools)' } : {})}
        onSet={(exposure) => void run(() => setExposure(profile, exposure))}
      />
      <ErrorNote error={error} title="Not changed" />
    </section>
  );
}
