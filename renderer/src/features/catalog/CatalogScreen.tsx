/**
 * Everything the servers offer, merged: search, filter by kind, pick an item
 * to see its details and try it; all as one profile gets it ("as seen by"),
 * with what its tools/list costs and what its model's search_tools finds.
 */
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { CatalogKind } from '../../../../shared/model/views.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { Tabs } from '../../components/Tabs.js';
import { useAppStore } from '../../store/context.js';
import { catalogKey } from '../../store/slices/catalogSlice.js';
import { CatalogDetail } from './CatalogDetail.js';
import { clientGets } from '../authorization/ruleChoice.js';
import { accessByKey, costLine } from './accessView.js';
import { CatalogList } from './CatalogList.js';
import { ModelSearch } from './ModelSearch.js';
import { countByKind, filterCatalog, indexCatalog } from './filterCatalog.js';

const KIND_TABS: { kind: CatalogKind | 'all'; label: string }[] = [
  { kind: 'all', label: 'All' },
  { kind: 'tool', label: 'Tools' },
  { kind: 'prompt', label: 'Prompts' },
  { kind: 'resource', label: 'Resources' },
  { kind: 'resourceTemplate', label: 'Templates' },
  { kind: 'skill', label: 'Skills' },
];

/** The Catalog screen. */
export function CatalogScreen() {
  const catalog = useAppStore((s) => s.catalog);
  const query = useAppStore((s) => s.catalogQuery);
  const kind = useAppStore((s) => s.catalogKind);
  const selectedKey = useAppStore((s) => s.selectedCatalogKey);
  const setQuery = useAppStore((s) => s.setCatalogQuery);
  const setKind = useAppStore((s) => s.setCatalogKind);
  const select = useAppStore((s) => s.selectCatalogEntry);
  const setScreen = useAppStore((s) => s.setScreen);
  const profile = useAppStore((s) => s.catalogProfile);
  const setProfile = useAppStore((s) => s.setCatalogProfile);
  const profiles = useAppStore((s) => s.profiles.data);
  const accessView = useAppStore((s) => s.catalogAccess.data);
  const accessError = useAppStore((s) => s.catalogAccess.error);
  const [onlyGot, setOnlyGot] = useState(false);
  const access = useMemo(() => accessByKey(accessView), [accessView]);
  const viewer = accessView?.name ?? (profile === '*' ? 'the main token' : profile);
  // A profile revoked meanwhile: back to the main token rather than an error about a profile that is gone.
  useEffect(() => {
    if (profile !== '*' && profiles && !profiles.some((p) => p.id === profile)) setProfile('*');
  }, [profile, profiles, setProfile]);

  const entries = useMemo(() => catalog.data ?? [], [catalog.data]);
  const serverCount = useMemo(() => new Set(entries.map((e) => e.backendId)).size, [entries]);
  const indexed = useMemo(() => indexCatalog(entries), [entries]);
  // The box shows every keystroke at once; the (possibly long) list follows when React has time.
  const deferredQuery = useDeferredValue(query);
  const matching = useMemo(() => {
    const found = filterCatalog(indexed, deferredQuery, 'all');
    if (!onlyGot) return found;
    return found.filter((entry) => {
      const got = access.get(catalogKey(entry));
      return got === undefined || clientGets(got.state);
    });
  }, [indexed, deferredQuery, onlyGot, access]);
  const counts = useMemo(() => countByKind(matching), [matching]);
  const shown = useMemo(() => (kind === 'all' ? matching : matching.filter((e) => e.kind === kind)), [matching, kind]);
  const selected = useMemo(() => entries.find((e) => catalogKey(e) === selectedKey), [entries, selectedKey]);
  // An item opened (clicked, Enter, found by search_tools) whose detail is out of view (in a narrow
  // window it sits below the list) is scrolled to, once it has rendered.
  const detailRef = useRef<HTMLDivElement>(null);
  const [opened, setOpened] = useState(0);
  const open = (key: string) => {
    select(key);
    setOpened((count) => count + 1);
  };
  useEffect(() => {
    const detail = detailRef.current;
    if (opened === 0 || !detail) return;
    const top = detail.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight * 0.6) detail.scrollIntoView({ block: 'start' });
  }, [opened]);

  return (
    <>
      <header className="screen-head">
        <div>
          <h1>Catalog</h1>
          <p>
            {entries.length} items from {serverCount} servers, under the names clients see.
          </p>
        </div>
        <input
          type="search"
          aria-label="Search the catalog"
          placeholder="Search names and descriptions"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </header>
      <div className="viewer-bar">
        <label className="field">
          As seen by
          <select value={profile} onChange={(event) => setProfile(event.target.value)}>
            <option value="*">the main token (all clients)</option>
            {(profiles ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} ({p.id})
              </option>
            ))}
          </select>
        </label>
        <p className="cost" aria-label="Tools/list cost">
          {accessView ? costLine(accessView) : ''}
        </p>
        <label className="check">
          <input type="checkbox" checked={onlyGot} onChange={(event) => setOnlyGot(event.target.checked)} />
          Only what {viewer} gets
        </label>
      </div>
      <ErrorNote error={catalog.error} title="Could not load the catalog" />
      <ErrorNote error={accessError} title={`Could not load what ${viewer} gets`} />
      {entries.some((entry) => entry.kind === 'tool') && (
        <ModelSearch
          profile={profile}
          viewer={viewer}
          onPick={(found) => {
            const item = accessView?.items.find(
              (i) => i.kind === 'tools' && (i.clientName ?? i.exposed) === found.name,
            );
            setQuery('');
            open(catalogKey({ kind: 'tool', exposed: item?.exposed ?? found.name }));
          }}
        />
      )}
      <Tabs
        label="Kinds"
        tabs={KIND_TABS.map((tab) => ({
          id: tab.kind,
          label: (
            <>
              {tab.label} <span className="chip">{counts[tab.kind]}</span>
            </>
          ),
        }))}
        selected={kind}
        onSelect={setKind}
      >
        {catalog.data !== undefined && entries.length === 0 ? (
          <section className="panel">
            <EmptyState
              title="The catalog is empty"
              actions={
                <button type="button" className="primary" onClick={() => setScreen('add')}>
                  Add a server
                </button>
              }
            >
              Tools, prompts and resources appear here once a server is up.
            </EmptyState>
          </section>
        ) : (
          <div className="catalog">
            <div>
              {shown.length === 0 && entries.length > 0 ? (
                <EmptyState title="Nothing matches">Try fewer words, or another kind.</EmptyState>
              ) : (
                <CatalogList
                  entries={shown}
                  selectedKey={selectedKey}
                  onSelect={select}
                  onOpen={open}
                  access={access}
                  viewer={viewer}
                />
              )}
            </div>
            <div className="detail" ref={detailRef}>
              {selected ? (
                <CatalogDetail
                  key={catalogKey(selected)}
                  entry={selected}
                  access={access.get(catalogKey(selected))}
                  viewer={viewer}
                  profile={profile}
                />
              ) : (
                <section className="panel">
                  <EmptyState title="Pick an item">
                    Select a tool, prompt or resource to see its details and try it.
                  </EmptyState>
                </section>
              )}
            </div>
          </div>
        )}
      </Tabs>
    </>
  );
}
