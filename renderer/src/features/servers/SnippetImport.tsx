/**
 * Paste a Claude Desktop / Cursor / VS Code `mcpServers` snippet, review the
 * servers found, and add the chosen ones (each checked before it is saved).
 */
import { AddedNote } from './AddedNote.js';
import { useId, useState } from 'react';
import type { ErrorData } from '../../../../shared/errors.js';
import type { ResultOf } from '../../../../shared/contract.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { invalidProps } from '../../components/FieldError.js';
import { toggled } from '../../components/sets.js';
import { useAppStore } from '../../store/context.js';
import { AddProgress } from './AddProgress.js';
import { secretChoiceOf, SecretStorageChoice, type SecretStorage } from './SecretStorageChoice.js';
import { SnippetSecretsNote } from './SnippetSecretsNote.js';
import { RunPreview } from './RunPreview.js';
import { entrySandbox, withSandboxEnabled } from './sandboxEntry.js';

type Parsed = ResultOf<'backends.parseSnippet'>;
type AddState = { state: 'added' } | { state: 'failed'; error: ErrorData } | { state: 'adding'; since: number };

const EXAMPLE = `{
  "mcpServers": {
    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] }
  }
}`;

/** The paste box and the review list. */
export function SnippetImport() {
  const [text, setText] = useState('');
  const [parsed, setParsed] = useState<Parsed | undefined>();
  const [parseError, setParseError] = useState<ErrorData | undefined>();
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [results, setResults] = useState<Record<string, AddState>>({});
  const [storage, setStorage] = useState<SecretStorage | undefined>();
  /** Servers the user chose to run without their sandbox. */
  const [unsandboxed, setUnsandboxed] = useState<Set<string>>(new Set());
  const asked = secretChoiceOf(parseError);
  const errorId = useId();
  /** Nothing usable in the snippet: its problems are about the box itself. */
  const unreadable = parsed !== undefined && parsed.servers.length === 0 && parsed.problems.length > 0;
  const call = useAppStore((s) => s.call);
  const addBackend = useAppStore((s) => s.addBackend);

  const review = async () => {
    setParseError(undefined);
    setResults({});
    const outcome = await call('backends.parseSnippet', { text, ...(storage ? { secretStorage: storage } : {}) });
    if (!outcome.ok) {
      setParsed(undefined);
      setParseError(outcome.error);
      return;
    }
    setParsed(outcome.result);
    setUnsandboxed(new Set());
    setChosen(new Set(outcome.result.servers.map((server) => server.id)));
  };

  /** Adds `server` (checked first, unless `force`: then saved as it is and retried until it starts). */
  const addOne = async (server: Parsed['servers'][number], force = false) => {
    setResults((r) => ({ ...r, [server.id]: { state: 'adding', since: Date.now() } }));
    const outcome = await addBackend(server.id, entryToAdd(server), force);
    setResults((r) => ({
      ...r,
      [server.id]: outcome.ok ? { state: 'added' } : { state: 'failed', error: outcome.error },
    }));
  };

  /** The entry as it will be added: its sandbox off when the user turned it off. */
  const entryToAdd = (server: Parsed['servers'][number]) =>
    unsandboxed.has(server.id) ? withSandboxEnabled(server.entry, false) : server.entry;

  const addChosen = async () => {
    for (const server of parsed?.servers ?? []) {
      if (!chosen.has(server.id) || results[server.id]?.state === 'added') continue;
      await addOne(server);
    }
  };

  return (
    <div className="stack">
      <label className="field">
        Paste a config snippet
        <span className="help">The `mcpServers` object from Claude Desktop or Cursor, or VS Code's `servers`.</span>
        <textarea
          value={text}
          rows={8}
          placeholder={EXAMPLE}
          onChange={(event) => {
            setText(event.target.value);
            // A new snippet is asked about again: a choice made for another one is not applied silently.
            setStorage(undefined);
          }}
          {...(parseError && !asked
            ? invalidProps(errorId, parseError.message)
            : invalidProps(`${errorId}-problems`, unreadable ? parsed?.problems.join('; ') : undefined))}
        />
      </label>
      <div className="row">
        <button type="button" className="primary" disabled={!text.trim()} onClick={() => void review()}>
          Review servers
        </button>
      </div>
      {asked ? (
        <>
          <SecretStorageChoice variables={asked} value={storage} onChange={setStorage} />
          <div className="row">
            <button type="button" className="primary" disabled={!storage} onClick={() => void review()}>
              Review with this choice
            </button>
          </div>
        </>
      ) : (
        // The snippet is the one field: its error is tied to the box (aria-describedby).
        <div id={errorId}>
          <ErrorNote error={parseError} title="Could not read the snippet" />
        </div>
      )}
      {parsed && (
        <div className="stack" role="region" aria-label="Servers found">
          {parsed.problems.length > 0 && (
            <ul className="note tone-warn" id={`${errorId}-problems`}>
              {parsed.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
          {parsed.servers.length === 0 && <p className="muted">No servers found in that snippet.</p>}
          {parsed.servers.map((server) => {
            const result = results[server.id];
            return (
              <div key={server.id} className="card">
                <label className="check">
                  <input
                    type="checkbox"
                    checked={chosen.has(server.id)}
                    onChange={(event) => setChosen(toggled(chosen, server.id, event.target.checked))}
                  />
                  <strong>{server.id}</strong>
                </label>
                <pre className="small">{JSON.stringify(entryToAdd(server), null, 2)}</pre>
                {entrySandbox(server.entry) !== undefined && (
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={!unsandboxed.has(server.id)}
                      onChange={(event) => setUnsandboxed(toggled(unsandboxed, server.id, !event.target.checked))}
                    />
                    Run {server.id} sandboxed
                  </label>
                )}
                <RunPreview preview={previewOfEntry(entryToAdd(server))} label={`What ${server.id} will run`} />
                <SnippetSecretsNote secrets={server.secrets} />
                {result?.state === 'adding' && <AddProgress phase="checking" since={result.since} />}
                {result?.state === 'added' && <AddedNote id={server.id} />}
                {result?.state === 'failed' && (
                  <>
                    <ErrorNote error={result.error} title={`${server.id} not added`} />
                    {/* E.g. a secret chosen to come from a variable not set yet: keep it, it starts once it is. */}
                    <button type="button" onClick={() => void addOne(server, true)}>
                      Save {server.id} anyway
                    </button>
                  </>
                )}
              </div>
            );
          })}
          {parsed.servers.length > 0 && (
            <div className="row">
              <button type="button" className="primary" disabled={chosen.size === 0} onClick={() => void addChosen()}>
                Add selected ({chosen.size})
              </button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}

/** What the preview shows of a pasted entry. */
function previewOfEntry(entry: Record<string, unknown>) {
  const sandbox = entrySandbox(entry);
  return {
    ...(typeof entry['command'] === 'string' ? { command: entry['command'] } : {}),
    ...(Array.isArray(entry['args']) ? { args: entry['args'].map(String) } : {}),
    ...(typeof entry['url'] === 'string' ? { url: entry['url'] } : {}),
    ...(sandbox ? { sandbox } : {}),
  };
}
