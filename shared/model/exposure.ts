/**
 * How a client gets its tools (search mode, issue 15): the one list of
 * exposure settings the config schema, the CLI, the contract and the Clients
 * screen all offer.
 */

/**
 * `all`: every tool it may use. `search`: the `search_tools` and `call_tool`
 * meta-tools (plus tools pinned to always show). `search+load`: as `search`,
 * and the tools a session finds join that session's own tools/list (for
 * clients that re-list on `notifications/tools/list_changed`). `code`: the
 * `run_code` tool (code mode: a program calls the tools as functions), with
 * `search_tools` beside it when the catalog is too large to declare in its
 * description. `auto`: `all` while the list fits the client's caps, `search` beyond.
 */
export const EXPOSURES = ['all', 'search', 'search+load', 'code', 'auto'] as const;

/** An exposure setting. */
export type Exposure = (typeof EXPOSURES)[number];

/** An exposure in force (`auto` resolved against the client's caps). */
export type ExposureInForce = Exclude<Exposure, 'auto'>;

/** "all, search, search+load, code or auto": the choices, for error messages. */
export const EXPOSURE_CHOICES = `${EXPOSURES.slice(0, -1).join(', ')} or ${EXPOSURES[EXPOSURES.length - 1]}`;

/** Whether a value is an exposure setting. */
export function isExposure(value: unknown): value is Exposure {
  return (EXPOSURES as readonly unknown[]).includes(value);
}
