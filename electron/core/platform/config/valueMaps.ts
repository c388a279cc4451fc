/**
 * The value maps of a backend entry (env, headers) and the `launch` of a
 * remote backend whose server Switchboard runs, as platform/config/schema.ts reads them.
 */
import { z } from 'zod';

/** An env or header value: a string (may hold `${VAR}`) or `{"secret": NAME}` from the OS keychain. */
export const valueMap = z.record(
  z.string(),
  z.union([z.string(), z.strictObject({ secret: z.string().min(1, 'must name a secret') })], {
    error: 'must be a string or {"secret": "<name>"}',
  }),
);

/**
 * The process that serves a remote backend's URL, when Switchboard runs it
 * (a registry package whose transport is streamable-http or sse): started
 * before connecting, stopped with the connection (backends/transport/launchedHttpTransport.ts).
 */
export const LaunchSchema = z.strictObject({
  command: z.string().min(1, 'must not be empty'),
  args: z.array(z.string()).default([]),
  env: valueMap.default({}),
  cwd: z.string().min(1).optional(),
});

/** A validated `launch` of a remote backend. */
export type LaunchSpec = z.output<typeof LaunchSchema>;
