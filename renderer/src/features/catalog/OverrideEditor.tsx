/**
 * The catalog detail pane's override editor: what the model sees of a tool
 * (name, title, description, annotations, each argument as is, defaulted or
 * fixed and hidden), for the server or for the profile the catalog is seen
 * as; or a prompt or resource offered as a tool. As you type it shows the
 * definition the model would get and its token cost (asked of the core, so
 * the preview is exactly what would be served), with each problem under its
 * field; Save writes it through the core, Remove clears it.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { CatalogEntry } from '../../../../shared/model/views.js';
import type { OverrideView, ToolOverride } from '../../../../shared/model/overrides.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { FieldError, invalidProps } from '../../components/FieldError.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';
import { catalogKey } from '../../store/slices/catalogSlice.js';
import { approxTokens } from '../clients/ExposureCell.js';
import { SchemaTable } from './SchemaTable.js';
import {
  baseOf,
  formOf,
  HINTS,
  readOverrideForm,
  sectionOf,
  type ArgumentMode,
  type OverrideBase,
  type OverrideForm,
} from './overrideDraft.js';

/** How long typing pauses before the preview is asked for. */
const PREVIEW_DELAY_MS = 250;

/** The editor for `entry` at the level of `profile` (`*`: the server's own). */
export function OverrideEditor({ entry, profile, viewer }: { entry: CatalogEntry; profile: string; viewer: string }) {
  const section = sectionOf(entry);
  const call = useAppStore((s) => s.call);
  const select = useAppStore((s) => s.selectCatalogEntry);
  const [view, setView] = useState<OverrideView | undefined>();
  const [form, setForm] = useState<OverrideForm | undefined>();
  /** What the model sees without this level's override: the form starts from it. */
  const [base, setBase] = useState<OverrideBase>({});
  const { busy, error, run } = useOutcome();
  const asked = useRef(0);
  const ids = useId();
  const target = useMemo(
    () =>
      section && {
        backendId: entry.backendId,
        section,
        original: entry.original,
        ...(profile !== '*' ? { profile } : {}),
      },
    [entry.backendId, entry.original, section, profile],
  );
  const isTool = section === 'tools';

  // The saved override, and the form for it.
  useEffect(() => {
    if (!target) return;
    let live = true;
    void call('overrides.get', target).then((outcome) => {
      if (!live || !outcome.ok) return;
      setView(outcome.result);
      const names = Object.keys((outcome.result.upstream?.inputSchema?.['properties'] as object | undefined) ?? {});
      const under = baseOf(outcome.result.upstream, outcome.result.inherited);
      setBase(under);
      setForm(formOf(outcome.result.override as ToolOverride | undefined, names, under));
    });
    return () => {
      live = false;
    };
  }, [call, target]);

  const read = useMemo(
    () => (form ? readOverrideForm(form, isTool, isTool ? base : {}) : undefined),
    [form, isTool, base],
  );

  // The preview of the form as it stands, once typing pauses.
  useEffect(() => {
    if (!target || !read || Object.keys(read.errors).length > 0) return;
    const ask = ++asked.current;
    const timer = setTimeout(() => {
      void call('overrides.get', { ...target, draft: read.override }).then((outcome) => {
        if (outcome.ok && ask === asked.current) setView(outcome.result);
      });
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [call, target, read]);

  if (!target) return null;
  if (!form || !view) return <p className="muted">Loading the override…</p>;
  const level = profile === '*' ? 'every client' : viewer;
  const problemOf = (field: string): string | undefined =>
    view.problems.find((problem) => problem.path.endsWith(`.${field}`) || problem.path.includes(`.${field}.`))?.message;

  const save = async (override: ToolOverride | null) => {
    const outcome = await run(() => call('overrides.set', { ...target, override }));
    if (!outcome?.ok) return;
    const saved = await call('overrides.get', target);
    if (!saved.ok) return;
    setView(saved.result);
    const names = Object.keys((saved.result.upstream?.inputSchema?.['properties'] as object | undefined) ?? {});
    const under = baseOf(saved.result.upstream, saved.result.inherited);
    setBase(under);
    setForm(formOf(saved.result.override as ToolOverride | undefined, names, under));
    // A tool renamed for everyone is listed under its new name: keep it selected.
    const renamed = saved.result.preview?.name;
    if (entry.kind === 'tool' && profile === '*' && renamed && renamed !== entry.exposed)
      select(catalogKey({ kind: 'tool', exposed: renamed }));
  };

  const text = (field: 'name' | 'title' | 'description', label: string, help?: string) => {
    const message = problemOf(field);
    const id = `${ids}-${field}`;
    const control =
      field === 'description' ? (
        <textarea
          rows={3}
          value={form[field]}
          onChange={(event) => setForm({ ...form, [field]: event.target.value })}
          {...invalidProps(id, message)}
        />
      ) : (
        <input
          type="text"
          value={form[field]}
          onChange={(event) => setForm({ ...form, [field]: event.target.value })}
          {...invalidProps(id, message)}
        />
      );
    return (
      <div className="field-wrap">
        <label className="field">
          <span>{label}</span>
          {control}
          {help && <span className="help">{help}</span>}
        </label>
        <FieldError id={id} message={message && `${label} ${message}`} />
      </div>
    );
  };

  return (
    <form
      className="stack"
      aria-label={`Override of ${entry.original}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (read && Object.keys(read.errors).length === 0) void save(read.override);
      }}
    >
      <p className="muted">
        {section === 'tools'
          ? `What the model sees of this tool, for ${level}; the server's definition is unchanged.`
          : `Offer this ${section === 'promptsAsTools' ? 'prompt' : 'resource'} as a tool, for ${level}.`}
        {view.inherited ? ' Laid over the server’s own override.' : ''}
      </p>
      {text('name', 'Name', 'Before the server prefix; empty: the server’s.')}
      {text('title', 'Title')}
      {text('description', 'Description')}
      {isTool && (
        <fieldset className="field">
          <legend>Annotations</legend>
          <div className="row">
            {HINTS.map(({ key, label }) => (
              <label key={key} className="field">
                <span>{label}</span>
                <select
                  value={form.hints[key]}
                  onChange={(event) =>
                    setForm({ ...form, hints: { ...form.hints, [key]: event.target.value as 'server' | 'yes' | 'no' } })
                  }
                >
                  <option value="server">as the server says</option>
                  <option value="yes">yes</option>
                  <option value="no">no</option>
                </select>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {isTool && Object.keys(form.arguments).length > 0 && (
        <fieldset className="field">
          <legend>Arguments</legend>
          {Object.entries(form.arguments).map(([name, argument]) => {
            const message = read?.errors[name] ?? problemOf(`arguments.${name}.${argument.mode}`);
            const id = `${ids}-arg-${name}`;
            return (
              <div key={name} className="field-wrap">
                <div className="row">
                  <label className="field">
                    <span className="mono">{name}</span>
                    <select
                      aria-label={`How ${name} is set`}
                      value={argument.mode}
                      onChange={(event) =>
                        setForm({
                          ...form,
                          arguments: {
                            ...form.arguments,
                            [name]: { ...argument, mode: event.target.value as ArgumentMode },
                          },
                        })
                      }
                    >
                      <option value="as-is">as the client sends it</option>
                      <option value="default">default (JSON)</option>
                      <option value="fixed">fixed and hidden (JSON)</option>
                    </select>
                  </label>
                  {argument.mode !== 'as-is' && (
                    <label className="field">
                      <span>Value of {name}</span>
                      <input
                        type="text"
                        className="mono"
                        value={argument.value}
                        onChange={(event) =>
                          setForm({
                            ...form,
                            arguments: { ...form.arguments, [name]: { ...argument, value: event.target.value } },
                          })
                        }
                        {...invalidProps(id, message)}
                      />
                    </label>
                  )}
                </div>
                <FieldError id={id} message={message && `${name} ${message}`} />
              </div>
            );
          })}
        </fieldset>
      )}
      <section aria-label="What the model sees" className="stack">
        <h4>
          What the model sees{' '}
          {view.tokens !== undefined && <span className="chip">{approxTokens(view.tokens)} tokens</span>}
        </h4>
        {view.preview ? (
          <>
            <div className="mono">{view.preview.name}</div>
            {view.preview.title && <div>{view.preview.title}</div>}
            <p>{view.preview.description ?? <span className="muted">No description.</span>}</p>
            <SchemaTable schema={view.preview.inputSchema} />
          </>
        ) : (
          <p className="muted">The server does not serve it now: nothing to preview.</p>
        )}
      </section>
      <ErrorNote error={error} title="Could not save the override" />
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save override'}
        </button>
        {view.override && (
          <button type="button" disabled={busy} onClick={() => void save(null)}>
            Remove override
          </button>
        )}
      </div>
    </form>
  );
}
