/**
 * What the review of a pasted snippet says about each secret it found, so
 * the card says truthfully where the value went.
 */

/** One secret-looking value of a pasted server and where it went. */
export interface SnippetSecret {
  /** `env.GITHUB_TOKEN`, `headers.Authorization`. */
  field: string;
  /** What config.json holds instead: `keychain:<name>`, `${VAR}`, or `config.json (plain text)`. */
  reference: string;
  /** The OS keychain; an environment variable the user sets; config.json in plain text (the user chose so). */
  place: 'keychain' | 'environment' | 'config';
}

/** The servers found in a pasted snippet (`backends.parseSnippet`). */
export interface SnippetView {
  servers: { id: string; entry: Record<string, unknown>; secrets: SnippetSecret[] }[];
  problems: string[];
}
