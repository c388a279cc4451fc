/**
 * One catalog item in full: names, description, annotations, input schema,
 * a panel to try it, and its override (what the model sees instead).
 */
import { useState } from 'react';
import type { CatalogEntry, ItemAccessView, ToolAnnotationsView } from '../../../../shared/model/views.js';
import { AccessRows } from './AccessRow.js';
import { Badge, type Tone } from '../../components/HealthBadge.js';
import { KIND_LABELS } from './filterCatalog.js';
import { SchemaTable } from './SchemaTable.js';
import { TryPrompt } from './TryPrompt.js';
import { TryResource } from './TryResource.js';
import { TryTool } from './TryTool.js';
import { OverrideEditor } from './OverrideEditor.js';
import { sectionOf } from './overrideDraft.js';

const ANNOTATIONS: { key: keyof ToolAnnotationsView; label: string; icon: string; tone: Tone }[] = [
  { key: 'readOnlyHint', label: 'Read-only', icon: '◉', tone: 'ok' },
  { key: 'destructiveHint', label: 'Destructive', icon: '⚠', tone: 'bad' },
  { key: 'idempotentHint', label: 'Idempotent', icon: '↺', tone: 'info' },
  { key: 'openWorldHint', label: 'Open world', icon: '⇄', tone: 'warn' },
];

/** The detail pane for `entry`; `access` is what the profile `profile` (named `viewer`) gets of it. */
export function CatalogDetail({
  entry,
  access,
  viewer = 'the main token',
  profile = '*',
}: {
  entry: CatalogEntry;
  access?: ItemAccessView | undefined;
  viewer?: string;
  profile?: string;
}) {
  const annotations = entry.annotations ?? {};
  const shownAnnotations = ANNOTATIONS.filter((a) => annotations[a.key] === true);
  return (
    <section className="panel stack" aria-label={`Details of ${entry.exposed}`}>
      <div className="row spread">
        <h2 className="mono">{entry.exposed}</h2>
        <Badge tone="info">{KIND_LABELS[entry.kind]}</Badge>
      </div>
      {entry.title && <div>{entry.title}</div>}
      <table className="table">
        <tbody>
          <tr>
            <th scope="row">Clients see</th>
            <td className="mono">{entry.exposed}</td>
          </tr>
          <tr>
            <th scope="row">Server's own name</th>
            <td className="mono">{entry.original}</td>
          </tr>
          <tr>
            <th scope="row">Server</th>
            <td>{entry.backendId}</td>
          </tr>
          {access && <AccessRows item={access} viewer={viewer} profile={profile} />}
          {entry.mimeType && (
            <tr>
              <th scope="row">MIME type</th>
              <td>{entry.mimeType}</td>
            </tr>
          )}
        </tbody>
      </table>
      {shownAnnotations.length > 0 && (
        <div className="row" aria-label="Annotations">
          {shownAnnotations.map((a) => (
            <Badge key={a.key} tone={a.tone}>
              <span aria-hidden="true">{a.icon}</span> {a.label}
            </Badge>
          ))}
        </div>
      )}
      {entry.description ? <p>{entry.description}</p> : <p className="muted">No description.</p>}
      {entry.kind === 'tool' && (
        <>
          <h3>Input</h3>
          <SchemaTable schema={entry.inputSchema} />
          <h3>Try it{profile === '*' ? '' : ` as ${viewer}`}</h3>
          <TryTool entry={entry} />
        </>
      )}
      {entry.kind === 'skill' && (
        <>
          <h3>Files</h3>
          {entry.files ? (
            <table className="table" aria-label="Skill files">
              <tbody>
                {entry.files.map((file) => (
                  <tr key={file.uri}>
                    <td className="mono">{file.uri}</td>
                    <td>{file.size} bytes</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="muted">Its server lists its files on demand (&quot;dynamic&quot;).</p>
          )}
        </>
      )}
      {entry.kind === 'prompt' && (
        <>
          <h3>Try it</h3>
          <TryPrompt entry={entry} />
        </>
      )}
      {(entry.kind === 'resource' || entry.kind === 'resourceTemplate') && (
        <>
          <h3>Read it</h3>
          <TryResource entry={entry} />
        </>
      )}
      {sectionOf(entry) && <OverrideSection entry={entry} profile={profile} viewer={viewer} />}
    </section>
  );
}

/** The override editor behind a disclosure, mounted (and asking the core) only once opened. */
function OverrideSection({ entry, profile, viewer }: { entry: CatalogEntry; profile: string; viewer: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="stack" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        <h3>{entry.kind === 'tool' ? 'Override' : 'Offer as a tool'}</h3>
      </summary>
      {open && <OverrideEditor entry={entry} profile={profile} viewer={viewer} />}
    </details>
  );
}
