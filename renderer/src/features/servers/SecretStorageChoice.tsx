/**
 * Without an OS keychain, where a server's secrets go: the user chooses
 * between an environment variable (named, with how to set it; nothing secret
 * is written anywhere) and config.json in plain text (with a warning). The
 * core asks by refusing with `data.field: 'secretStorage'` and the variables.
 */
import { useState } from 'react';
import type { ErrorData } from '../../../../shared/errors.js';
import { useAppStore } from '../../store/context.js';

/** Where secret values go without a keychain. */
export type SecretStorage = 'reference' | 'config';

/** One secret and the variable it would become. */
export interface SecretVariable {
  field: string;
  variable: string;
  set: boolean;
}

/** The variables of a refusal that asks for the choice, when `error` is one. */
export function secretChoiceOf(error: ErrorData | undefined): SecretVariable[] | undefined {
  if (error?.data?.['field'] !== 'secretStorage' || !Array.isArray(error.data['variables'])) return undefined;
  return error.data['variables'] as SecretVariable[];
}

/**
 * The choice of a form whose submit may be refused with the question: the
 * variables once asked (kept shown while the user retries), whether the
 * latest error is that question, and the chosen storage to send again.
 */
export function useSecretStorageChoice(error: ErrorData | undefined) {
  const [storage, setStorage] = useState<SecretStorage | undefined>();
  const [askedVariables, setAskedVariables] = useState<SecretVariable[] | undefined>();
  const asked = secretChoiceOf(error);
  if (asked && !askedVariables) setAskedVariables(asked);
  return { storage, setStorage, askedVariables, asking: asked !== undefined };
}

/**
 * Whether this machine has an OS keychain, as the core said (the Clients
 * screen's warning says the same); unknown until the core's info arrives.
 */
export function useKeychainAvailable(): boolean {
  return useAppStore((s) => s.info.data?.keychain.available ?? true);
}

/**
 * Where a secret typed here goes on this machine, the same words on every
 * secret field: the keychain where there is one; without one, that the user
 * chooses (an environment variable or config.json) when adding, or below once
 * asked.
 */
export function secretDestination(keychain: boolean, asked = false): string {
  if (keychain) return 'kept in the OS keychain';
  return asked
    ? 'no OS keychain on this machine: goes where you choose below'
    : 'no OS keychain on this machine: you choose where it goes when you add';
}

/** What a secret field's label adds: where its value goes (once asked, the core has said there is no keychain). */
export function secretFieldNote(keychain: boolean, askedVariables: SecretVariable[] | undefined): string {
  if (askedVariables) return ` — secret, ${secretDestination(false, true)}`;
  return keychain ? ` — ${secretDestination(true)}` : ` — secret, ${secretDestination(false)}`;
}

/** The two choices, as radio buttons. */
export function SecretStorageChoice(props: {
  variables: SecretVariable[];
  value: SecretStorage | undefined;
  onChange: (value: SecretStorage) => void;
}) {
  const { variables, value, onChange } = props;
  return (
    <fieldset className="stack note tone-warn">
      <legend>No OS keychain: where should the secrets go?</legend>
      <label className="check">
        <input
          type="radio"
          name="secret-storage"
          checked={value === 'reference'}
          onChange={() => onChange('reference')}
        />
        <span>
          An environment variable:{' '}
          {variables.map((v) => (
            <span key={v.field}>
              <code>{v.variable}</code> for {v.field}
              {v.set ? ' (set now)' : ''}{' '}
            </span>
          ))}
          . Set it where Switchboard starts (e.g. <code>export {variables[0]?.variable ?? 'NAME'}=…</code> in your shell
          profile), then restart Switchboard. Nothing secret is written to disk.
        </span>
      </label>
      <label className="check">
        <input type="radio" name="secret-storage" checked={value === 'config'} onChange={() => onChange('config')} />
        <span>
          Keep it in config.json. <strong>Warning:</strong> it is saved there in plain text; anyone who can read the
          file can read the secret.
        </span>
      </label>
    </fieldset>
  );
}
