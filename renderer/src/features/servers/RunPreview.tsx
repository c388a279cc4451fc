/**
 * What a server being added will run, before anything is started (issue #25;
 * the MCP security best practices ask a one-click install to show the exact
 * command): the command, each argument, and the sandbox it will run under,
 * said plainly when no sandbox can run on this machine. Every Add route shows
 * it: the form, Featured, pasted JSON, the registry and bundles.
 */
import { useEffect, useState } from 'react';
import type { AddPreviewView, SandboxSupportView } from '../../../../shared/model/sandboxViews.js';
import { useAppStore } from '../../store/context.js';
import { settingWords } from './sandboxEntry.js';

/** Whether a sandbox can run here (undefined until the host answers). */
export function useSandboxSupport(): SandboxSupportView | undefined {
  const call = useAppStore((s) => s.call);
  const [support, setSupport] = useState<SandboxSupportView | undefined>();
  useEffect(() => {
    let live = true;
    void call('sandbox.settings').then((outcome) => {
      if (live && outcome.ok) setSupport(outcome.result.support);
    });
    return () => {
      live = false;
    };
  }, [call]);
  return support;
}

/** The sandbox of a preview in one line. */
export function previewSandboxLine(preview: AddPreviewView, support: SandboxSupportView | undefined): string {
  const { sandbox } = preview;
  if (!sandbox) {
    if (preview.url && !preview.command) return 'Remote server: no sandbox needed';
    return 'Not sandboxed by Switchboard: a container runtime keeps its own isolation';
  }
  if (!sandbox.enabled) return 'Not sandboxed: runs with your rights';
  if (support && !support.available) return `Sandbox unavailable: ${support.reason} — it will not be started`;
  return `Sandboxed${support?.available ? ` (${support.engine})` : ''}: ${settingWords(sandbox)}`;
}

/** The preview box. */
export function RunPreview({ preview, label = 'What will run' }: { preview: AddPreviewView; label?: string }) {
  const support = useSandboxSupport();
  const unavailable = preview.sandbox?.enabled === true && support?.available === false;
  return (
    <section className="run-preview stack small" aria-label={label}>
      <h3>{label}</h3>
      {preview.command !== undefined && (
        <p>
          Command: <code>{preview.command}</code>
        </p>
      )}
      {preview.args !== undefined && preview.args.length > 0 && (
        <div>
          Arguments:
          <ol aria-label="Arguments">
            {preview.args.map((arg, at) => (
              <li key={`${at} ${arg}`}>
                <code>{arg}</code>
              </li>
            ))}
          </ol>
        </div>
      )}
      {preview.url !== undefined && (
        <p>
          URL: <code>{preview.url}</code>
        </p>
      )}
      {preview.note && <p className="muted">{preview.note}</p>}
      <p className={`note ${unavailable ? 'tone-bad' : preview.sandbox?.enabled ? 'tone-ok' : 'tone-warn'}`}>
        {previewSandboxLine(preview, support)}
      </p>
    </section>
  );
}

/**
 * Where no sandbox can run here (the add was refused with `sandbox_unavailable`,
 * whose message says what to install or run): the explicit choice to run the
 * new server with the user's rights, saved on it as `"sandbox": false`.
 */
export function UnsandboxedChoice({
  shown,
  checked,
  onChange,
}: {
  shown: boolean;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  if (!shown) return null;
  return (
    <label className="check note tone-warn">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      Run it unsandboxed, with your rights{' '}
      <span className="help">Your choice, saved on this server as "sandbox": false; turn its sandbox on later.</span>
    </label>
  );
}
