/**
 * Skills into the clients that read them from disk (Claude Code's
 * ~/.claude/skills, ...): pick a client, see what would be written and
 * removed and where (a preview that changes nothing), install, and read the
 * result. The running Switchboard keeps what was installed in sync.
 */
import { useState } from 'react';
import { SKILLS_CLIENTS, type SkillsClientId, type SkillsInstallView } from '../../../../shared/model/skillsViews.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';

/** The lines saying what an install did (or, previewed, would do). */
export function describeSkills(view: SkillsInstallView): string[] {
  const verb = view.preview ? { write: 'Will write', remove: 'Will remove' } : { write: 'Wrote', remove: 'Removed' };
  const lines = view.written.map((skill) => `${verb.write} ${skill.name}: ${skill.files.join(', ')}`);
  if (view.written.length === 0) lines.push(view.preview ? 'Nothing new to write.' : 'Nothing new written.');
  if (view.unchanged.length > 0) lines.push(`Already up to date: ${view.unchanged.join(', ')}`);
  if (view.removed.length > 0) lines.push(`${verb.remove} (no longer offered): ${view.removed.join(', ')}`);
  for (const kept of view.kept) lines.push(`Kept ${kept.name}: ${kept.reason}`);
  for (const skipped of view.skipped) lines.push(`Skipped ${skipped.name}: ${skipped.reason}`);
  return lines;
}

function Lines({ view, label }: { view: SkillsInstallView; label: string }) {
  return (
    <div className="stack small" role="status" aria-label={label}>
      <div>
        Folder: <code>{view.folder}</code>
      </div>
      <ul>
        {describeSkills(view).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

/** The skills panel of the Clients screen. */
export function SkillsInstallPanel() {
  const call = useAppStore((s) => s.call);
  const { busy, error, run } = useOutcome();
  const [client, setClient] = useState<SkillsClientId>('claude-code');
  const [plan, setPlan] = useState<SkillsInstallView | undefined>();
  const [done, setDone] = useState<SkillsInstallView | undefined>();
  const name = SKILLS_CLIENTS.find((each) => each.id === client)?.name ?? client;
  const preview = async () => {
    setDone(undefined);
    const outcome = await run(() => call('clients.installSkills', { client, preview: true }));
    setPlan(outcome?.ok ? outcome.result : undefined);
  };
  const install = async () => {
    const outcome = await run(() => call('clients.installSkills', { client }));
    if (outcome?.ok) {
      setDone(outcome.result);
      setPlan(undefined);
    }
  };
  return (
    <section className="panel" aria-label="Skills">
      <h2>Skills</h2>
      <p className="muted small">
        Write the skills a client&apos;s profile may use (after review) into the folder it reads skills from. Each file
        is checked against its digest; folders of your own are never touched, and Switchboard keeps the ones it wrote in
        sync.
      </p>
      <div className="row">
        <label className="field">
          Client
          <select
            value={client}
            onChange={(event) => {
              setClient(event.target.value as SkillsClientId);
              setPlan(undefined);
              setDone(undefined);
            }}
          >
            {SKILLS_CLIENTS.map((each) => (
              <option key={each.id} value={each.id}>
                {each.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={busy} onClick={() => void preview()}>
          Show what will be written
        </button>
      </div>
      {plan && (
        <>
          <Lines view={plan} label="Skills to write" />
          <button type="button" className="primary" disabled={busy} onClick={() => void install()}>
            Install skills into {name}
          </button>
        </>
      )}
      {done && <Lines view={done} label="Skills written" />}
      <ErrorNote error={error} />
    </section>
  );
}
