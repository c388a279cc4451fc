/**
 * A form field's own error: the message right under the field and tied to its
 * input (`aria-invalid`, `aria-describedby`), so it is seen where the bad value
 * is and read out with the field, not only in a banner at the form's foot.
 * Errors the core returns name their field as `data.key` (registry and bundle
 * inputs) or by their code (a name already taken); {@link errorOnField} picks
 * those out.
 */
import type { ErrorData } from '../../../shared/errors.js';
import { ErrorCode } from '../../../shared/errors.js';

/** The attributes of an input whose error is shown by `<FieldError id={id} …>` (none while it has none). */
export function invalidProps(
  id: string,
  message: string | undefined,
): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  return message ? { 'aria-invalid': true, 'aria-describedby': id } : {};
}

/** The message of field `id`, announced when it appears (nothing without one). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <span id={id} className="field-error" role="alert">
      {message}
    </span>
  );
}

/**
 * The field an error from the core is about: `data.key` of an invalid input
 * (registry entry or bundle fields), `id` for a server name already taken;
 * undefined when it is about no one field.
 */
export function fieldOfError(error: ErrorData | undefined): string | undefined {
  if (!error) return undefined;
  if (error.code === ErrorCode.DuplicateBackend) return 'id';
  const key = error.data?.['key'];
  return error.code === ErrorCode.InputInvalid && typeof key === 'string' ? key : undefined;
}

/** `error`'s message when it is about field `key` (see {@link fieldOfError}). */
export function errorOnField(error: ErrorData | undefined, key: string): string | undefined {
  return fieldOfError(error) === key ? error?.message : undefined;
}
