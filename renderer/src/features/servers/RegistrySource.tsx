/**
 * Where a backend added from a registry came from (its registry, name and
 * version, from the entry's `source`) and, when the registry has a newer
 * one, "update available: X". The Servers screen asks `registry.outdated`
 * once when shown (and again when the set of such backends changes); a
 * failed or offline check shows nothing. Update opens RegistryUpdateDialog.tsx.
 */
import { useEffect, useState } from 'react';
import type { BackendView } from '../../../../shared/model/views.js';
import { Badge } from '../../components/HealthBadge.js';
import { useAppStore } from '../../store/context.js';
import { RegistryUpdateDialog } from './RegistryUpdateDialog.js';

/** A backend's registry source, when its entry has one. */
export interface RegistrySourceInfo {
  registry: string;
  name: string;
  version: string;
}

/** The `source` of a backend's entry, or undefined when it was not added from a registry. */
export function sourceOf(backend: BackendView): RegistrySourceInfo | undefined {
  const source = backend.entry['source'] as Partial<RegistrySourceInfo> | undefined;
  if (!source || typeof source.name !== 'string' || typeof source.version !== 'string') return undefined;
  return {
    registry: typeof source.registry === 'string' ? source.registry : '',
    name: source.name,
    version: source.version,
  };
}

/** The registry's host for an http(s) registry URL, else the text as given (e.g. a bundle's file URL). */
function registryLabel(registry: string): string {
  try {
    const url = new URL(registry);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : registry;
  } catch {
    return registry;
  }
}

/** Backend ID -> latest version, for the backends whose registry has a newer one. */
export function useRegistryUpdates(backends: readonly BackendView[]): Map<string, string> {
  const call = useAppStore((s) => s.call);
  const [updates, setUpdates] = useState(new Map<string, string>());
  const sourced = backends
    .filter((backend) => sourceOf(backend))
    .map((backend) => `${backend.health.id}@${sourceOf(backend)!.version}`)
    .join(' ');
  useEffect(() => {
    if (sourced === '') return;
    let live = true;
    void call('registry.outdated').then((outcome) => {
      if (!live || !outcome.ok || !Array.isArray(outcome.result)) return; // offline or failed: say nothing
      setUpdates(new Map(outcome.result.map((row) => [row.id, row.latest])));
    });
    return () => {
      live = false;
    };
  }, [call, sourced]);
  return updates;
}

/** The "from" line of backend `id`'s card, with the update and its Update button when there is one. */
export function RegistrySource(props: { id: string; source: RegistrySourceInfo; update?: string | undefined }) {
  const { id, source, update } = props;
  const [updating, setUpdating] = useState(false);
  return (
    <div className="row small">
      <span className="muted" title={source.registry}>
        From {registryLabel(source.registry)}: {source.name} {source.version}
      </span>
      {update !== undefined && update !== source.version && (
        <>
          <Badge tone="info">update available: {update}</Badge>
          <button type="button" onClick={() => setUpdating(true)}>
            Update
          </button>
        </>
      )}
      {updating && <RegistryUpdateDialog id={id} onClose={() => setUpdating(false)} />}
    </div>
  );
}
