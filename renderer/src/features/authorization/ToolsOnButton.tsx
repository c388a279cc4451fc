/**
 * "12 of 16 tools on" on a server card: how many of the server's tools the
 * profile the catalog is seen as gets; it opens the server's tools with their
 * switches (the Authorization screen, filtered to that server, for that profile).
 */
import { useAppStore } from '../../store/context.js';
import { toolsOn } from './ruleChoice.js';

/** The button for `backendId` (nothing until the access view is loaded, or when it offers no tools). */
export function ToolsOnButton({ backendId }: { backendId: string }) {
  const access = useAppStore((s) => s.catalogAccess.data);
  const profile = useAppStore((s) => s.catalogProfile);
  const policyProfile = useAppStore((s) => s.policyProfile);
  const setPolicyProfile = useAppStore((s) => s.setPolicyProfile);
  const setPolicyFilter = useAppStore((s) => s.setPolicyFilter);
  const setScreen = useAppStore((s) => s.setScreen);
  if (!access) return null;
  const { on, total } = toolsOn(access.items, backendId);
  if (total === 0) return null;
  return (
    <button
      type="button"
      className="link"
      title={`For ${access.name}; opens this server's rules`}
      onClick={() => {
        if (policyProfile !== profile) setPolicyProfile(profile);
        setPolicyFilter(backendId);
        setScreen('authorization');
      }}
    >
      {on} of {total} tools on
    </button>
  );
}
