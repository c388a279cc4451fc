/**
 * Installing a .mcpb (or .dxt) bundle: pick the file or drop it here; the
 * core reads and validates its manifest, and this shows its name, author,
 * version, the tools it declares and what it asks for (sensitive values go
 * to the OS keychain; without one, the user chooses where) before Add. A bad bundle is refused with the field
 * named, and nothing is installed.
 */
import { useId, useState, type DragEvent } from 'react';
import type { BundleUpload, BundleView } from '../../../../shared/model/bundleViews.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { FieldError, errorOnField, fieldOfError, invalidProps } from '../../components/FieldError.js';
import { Badge } from '../../components/HealthBadge.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';
import { bundleUpload } from './bundleFile.js';
import {
  SecretStorageChoice,
  secretFieldNote,
  useKeychainAvailable,
  useSecretStorageChoice,
} from './SecretStorageChoice.js';
import { bundlePreview } from './bundlePreview.js';
import { RunPreview, UnsandboxedChoice } from './RunPreview.js';
import { ErrorCode } from '../../../../shared/errors.js';

/** The file picker, the drop zone and the picked bundle's details and form. */
export function BundleInstall() {
  const call = useAppStore((s) => s.call);
  const [picked, setPicked] = useState<{ upload: BundleUpload; view: BundleView } | undefined>();
  const [dragging, setDragging] = useState(false);
  const inspect = useOutcome();

  const read = async (file: File | undefined) => {
    if (!file) return;
    setPicked(undefined);
    const prepared = await bundleUpload(file);
    if ('error' in prepared) return inspect.setError(prepared.error);
    const outcome = await inspect.run(() => call('bundles.inspect', prepared.upload), 'inspect');
    if (outcome?.ok) setPicked({ upload: prepared.upload, view: outcome.result });
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void read(event.dataTransfer.files[0]);
  };

  return (
    <div className="stack">
      <div
        className={`drop-zone${dragging ? ' dragging' : ''}`}
        role="region"
        aria-label="Drop a bundle here"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p>Drop a .mcpb (or .dxt) file here, or</p>
        <label className="field">
          Choose a bundle file
          <input
            type="file"
            accept=".mcpb,.dxt"
            onChange={(event) => {
              void read(event.target.files?.[0]);
              event.target.value = ''; // the same file again reads again
            }}
          />
        </label>
      </div>
      {inspect.busy && <p className="muted">Reading the bundle…</p>}
      <ErrorNote error={inspect.error} title="Not a bundle Switchboard can install" />
      {picked && <BundleForm key={picked.upload.fileName} upload={picked.upload} view={picked.view} />}
    </div>
  );
}

function BundleForm({ upload, view }: { upload: BundleUpload; view: BundleView }) {
  const call = useAppStore((s) => s.call);
  const showAdded = useAppStore((s) => s.showAdded);
  const [values, setValues] = useState<Record<string, string>>({});
  const [id, setId] = useState('');
  const { busy, error, run } = useOutcome();
  // No keychain: the core asks where sensitive values go, as for registry entries and pasted snippets.
  const { storage, setStorage, askedVariables, asking } = useSecretStorageChoice(error);
  const keychain = useKeychainAvailable();
  // No sandbox can run here: running it unsandboxed is the user's explicit choice (the refusal says what to install).
  const [unsandboxed, setUnsandboxed] = useState(false);
  const noSandbox = error?.code === ErrorCode.SandboxUnavailable || unsandboxed;
  const title = view.displayName ?? view.name;
  const ids = useId();

  const install = async () => {
    const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
    const outcome = await run(
      () =>
        call('bundles.install', {
          ...upload,
          values: given,
          ...(id.trim() !== '' ? { id: id.trim() } : {}),
          ...(storage ? { secretStorage: storage } : {}),
          ...(unsandboxed ? { unsandboxed: true } : {}),
        }),
      'install',
    );
    if (outcome?.ok) showAdded(outcome.result.id);
  };

  return (
    <form
      className="stack panel"
      aria-label={`Add ${title}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void install();
      }}
    >
      <h2>{title}</h2>
      <p className="row">
        <span>
          {view.name} {view.version}
        </span>
        <span className="muted">by {view.author}</span>
        <Badge>{view.serverType}</Badge>
      </p>
      <p>{view.description}</p>
      <section aria-label="Declared tools">
        <h3>Tools it declares</h3>
        {view.tools.length === 0 ? (
          <p className="muted">None declared (it may still list some once started).</p>
        ) : (
          <ul>
            {view.tools.map((tool) => (
              <li key={tool.name}>
                <code>{tool.name}</code>
                {tool.description ? ` — ${tool.description}` : ''}
              </li>
            ))}
          </ul>
        )}
      </section>
      <div className="field-wrap">
        <label className="field">
          Name (optional)
          <input
            value={id}
            onChange={(event) => setId(event.target.value)}
            {...invalidProps(`${ids}-id`, errorOnField(error, 'id'))}
          />
        </label>
        <FieldError id={`${ids}-id`} message={errorOnField(error, 'id')} />
      </div>
      {view.fields.map((field) => (
        <div className="field-wrap" key={field.key}>
          <label className="field">
            {field.title}
            {field.required ? ' (required)' : ''}
            {field.sensitive ? secretFieldNote(keychain, askedVariables) : ''}
            <input
              type={field.sensitive ? 'password' : 'text'}
              placeholder={field.default}
              required={field.required}
              value={values[field.key] ?? ''}
              onChange={(event) => setValues({ ...values, [field.key]: event.target.value })}
              {...invalidProps(`${ids}-${field.key}`, errorOnField(error, field.key))}
            />
            <span className="help">{field.description}</span>
          </label>
          <FieldError id={`${ids}-${field.key}`} message={errorOnField(error, field.key)} />
        </div>
      ))}
      <RunPreview preview={bundlePreview(view, values)} />
      {askedVariables && <SecretStorageChoice variables={askedVariables} value={storage} onChange={setStorage} />}
      <UnsandboxedChoice shown={noSandbox} checked={unsandboxed} onChange={setUnsandboxed} />
      {!asking && !['id', ...view.fields.map((field) => field.key)].includes(fieldOfError(error) ?? '') && (
        <ErrorNote error={error} title="Not added" />
      )}
      <button type="submit" className="primary" disabled={busy || (askedVariables !== undefined && !storage)}>
        {busy ? 'Checking…' : error && !asking ? 'Retry' : 'Add'}
      </button>
    </form>
  );
}
