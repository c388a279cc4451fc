/**
 * What the model will find: `search_tools` run as the chosen profile would
 * run it (the same index and visibility as its real meta-tool), its results in
 * rank order. Picking one opens it in the catalog.
 */
import { useEffect, useState } from 'react';
import type { ErrorData } from '../../../../shared/errors.js';
import type { FoundToolView } from '../../../../shared/model/views.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useAppStore } from '../../store/context.js';

/** How long typing pauses before the search runs (ms). */
const SETTLE_MS = 200;

/** The panel; `viewer` is the profile's name, `onPick` gets a result's catalog name. */
export function ModelSearch({
  profile,
  viewer,
  onPick,
}: {
  profile: string;
  viewer: string;
  onPick: (found: FoundToolView) => void;
}) {
  const call = useAppStore((s) => s.call);
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<{ query: string; tools: FoundToolView[] } | undefined>();
  const [error, setError] = useState<ErrorData | undefined>();

  useEffect(() => {
    const text = query.trim();
    if (text === '') {
      setFound(undefined);
      setError(undefined);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      void call('catalog.search', { profile, query: text, limit: 8 }).then((outcome) => {
        if (!current) return;
        setError(outcome.ok ? undefined : outcome.error);
        if (outcome.ok) setFound({ query: text, tools: outcome.result });
      });
    }, SETTLE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [call, profile, query]);

  return (
    <section className="panel stack model-search" aria-label="What the model finds">
      <label className="field">
        <span>Search as {viewer}'s model would (search_tools)</span>
        <input
          type="search"
          aria-label={`search_tools as ${viewer}`}
          placeholder="a task, as an agent would say it"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </label>
      <ErrorNote error={error} title="Search failed" />
      {found && found.tools.length === 0 && <p className="muted">search_tools finds nothing for “{found.query}”.</p>}
      {found && found.tools.length > 0 && (
        <ol aria-label={`search_tools results for ${viewer}`}>
          {found.tools.map((tool) => (
            <li key={tool.name}>
              <button type="button" className="link" onClick={() => onPick(tool)}>
                {tool.name}
              </button>{' '}
              <span className="small muted">
                {tool.server} · {tool.title ?? tool.description}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
