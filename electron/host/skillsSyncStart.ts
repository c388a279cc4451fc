/**
 * Starts the sync of installed skills (core/install/clientApps/skillsSync.ts)
 * beside a running core: after every catalog change that touches resources
 * (skills are resources: a server's skills, a rule, an approval, a server
 * coming or going) and once at start. What it keeps rather than removes comes
 * from the core: a skill whose change is held for review (its reviewed copy
 * stays until approved), and the skills of a server that is meant to be there
 * but does not answer now (down, starting, idle, signing in).
 */
import { homedir } from 'node:os';
import type { Logger, Switchboard } from '../core/api/index.js';
import { defaultStateDir } from '../core/platform/index.js';
import { SkillsSync } from '../core/install/index.js';
import { clientsContexts, type ClientHandlerDeps } from './clientHandlers.js';

/** Statuses of a server whose installed skills stay (it is configured and enabled, and may answer again). */
const ABSENT = new Set(['connecting', 'down', 'needs-authorization', 'idle']);

/** Why one of ours no longer offered is kept, or undefined (removed); the Clients screen's install asks it too. */
export function keepReason(core: Switchboard, skill: { name: string; uri: string }): string | undefined {
  for (const summary of core.reviews.list()) {
    if (summary.pending === 0 || !skill.uri.startsWith(`skill://${summary.server}/`)) continue;
    if (core.reviews.review(summary.server).changes.some((change) => change.tool === `skill:${skill.name}`)) {
      return 'a change of it is held for review: the reviewed copy stays until it is approved';
    }
  }
  const absent = core.backends
    .health()
    .find((backend) => skill.uri.startsWith(`skill://${backend.id}/`) && ABSENT.has(backend.status));
  return absent ? `its server ${absent.id} is ${absent.status}` : undefined;
}

/** Starts the sync; returns the function that stops it. */
export function startSkillsSync(core: Switchboard, deps: ClientHandlerDeps, logger: Logger): () => void {
  if (deps.configPath === undefined) return () => undefined;
  const { local } = clientsContexts(deps);
  const sync = new SkillsSync({
    stateDir: defaultStateDir(process.platform, deps.environment, homedir()),
    context: () => Promise.resolve(local()),
    keep: (skill) => keepReason(core, skill),
    listable: () => core.backends.readiness().listable,
    report: (client, outcome) => {
      if (outcome instanceof Error) {
        logger.warn(`skills sync into ${client}: ${outcome.message}`);
        return;
      }
      const changed = [
        ...outcome.installed.map((name) => `${name} written`),
        ...outcome.removed.map((name) => `${name} removed`),
        // A folder of the user's own of the same name is skipped at every sync: said once, by `skills install`.
        ...outcome.skipped
          .filter((skip) => !skip.reason.includes('is not ours'))
          .map((skip) => `${skip.name} skipped (${skip.reason})`),
      ];
      if (changed.length > 0) logger.info(`skills sync into ${outcome.folder}: ${changed.join(', ')}`);
    },
  });
  const off = core.events.on('catalogChanged', ({ resources }) => {
    if (resources) sync.trigger();
  });
  sync.trigger();
  return () => {
    off();
    sync.close();
  };
}
