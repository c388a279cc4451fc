/**
 * Adding a server from the MCP Registry: a search box (debounced), a
 * virtualized list of results with "Load more" (registry cursors), cards with
 * title, version, package kinds, repository link and "added", and a detail
 * pane whose form is generated from the entry (required fields first, secrets
 * as password fields). The core checks the runtime, starts the server once,
 * then saves it; its error (e.g. a missing runtime with the install link) shows
 * here, and Add again retries. A remote that answers 401 is saved and its
 * OAuth sign-in starts at once (the link shows here).
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useRef, useState } from 'react';
import type { RegistryEntryView, RegistryPageView } from '../../../../shared/model/registryViews.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { FieldError, errorOnField, fieldOfError, invalidProps } from '../../components/FieldError.js';
import { Badge } from '../../components/HealthBadge.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';
import { AddErrorNote } from './AddErrorNote.js';
import {
  SecretStorageChoice,
  secretFieldNote,
  useKeychainAvailable,
  useSecretStorageChoice,
} from './SecretStorageChoice.js';
import { RunPreview, UnsandboxedChoice } from './RunPreview.js';
import { ErrorCode } from '../../../../shared/errors.js';
import type { AddPreviewView } from '../../../../shared/model/sandboxViews.js';

const DEBOUNCE_MS = 300;

function age(fetchedAt: number): string {
  const minutes = Math.floor((Date.now() - fetchedAt) / 60_000);
  return minutes < 1 ? 'just now' : minutes < 60 ? `${minutes} min ago` : `${Math.floor(minutes / 60)} h ago`;
}

/** The registry search, its results and the selected entry's form. */
export function RegistryPicker() {
  const call = useAppStore((s) => s.call);
  const [text, setText] = useState('');
  const [page, setPage] = useState<RegistryPageView | undefined>();
  const [selected, setSelected] = useState<RegistryEntryView | undefined>();
  const search = useOutcome({ exclusive: false });
  const runSearch = search.run;
  const latest = useRef(0);

  useEffect(() => {
    const ticket = ++latest.current;
    const timer = setTimeout(() => {
      void runSearch(async () => {
        const outcome = await call('registry.search', { text });
        // Only the newest query's answer is shown (an older one may arrive later).
        if (outcome.ok && ticket === latest.current) setPage(outcome.result);
        return outcome;
      }, 'search');
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, call, runSearch]);

  const loadMore = async () => {
    if (!page?.nextCursor) return;
    const outcome = await search.run(() => call('registry.search', { text, cursor: page.nextCursor }), 'more');
    if (outcome?.ok) {
      setPage({ ...outcome.result, entries: [...page.entries, ...outcome.result.entries] });
    }
  };

  return (
    <div className="stack">
      <label className="field">
        Search the MCP Registry
        <input
          type="search"
          value={text}
          placeholder="e.g. github, filesystem, memory"
          onChange={(event) => setText(event.target.value)}
        />
      </label>
      {page?.offline && (
        <p className="note tone-warn" role="status">
          offline: showing results from {age(page.fetchedAt)}
        </p>
      )}
      {page?.failures.map((failure) => (
        <p className="note tone-warn" key={failure.registry}>
          {failure.registry}: {failure.message}
        </p>
      ))}
      <ErrorNote error={search.error} title="The registry did not answer" />
      <div className="registry-browser row">
        <RegistryList entries={page?.entries ?? []} selected={selected} onSelect={setSelected} />
        {selected && <RegistryDetail key={`${selected.registry} ${selected.name}`} entry={selected} />}
      </div>
      {page?.nextCursor && (
        <button type="button" disabled={search.busy} onClick={() => void loadMore()}>
          Load more
        </button>
      )}
      {page && page.entries.length === 0 && <p className="muted">No servers match “{text}”.</p>}
    </div>
  );
}

function RegistryList(props: {
  entries: RegistryEntryView[];
  selected: RegistryEntryView | undefined;
  onSelect: (entry: RegistryEntryView) => void;
}) {
  const parentRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: props.entries.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => 76,
    overscan: 8,
    initialRect: { width: 400, height: 600 },
  });
  return (
    <div ref={parentRef} className="registry-list" role="list" aria-label="Registry servers">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const entry = props.entries[item.index]!;
          return (
            <div
              key={`${entry.registry} ${entry.name}`}
              role="listitem"
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
            >
              <button
                type="button"
                className="preset"
                aria-pressed={props.selected?.name === entry.name}
                onClick={() => props.onSelect(entry)}
              >
                <span className="row">
                  <strong>{entry.title ?? entry.name}</strong>
                  <span className="muted">{entry.version}</span>
                  {entry.kinds.map((kind) => (
                    <Badge key={kind}>{kind}</Badge>
                  ))}
                  {entry.addedAs && <Badge tone="info">added</Badge>}
                  {!entry.valid && <Badge tone="bad">invalid</Badge>}
                </span>
                <span className="desc">{entry.valid ? entry.description : entry.reason}</span>
              </button>
            </div>
          );
        })}
      </div>
    </div>
  );
}

