/**
 * Approving a quarantined server the way a user does: `mcp-switchboard
 * approve <id>` against the running `serve` of an end-to-end test (found
 * through its runtime file under the throwaway XDG dirs). A server added at
 * run time, or whose launch line or sandbox changed, stays hidden from MCP
 * clients until then.
 */
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import type { ServedUi } from './serveUi.js';

/** Approves `id` on `served`; throws with the CLI's output when it refuses. */
export async function approveServer(served: ServedUi, id: string): Promise<string> {
  const result = await runCli(['approve', id], {
    XDG_CONFIG_HOME: join(served.dir, 'xdg-config'),
    XDG_STATE_HOME: join(served.dir, 'xdg-state'),
    SWITCHBOARD_TOKEN: served.token,
  });
  if (result.code !== 0) throw new Error(`approve ${id} failed (${result.code}): ${result.stderr}${result.stdout}`);
  return result.stdout;
}
