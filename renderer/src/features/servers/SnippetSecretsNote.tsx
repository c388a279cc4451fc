/**
 * Where a pasted server's secrets went, said truthfully per place: the OS
 * keychain; an environment variable (named, with how to set it); or
 * config.json in plain text, which the user chose (with the warning again).
 */
import type { SnippetSecret } from '../../../../shared/model/snippetViews.js';

/** The variable a `${VAR}` reference (possibly after a scheme such as `Bearer `) names. */
function variableOf(reference: string): string {
  return /\$\{([A-Za-z_][A-Za-z0-9_]*)/.exec(reference)?.[1] ?? reference;
}

/** One line per place a secret went; nothing when there are none. */
export function SnippetSecretsNote({ secrets }: { secrets: SnippetSecret[] }) {
  const at = (place: SnippetSecret['place']) => secrets.filter((secret) => secret.place === place);
  const keychain = at('keychain');
  const environment = at('environment');
  const config = at('config');
  return (
    <>
      {keychain.length > 0 && (
        <p className="small muted">
          Kept in the keychain, not in config.json: {keychain.map((secret) => secret.field).join(', ')}
        </p>
      )}
      {environment.length > 0 && (
        <div className="small note tone-warn">
          Read from environment variables, not saved anywhere:
          <ul>
            {environment.map((secret) => (
              <li key={secret.field}>
                {secret.field} from <code>{variableOf(secret.reference)}</code>: set it where Switchboard starts (
                <code>export {variableOf(secret.reference)}=…</code>), then restart Switchboard.
              </li>
            ))}
          </ul>
        </div>
      )}
      {config.length > 0 && (
        <p className="small note tone-warn">
          <strong>Warning:</strong> saved in config.json in plain text, as you chose:{' '}
          {config.map((secret) => secret.field).join(', ')}. Anyone who can read the file can read it.
        </p>
      )}
    </>
  );
}
