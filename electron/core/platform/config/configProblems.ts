/**
 * Config problems as `check-config` prints them: one per field, named by its
 * dotted path (`mcpServers.gh.url: must be an http(s) URL`).
 */
import type { z } from 'zod';

/** One problem found in a config, with the dotted path of the field. */
export interface ConfigProblem {
  path: string;
  message: string;
}

function pathOf(base: (string | number)[], issuePath: PropertyKey[]): string {
  return [...base, ...issuePath].map((part) => String(part)).join('.');
}

/** A zod error's issues as problems under `base`. */
export function issuesToProblems(base: (string | number)[], error: z.ZodError): ConfigProblem[] {
  return error.issues
    .map((issue): ConfigProblem | ConfigProblem[] => {
      if (issue.code === 'unrecognized_keys') {
        // At the top level there is no field path to name: each key names itself (`extra: unknown key`).
        if (base.length === 0 && issue.path.length === 0)
          return issue.keys.map((key) => ({ path: key, message: 'unknown key' }));
        return { path: pathOf(base, issue.path), message: `unknown key(s): ${issue.keys.join(', ')}` };
      }
      return { path: pathOf(base, issue.path), message: issue.message };
    })
    .flat();
}