function RegistryDetail({ entry }: { entry: RegistryEntryView }) {
  const call = useAppStore((s) => s.call);
  const setScreen = useAppStore((s) => s.setScreen);
  const showAdded = useAppStore((s) => s.showAdded);
  const installable = entry.options.filter((option) => !option.unsupported);
  const [optionIndex, setOptionIndex] = useState(0);
  const option = installable[optionIndex];
  const [values, setValues] = useState<Record<string, string>>({});
  const [id, setId] = useState('');
  const [signIn, setSignIn] = useState<{ id: string; url?: string } | undefined>();
  const { busy, error, run } = useOutcome();
  const ids = useId();
  /** A message on field `key` (`id`: the name) when the core's answer is about it. */
  const fieldProps = (key: string) => invalidProps(`${ids}-${key}`, errorOnField(error, key));
  const fieldError = (key: string) => <FieldError id={`${ids}-${key}`} message={errorOnField(error, key)} />;
  const onField = fieldOfError(error) === 'id' || option?.fields.some((field) => field.key === fieldOfError(error));
  // Asked once (no keychain): the choice stays shown while the user retries.
  const { storage, setStorage, askedVariables, asking } = useSecretStorageChoice(error);
  const keychain = useKeychainAvailable();
  // No sandbox can run here: running it unsandboxed is the user's explicit choice (the refusal says what to install).
  const [unsandboxed, setUnsandboxed] = useState(false);
  const noSandbox = error?.code === ErrorCode.SandboxUnavailable || unsandboxed;
  const preview = useRegistryPreview(entry, option, values);

  const add = async () => {
    if (!option) return;
    const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
    const outcome = await run(
      () =>
        call('registry.add', {
          ref: `${entry.name}@${entry.version}`,
          values: given,
          choice: option.choice,
          ...(id.trim() !== '' ? { id: id.trim() } : {}),
          ...(storage ? { secretStorage: storage } : {}),
          ...(unsandboxed ? { unsandboxed: true } : {}),
        }),
      'add',
    );
    if (!outcome?.ok) return;
    // A server that answered 401 is saved; its sign-in (OAuth) has started: say where to finish it.
    if (outcome.result.needsAuthorization) setSignIn({ id: outcome.result.id, url: outcome.result.authorizationUrl });
    else showAdded(outcome.result.id);
  };

  return (
    <form
      className="stack panel registry-detail"
      aria-label={`Add ${entry.title ?? entry.name}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void add();
      }}
    >
      <h2>{entry.title ?? entry.name}</h2>
      <code className="muted">
        {entry.name}@{entry.version}
      </code>
      {entry.description && <p>{entry.description}</p>}
      {entry.repositoryUrl && (
        <a href={entry.repositoryUrl} target="_blank" rel="noreferrer">
          Repository
        </a>
      )}
      {!entry.valid && <p className="note tone-bad">Not installable: {entry.reason}</p>}
      {entry.valid && installable.length === 0 && (
        <p className="note tone-bad">{entry.options[0]?.unsupported ?? 'Nothing here that Switchboard can run.'}</p>
      )}
      {installable.length > 1 && (
        <label className="field">
          Run it as
          <select value={optionIndex} onChange={(event) => setOptionIndex(Number(event.target.value))}>
            {installable.map((o, i) => (
              <option key={o.label} value={i}>
                {o.kind}: {o.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {option && (
        <>
          <code className="muted">{option.label}</code>
          <div className="field-wrap">
            <label className="field">
              Name (optional)
              <input value={id} onChange={(event) => setId(event.target.value)} {...fieldProps('id')} />
            </label>
            {fieldError('id')}
          </div>
          {option.fields.map((field) => (
            <div className="field-wrap" key={field.key}>
              <label className="field">
                {field.name}
                {field.required ? ' (required)' : ''}
                {field.secret ? secretFieldNote(keychain, askedVariables) : ''}
                {field.choices ? (
                  <select
                    value={values[field.key] ?? field.default ?? ''}
                    onChange={(event) => setValues({ ...values, [field.key]: event.target.value })}
                    {...fieldProps(field.key)}
                  >
                    {!field.required && <option value="">(none)</option>}
                    {field.choices.map((choice) => (
                      <option key={choice}>{choice}</option>
                    ))}
                  </select>
                ) : (
                  <input
                    type={field.secret ? 'password' : 'text'}
                    placeholder={field.placeholder ?? field.default}
                    required={field.required}
                    value={values[field.key] ?? ''}
                    onChange={(event) => setValues({ ...values, [field.key]: event.target.value })}
                    {...fieldProps(field.key)}
                  />
                )}
                {field.description && <span className="help">{field.description}</span>}
              </label>
              {fieldError(field.key)}
            </div>
          ))}
          {preview.view && <RunPreview preview={preview.view} />}
          {preview.problem && <p className="muted small">What will run: {preview.problem}</p>}
          {askedVariables && <SecretStorageChoice variables={askedVariables} value={storage} onChange={setStorage} />}
          <UnsandboxedChoice shown={noSandbox} checked={unsandboxed} onChange={setUnsandboxed} />
          {!asking && !onField && <AddErrorNote error={error} title="Not added" />}
          {signIn && (
            <div className="note tone-warn" role="status">
              <strong>Sign-in needed</strong>: {signIn.id} was added and asks you to sign in. Finish in the browser
              window that opened
              {signIn.url && (
                <>
                  {'; if none did, open '}
                  <a href={signIn.url} target="_blank" rel="noreferrer">
                    the sign-in page
                  </a>
                </>
              )}
              .{' '}
              <button type="button" onClick={() => setScreen('backends')}>
                Go to Servers
              </button>
            </div>
          )}
          <button
            type="submit"
            className="primary"
            disabled={busy || signIn !== undefined || (askedVariables !== undefined && !storage)}
          >
            {busy ? 'Checking…' : error && !asking ? 'Retry' : 'Add'}
          </button>
        </>
      )}
    </form>
  );
}

/**
 * What adding `entry` as `option` with `values` would run (`registry.preview`,
 * asked again as the values change, debounced; secret values are not sent).
 */
function useRegistryPreview(
  entry: RegistryEntryView,
  option: RegistryEntryView['options'][number] | undefined,
  values: Record<string, string>,
): { view?: AddPreviewView; problem?: string } {
  const call = useAppStore((s) => s.call);
  const [state, setState] = useState<{ view?: AddPreviewView; problem?: string }>({});
  const secret = new Set(option?.fields.filter((field) => field.secret).map((field) => field.key));
  // Secrets never leave the form for a preview: a placeholder stands in (they go to env, not the command line).
  const shown = JSON.stringify(
    Object.fromEntries(Object.entries(values).map(([key, value]) => [key, secret.has(key) ? '…' : value])),
  );
  const choice = option ? JSON.stringify(option.choice) : undefined;
  useEffect(() => {
    if (choice === undefined) return;
    let live = true;
    const timer = setTimeout(() => {
      const given = Object.fromEntries(
        Object.entries(JSON.parse(shown) as Record<string, string>).filter(([, v]) => v !== ''),
      );
      void call('registry.preview', {
        ref: `${entry.name}@${entry.version}`,
        values: given,
        choice: JSON.parse(choice) as { package: number } | { remote: number },
      }).then((outcome) => {
        if (!live) return;
        setState(outcome.ok ? { view: outcome.result } : { problem: outcome.error.message });
      });
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [call, entry.name, entry.version, choice, shown]);
  return state;
}
