/**
 * The first-run screen's word on Linux's sandbox packages: where bubblewrap or
 * socat is missing, both are named once with the one command that installs
 * them, before the user's first add fails on one and then the other. Nothing
 * shows when both are installed, or off Linux.
 */
import { useEffect, useState } from 'react';
import type { SandboxSettingsView } from '../../../../shared/model/sandboxViews.js';
import { useAppStore } from '../../store/context.js';

/** The note, once the host has answered and only when a package is missing. */
export function SandboxPackagesNote() {
  const call = useAppStore((s) => s.call);
  const [missing, setMissing] = useState<SandboxSettingsView['missingPackages']>();
  useEffect(() => {
    let live = true;
    void call('sandbox.settings').then((outcome) => {
      if (live && outcome.ok) setMissing(outcome.result.missingPackages);
    });
    return () => {
      live = false;
    };
  }, [call]);
  if (!missing) return null;
  const which = missing.packages.length === 1 ? `${missing.packages[0]} is not installed` : 'neither is installed';
  return (
    <p className="note" role="note" aria-label="Sandbox packages">
      {`Servers you add run sandboxed, which needs bubblewrap and socat (${which}). Install them first: `}
      <code>{missing.command}</code>
    </p>
  );
}
