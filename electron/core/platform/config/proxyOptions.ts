/**
 * The `proxy` section of the config: proxy-wide limits, timeouts and
 * defaults, each with its default value.
 */
import { delimiter, isAbsolute } from 'node:path';
import { z } from 'zod';

const positiveInt = z.number().int().positive();

/**
 * Directories put in front of the PATH of every stdio backend (Settings):
 * absolute, without the PATH separator, at most 64.
 */
export const ExtraPathSchema = z
  .array(
    z
      .string()
      .refine((dir) => isAbsolute(dir), 'must be an absolute directory path')
      .refine((dir) => !dir.includes(delimiter), `must not contain "${delimiter}"`),
  )
  .max(64, 'at most 64 directories');

/** Proxy-wide options (the `proxy` section) with their defaults. */
export const ProxyOptionsSchema = z
  .strictObject({
    maxBackends: positiveInt.default(32),
    /**
     * A file holding the key (32 bytes, base64 or hex) that encrypts per-caller
     * upstream tokens at rest; the environment's SWITCHBOARD_TOKEN_KEY wins.
     */
    credentialKeyFile: z
      .string()
      .refine((path) => isAbsolute(path), 'must be an absolute file path')
      .optional(),
    /** Upstream connections of per-caller servers kept open at once (each caller's own; least recently used closes first). */
    maxCallerConnections: positiveInt.default(64),
    maxCatalogItems: positiveInt.default(1000),
    healthIntervalMs: positiveInt.default(30_000),
    requestTimeoutMs: positiveInt.default(60_000),
    maxQueue: positiveInt.default(1000),
    /** Failed probes in a row before a backend counts as degraded (a busy server may just be slow). */
    probeFailureThreshold: positiveInt.default(3),
    /** First reconnect delay after a backend drops; doubles (with jitter) up to reconnectMaxMs. */
    reconnectInitialMs: positiveInt.default(1000),
    reconnectMaxMs: positiveInt.default(60_000),
    /** How long an `ask` tool call waits for the user's approval before it is denied. */
    approvalTimeoutMs: positiveInt.default(60_000),
    /**
     * How long a backend's input request (elicitation, sampling, roots) may
     * wait for the client's answer, often a person's.
     */
    inputTimeoutMs: positiveInt.default(600_000),
    /**
     * How long a 2025-era backend's call stays parked for a 2026-07-28
     * client's retry (its answers to the backend's input requests) before it
     * is cancelled upstream; 2 min. Shorter than inputTimeoutMs: the backend
     * is held open meanwhile, and clients abandon forms without a word.
     */
    parkedCallTtlMs: positiveInt.default(120_000),
    /** A task's lifetime when the client asks for none (MCP tasks: `params.task.ttl`); 1 h. */
    taskTtlDefaultMs: positiveInt.default(3_600_000),
    /** The longest task lifetime granted, whatever the client asks for; 24 h. */
    taskTtlMaxMs: positiveInt.default(86_400_000),
    /** Live (not yet expired) tasks per client profile; one more is refused with a retryable error. */
    maxTasksPerClient: positiveInt.default(100),
    /**
     * Largest message accepted from a backend (stdio line, HTTP body or SSE event);
     * a larger one fails the request it answers, and the connection stays up.
     */
    maxMessageBytes: positiveInt.default(64 * 1024 * 1024),
    /**
     * Log messages (`notifications/message`) one backend may send per second, with a burst of
     * one second's worth; the excess is dropped and summarized (backends/connection/notificationLimits.ts).
     */
    maxLogsPerSecond: positiveInt.default(200),
    /**
     * Bytes of log messages one stdio backend may send per second (256 KB), with the same burst;
     * the excess is dropped and summarized with the count's (notificationLimits.ts).
     */
    maxLogBytesPerSecond: positiveInt.default(256 * 1024),
    /** Progress notifications one backend may send per second; the excess is coalesced per token (the latest wins). */
    maxProgressPerSecond: positiveInt.default(100),
    /**
     * A client that stops reading: its queue of log and progress notifications holds at most
     * this many (the oldest dropped), and its session or stream is ended once it stays stuck for
     * `clientStallMs` (frontend/relay/notificationQueue.ts). Answers are never dropped.
     */
    maxClientNotifications: positiveInt.default(256),
    clientStallMs: positiveInt.default(30_000),
    /** How long an HTTP client may take to send a request's headers (slow clients are cut, 408). */
    headersTimeoutMs: positiveInt.default(10_000),
    /** How long an HTTP client may take to send a whole request, body included. */
    bodyTimeoutMs: positiveInt.default(30_000),
    /** A 2025-era HTTP session with no request and no open stream for this long is ended (client gets 404). */
    sessionIdleMs: positiveInt.default(1_800_000),
    /** Live 2025-era HTTP sessions per client profile; a new one ends the least recently used. */
    maxSessionsPerClient: positiveInt.default(256),
    /**
     * Live 2025-era HTTP sessions on this process, every client together: one more initialize is
     * refused with 503 (`session_limit`, Retry-After), so a balancer gives it to another replica.
     */
    maxSessions: positiveInt.default(1_000),
    /**
     * Graceful shutdown (SIGTERM): how long the requests in flight get to finish while `/readyz`
     * answers 503 and new sessions are refused, before the sessions close and serve exits (10 s).
     */
    drainMs: positiveInt.default(10_000),
    /** How stdio servers without their own `start` are started (see StartModeSchema). */
    defaultStart: z.enum(['eager', 'on-demand']).default('eager'),
    /** An on-demand server with no request, subscription or stream for this long is stopped. */
    idleTimeoutMs: positiveInt.default(600_000),
    /** Child processes busy starting at once (default: four per core; see backends/process/startLimiter.ts). */
    maxConcurrentStarts: positiveInt.optional(),
    /** After start, lists wait this long at most for backends still on their first attempt. */
    startupGraceMs: positiveInt.default(15_000),
    /** Directories in front of every stdio backend's PATH (platform/env/stdioPath.ts). */
    extraPath: ExtraPathSchema.default([]),
    /**
     * Whether stdio servers without their own `sandbox` setting run sandboxed
     * (backends/process/sandbox/). Off, so existing configs keep running as
     * they did; servers added through the registry, bundles, snippets and
     * imports get their own `sandbox` setting.
     */
    defaultSandbox: z.boolean().default(false),
    /**
     * Whether a server added by any route stays quarantined (started, listed and
     * scanned, its items hidden from every client) until the user approves it.
     */
    quarantine: z.boolean().default(true),
    /** Joins prefix and item name; must itself be a valid name fragment. */
    separator: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,8}$/, 'must be 1-8 of [A-Za-z0-9_-]')
      .default('__'),
  })
  .prefault({});

/** Validated proxy options. */
export type ProxyOptions = z.output<typeof ProxyOptionsSchema>;
