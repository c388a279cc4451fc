/**
 * The sidebar: one button per screen, with counts that need attention.
 */
import { useAppStore, useShown } from '../store/context.js';
import { awaitsReview } from '../features/reviews/reviewWords.js';
import { endpointSummary, serversSummary } from './sidebarSummary.js';
import type { ScreenId } from '../store/slices/appSlice.js';

const ITEMS: { id: ScreenId; label: string }[] = [
  { id: 'backends', label: 'Servers' },
  { id: 'add', label: 'Add server' },
  { id: 'catalog', label: 'Catalog' },
  { id: 'authorization', label: 'Authorization' },
  { id: 'clients', label: 'Clients' },
  { id: 'log', label: 'Request log' },
  { id: 'settings', label: 'Settings' },
];

/** The main navigation. */
export function Navigation() {
  const screen = useAppStore((s) => s.screen);
  const setScreen = useAppStore((s) => s.setScreen);
  const pending = useAppStore((s) => (s.approvals.data?.length ?? 0) + (s.pins.data?.length ?? 0));
  const awaiting = useAppStore((s) => s.reviews.data?.filter(awaitsReview).length ?? 0);
  const version = useAppStore((s) => s.info.data?.version);
  const endpoint = useAppStore((s) => s.info.data?.endpointUrl);
  const statuses = useAppStore((s) => s.backends.data)?.map((view) => view.health.status);
  useShown('backends');
  return (
    <nav className="sidebar" aria-label="Main">
      <div className="brand">
        <span aria-hidden="true">⎇</span> Switchboard {version && <small>v{version}</small>}
      </div>
      {ITEMS.map((item) => (
        <button
          key={item.id}
          type="button"
          className="nav-item"
          // The Review screen is reached from Servers, and belongs to it.
          aria-current={screen === item.id || (screen === 'review' && item.id === 'backends') ? 'page' : undefined}
          onClick={() => setScreen(item.id)}
        >
          {item.label}
          {item.id === 'backends' && awaiting > 0 && (
            <span className="nav-count" aria-label={`${awaiting} awaiting review`}>
              {awaiting}
            </span>
          )}
          {item.id === 'authorization' && pending > 0 && (
            <span className="nav-count" aria-label={`${pending} waiting`}>
              {pending}
            </span>
          )}
        </button>
      ))}
      <div className="sidebar-foot" role="note" aria-label="Servers and endpoint">
        {[statuses && serversSummary(statuses), endpoint && endpointSummary(endpoint)].filter(Boolean).join(' · ')}
      </div>
    </nav>
  );
}
