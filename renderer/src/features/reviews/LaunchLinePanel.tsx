/**
 * What a server under review runs or reaches, exactly: the command and each
 * argument (or the URL), the names of the environment variables and headers
 * it is given (never their values), its working folder, and the sandbox it
 * runs under as health says it. When its launch line changed since it was
 * approved, the approved one is shown too.
 */
import type { BackendSandbox } from '../../../../shared/model/health.js';
import type { LaunchLineView } from '../../../../shared/model/reviewViews.js';
import { sandboxLine } from '../servers/sandboxEntry.js';

/** The sandbox in one line: health's (what is in force), else what the review knows. */
export function reviewSandboxLine(launch: LaunchLineView, sandbox: BackendSandbox | undefined): string {
  if (sandbox) return sandboxLine(sandbox);
  if (launch.transport !== 'stdio') return 'Remote server: no sandbox needed';
  if (launch.sandbox === null || launch.sandbox === undefined)
    return 'No sandbox setting of its own: the default in Settings applies';
  return launch.sandbox.enabled ? 'Sandbox on (not started yet)' : 'Not sandboxed: runs with your rights';
}

function Names({ label, names }: { label: string; names: readonly string[] | undefined }) {
  if (!names || names.length === 0) return null;
  return (
    <p>
      {label}: {names.map((name, at) => [at > 0 ? ', ' : '', <code key={name}>{name}</code>])}{' '}
      <span className="muted">(values not shown)</span>
    </p>
  );
}

/** The fields of one launch line. */
function LaunchFields({ launch, label }: { launch: LaunchLineView; label: string }) {
  return (
    <>
      {launch.command !== undefined && (
        <p>
          Command: <code>{launch.command}</code>
        </p>
      )}
      {launch.args !== undefined && launch.args.length > 0 && (
        <div>
          Arguments:
          <ol aria-label={label}>
            {launch.args.map((arg, at) => (
              <li key={`${at} ${arg}`}>
                <code>{arg}</code>
              </li>
            ))}
          </ol>
        </div>
      )}
      {launch.url !== undefined && (
        <p>
          URL: <code>{launch.url}</code>
        </p>
      )}
      {launch.cwd !== undefined && (
        <p>
          Working folder: <code>{launch.cwd}</code>
        </p>
      )}
      <Names label="Environment variables" names={launch.envKeys} />
      <Names label="Headers" names={launch.headerKeys} />
    </>
  );
}

/** The launch panel of a review. */
export function LaunchLinePanel({
  launch,
  approvedLaunch,
  sandbox,
}: {
  launch: LaunchLineView;
  approvedLaunch: LaunchLineView | undefined;
  sandbox: BackendSandbox | undefined;
}) {
  const tone = sandbox?.state === 'on' ? 'tone-ok' : sandbox?.state === 'unavailable' ? 'tone-bad' : 'tone-warn';
  return (
    <section className="panel run-preview stack small" aria-label="What runs">
      <h2>What runs</h2>
      <p>
        Transport: <code>{launch.transport}</code>
      </p>
      <LaunchFields launch={launch} label="Arguments" />
      <p className={`note ${launch.transport === 'stdio' ? tone : 'tone-info'}`}>
        {reviewSandboxLine(launch, sandbox)}
      </p>
      {approvedLaunch && (
        <details open>
          <summary>What you approved before</summary>
          <LaunchFields launch={approvedLaunch} label="Arguments approved before" />
        </details>
      )}
    </section>
  );
}
