/**
 * The Featured row: the built-in list of well-known servers (no registry
 * needed, so it works offline). Pick one, fill in what it needs, add; a
 * runtime that is not installed is named with its install link and Retry.
 * A preset already added (a server of its ID) says so: picking it again
 * offers its review, and a second copy only when asked for.
 */
import { useId, useMemo, useState } from 'react';
import { badIdMessage } from '../../../../shared/ids.js';
import {
  BACKEND_ID_RULE,
  buildPresetEntry,
  freeBackendId,
  SERVER_PRESETS,
  type ServerPreset,
} from '../../../../shared/presets.js';
import { FieldError, errorOnField, fieldOfError, invalidProps } from '../../components/FieldError.js';
import { Badge } from '../../components/HealthBadge.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';
import { AddErrorNote, missingRuntimeOf } from './AddErrorNote.js';
import { saveBackend } from './saveBackend.js';
import { RunPreview } from './RunPreview.js';

/** The preset grid and the selected preset's form. */
export function PresetPicker() {
  const [selected, setSelected] = useState<ServerPreset | undefined>();
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [id, setId] = useState('');
  /** A stdio preset runs sandboxed unless the user turns it off here. */
  const [sandboxed, setSandboxed] = useState(true);
  /** The user asked for a second copy of a preset already added. */
  const [another, setAnother] = useState(false);
  /** The form's own problems by field (`id` or a preset field's key), shown on the field. */
  const [problems, setProblems] = useState<Record<string, string>>({});
  const ids = useId();
  const problemOf = (field: string) => problems[field] ?? errorOnField(error, field);
  const { busy, error, setError, run } = useOutcome();
  const call = useAppStore((s) => s.call);
  const addBackend = useAppStore((s) => s.addBackend);
  const updateBackend = useAppStore((s) => s.updateBackend);
  const showAdded = useAppStore((s) => s.showAdded);
  const openReview = useAppStore((s) => s.openReview);
  const backends = useAppStore((s) => s.backends.data);
  const taken = useMemo(() => new Set((backends ?? []).map((b) => b.health.id)), [backends]);

  const choose = (preset: ServerPreset) => {
    setSelected(preset);
    setAnother(false);
    setId(freeBackendId(preset.id, taken));
    setAnswers({});
    setSandboxed(true);
    setProblems({});
    setError(undefined);
  };

  const add = async (force: boolean) => {
    if (!selected) return;
    const built = sandboxedPreset(selected, answers, id.trim(), sandboxed);
    const found = BACKEND_ID_RULE.test(id.trim()) ? built.fields : { id: badIdMessage('name'), ...built.fields };
    setProblems(found);
    setError(undefined);
    if (Object.keys(found).length > 0) return;
    const outcome = await run(() =>
      saveBackend({ call, addBackend, updateBackend }, { id: id.trim(), ...built, force }),
    );
    if (outcome?.ok) showAdded(id.trim());
  };

  return (
    <div className="stack">
      <h2>Featured</h2>
      <div className="preset-grid preset-row" role="group" aria-label="Featured servers">
        {SERVER_PRESETS.map((preset) => (
          <button
            key={preset.id}
            type="button"
            className="preset"
            aria-pressed={selected?.id === preset.id}
            onClick={() => choose(preset)}
          >
            <span className="row">
              <strong>{preset.name}</strong>
              {preset.oauth && <Badge tone="info">OAuth</Badge>}
              {preset.transport === 'http' && <Badge>remote</Badge>}
              {taken.has(preset.id) && <Badge tone="ok">added</Badge>}
            </span>
            <span className="desc">{preset.description}</span>
          </button>
        ))}
      </div>
      {selected && taken.has(selected.id) && !another && (
        <div className="stack panel" role="region" aria-label={`${selected.name} is added`}>
          <p>
            {selected.name} is added already, as <strong>{selected.id}</strong>.
          </p>
          <div className="row">
            <button type="button" className="primary" onClick={() => openReview(selected.id)}>
              Review
            </button>
            <button type="button" onClick={() => setAnother(true)}>
              Add another {selected.name}
            </button>
          </div>
        </div>
      )}
      {selected && (!taken.has(selected.id) || another) && (
        <form
          className="stack panel"
          aria-label={`Add ${selected.name}`}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void add(false);
          }}
        >
          <h2>{selected.name}</h2>
          <code className="muted">
            {selected.transport === 'stdio' ? [selected.command, ...(selected.args ?? [])].join(' ') : selected.url}
          </code>
          <div className="field-wrap">
            <label className="field">
              Name
              <input
                value={id}
                onChange={(event) => setId(event.target.value)}
                {...invalidProps(`${ids}-id`, problemOf('id'))}
              />
            </label>
            <FieldError id={`${ids}-id`} message={problemOf('id')} />
          </div>
          {selected.fields.map((field) => (
            <div className="field-wrap" key={field.key}>
              <label className="field">
                {field.label}
                <input
                  type={field.input === 'secret' ? 'password' : 'text'}
                  placeholder={field.placeholder}
                  required={field.required}
                  value={answers[field.key] ?? ''}
                  onChange={(event) => setAnswers({ ...answers, [field.key]: event.target.value })}
                  {...invalidProps(`${ids}-${field.key}`, problemOf(field.key))}
                />
                {field.help && <span className="help">{field.help}</span>}
              </label>
              <FieldError id={`${ids}-${field.key}`} message={problemOf(field.key)} />
            </div>
          ))}
          {selected.transport === 'stdio' && (
            <label className="check">
              <input type="checkbox" checked={sandboxed} onChange={(event) => setSandboxed(event.target.checked)} />
              Run sandboxed
            </label>
          )}
          <RunPreview preview={presetPreview(sandboxedPreset(selected, answers, id.trim(), sandboxed).entry)} />
          {selected.oauth && (
            <p className="muted">After adding, press Authorize on its card to sign in in your browser.</p>
          )}
          {fieldOfError(error) === undefined && <AddErrorNote error={error} title="Not added" />}
          <div className="row">
            <button type="submit" className="primary" disabled={busy}>
              {busy ? 'Checking…' : missingRuntimeOf(error) ? 'Retry' : `Add ${selected.name}`}
            </button>
            {error && (
              <button type="button" disabled={busy} onClick={() => void add(true)}>
                Save anyway
              </button>
            )}
          </div>
        </form>
      )}
    </div>
  );
}

/** The preset's entry with its sandbox: a stdio server added here runs sandboxed unless turned off. */
function sandboxedPreset(preset: ServerPreset, answers: Record<string, string>, id: string, sandboxed: boolean) {
  const built = buildPresetEntry(preset, answers, id);
  return preset.transport === 'stdio' ? { ...built, entry: { ...built.entry, sandbox: sandboxed } } : built;
}

/** What the preview shows of a preset's entry. */
function presetPreview(entry: Record<string, unknown>) {
  if (typeof entry['url'] === 'string') return { url: entry['url'] };
  return {
    command: String(entry['command']),
    args: Array.isArray(entry['args']) ? entry['args'].map(String) : [],
    sandbox: { enabled: entry['sandbox'] === true, read: [], write: [], network: 'none' as const },
  };
}
