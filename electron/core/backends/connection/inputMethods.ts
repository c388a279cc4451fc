/**
 * The server-to-client requests a backend may send that a person or the
 * calling client must answer (MCP 2025-11-25: elicitation, sampling, roots).
 */

/** The server-to-client requests a backend may need answered by a person or the client. */
export const INPUT_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const;

/** One of {@link INPUT_METHODS}. */
export type InputMethod = (typeof INPUT_METHODS)[number];
