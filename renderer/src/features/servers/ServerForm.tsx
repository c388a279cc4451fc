/**
 * The form for any server: a stdio command (command, arguments, env, folder)
 * or a URL (Streamable HTTP or SSE, headers). Used to add and to edit; adding,
 * it shows what will run and its sandbox before anything starts (RunPreview.tsx).
 */
import { useId, useState } from 'react';
import type { CallOutcome } from '../../../../shared/contract.js';
import type { ErrorData } from '../../../../shared/errors.js';
import { BACKEND_TRANSPORTS, TRANSPORT_KINDS } from '../../../../shared/model/transports.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { FieldError, errorOnField, fieldOfError, invalidProps } from '../../components/FieldError.js';
import { useOutcome } from '../../components/useOutcome.js';
import { argsOfForm, entryFromForm, type ServerFormState } from './entryForm.js';
import { RunPreview } from './RunPreview.js';
import { KeyValueRows } from './KeyValueRows.js';
import { AddProgress, type AddPhase } from './AddProgress.js';
import type { PendingSecret } from '../../../../shared/presets.js';

/** What the form hands to its owner on submit. */
export interface ServerFormSubmit {
  id: string;
  entry: Record<string, unknown>;
  secrets: PendingSecret[];
}

/**
 * The controlled form; `onSubmit` resolves with an error to show (the typed values stay), or nothing,
 * and reports its steps through `onPhase` (shown with the seconds counting while it runs).
 */
export function ServerForm({
  form,
  onChange,
  onSubmit,
  submitLabel,
  idLocked = false,
  base,
}: {
  form: ServerFormState;
  onChange: (form: ServerFormState) => void;
  onSubmit: (submit: ServerFormSubmit, onPhase: (phase: AddPhase) => void) => Promise<ErrorData | undefined>;
  submitLabel: string;
  idLocked?: boolean;
  base?: Record<string, unknown>;
}) {
  /** The form's own problems by field (`id`, `command`, `url`, `env.0`…), shown on the field. */
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState<{ phase: AddPhase; since: number } | undefined>();
  const { busy, error, setError, run } = useOutcome();
  const patch = (change: Partial<ServerFormState>) => onChange({ ...form, ...change });
  const ids = useId();
  /** The message on `field`: the form's own check, or the core's answer when it is about that field. */
  const problemOf = (field: string) => problems[field] ?? errorOnField(error, field);
  const fieldProps = (field: string) => invalidProps(`${ids}-${field}`, problemOf(field));
  const fieldError = (field: string) => <FieldError id={`${ids}-${field}`} message={problemOf(field)} />;
  const rowErrors = (field: 'env' | 'headers') =>
    Object.fromEntries(
      Object.entries(problems).flatMap(([key, message]) => {
        const [group, index] = key.split('.');
        return group === field ? [[Number(index), message]] : [];
      }),
    );

  const submit = async () => {
    const built = entryFromForm(form, base);
    setProblems(built.fields);
    setError(undefined);
    if (built.problems.length > 0) return;
    const since = Date.now();
    await run(async (): Promise<CallOutcome<void>> => {
      const submitted = { id: form.id.trim(), entry: built.entry, secrets: built.secrets };
      const failed = await onSubmit(submitted, (phase) => setProgress({ phase, since }));
      return failed ? { ok: false, error: failed } : { ok: true, result: undefined };
    });
    setProgress(undefined);
  };

  return (
    <form
      className="stack"
      aria-label="Server settings"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="grid-2">
        <div className="field-wrap">
          <label className="field">
            Name
            <input
              value={form.id}
              disabled={idLocked}
              {...fieldProps('id')}
              onChange={(e) => patch({ id: e.target.value })}
              placeholder="my-server"
            />
            <span className="help">Prefix of its tools, e.g. name__tool.</span>
          </label>
          {fieldError('id')}
        </div>
        <label className="field">
          Transport
          <select
            value={form.transport}
            onChange={(e) => patch({ transport: e.target.value as ServerFormState['transport'] })}
          >
            {TRANSPORT_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {BACKEND_TRANSPORTS[kind].choice}
              </option>
            ))}
          </select>
        </label>
      </div>
      {form.transport === 'stdio' ? (
        <>
          <div className="field-wrap">
            <label className="field">
              Command
              <input
                value={form.command}
                onChange={(e) => patch({ command: e.target.value })}
                placeholder="npx"
                {...fieldProps('command')}
              />
            </label>
            {fieldError('command')}
          </div>
          <label className="field">
            Arguments <span className="help">One per line.</span>
            <textarea
              value={form.args}
              onChange={(e) => patch({ args: e.target.value })}
              placeholder={'-y\n@modelcontextprotocol/server-memory'}
            />
          </label>
          <label className="field">
            Working folder <span className="help">Optional.</span>
            <input value={form.cwd} onChange={(e) => patch({ cwd: e.target.value })} />
          </label>
          <KeyValueRows
            what="Variable"
            field="env"
            rows={form.env}
            errors={rowErrors('env')}
            onChange={(env) => patch({ env })}
          />
        </>
      ) : (
        <>
          <div className="field-wrap">
            <label className="field">
              URL
              <input
                value={form.url}
                onChange={(e) => patch({ url: e.target.value })}
                placeholder="https://example.com/mcp"
                {...fieldProps('url')}
              />
            </label>
            {fieldError('url')}
          </div>
          <KeyValueRows
            what="Header"
            field="headers"
            rows={form.headers}
            errors={rowErrors('headers')}
            onChange={(headers) => patch({ headers })}
          />
        </>
      )}
      <label className="field">
        Start
        <select value={form.start} onChange={(e) => patch({ start: e.target.value as ServerFormState['start'] })}>
          <option value="default">Default (proxy options)</option>
          <option value="eager">At launch</option>
          <option value="on-demand">On first request, stopped when idle</option>
        </select>
        <span className="help">
          On demand: once its tools are known, it runs only while used (saves memory with many servers).
        </span>
      </label>
      {form.sandbox !== undefined && form.transport === 'stdio' && (
        <label className="check">
          <input type="checkbox" checked={form.sandbox} onChange={(e) => patch({ sandbox: e.target.checked })} />
          Run sandboxed <span className="help">Its own folders and a private home; no network, no other files.</span>
        </label>
      )}
      {form.sandbox !== undefined && (
        <RunPreview
          preview={
            form.transport === 'stdio'
              ? {
                  command: form.command.trim(),
                  args: argsOfForm(form),
                  sandbox: { enabled: form.sandbox, read: [], write: [], network: 'none' },
                }
              : { url: form.url.trim() }
          }
        />
      )}
      {busy && progress && <AddProgress phase={progress.phase} since={progress.since} />}
      {fieldOfError(error) === undefined && <ErrorNote error={error} title="Not saved" />}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Checking…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
