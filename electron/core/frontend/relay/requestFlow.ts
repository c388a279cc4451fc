/**
 * The wire of the request being handled, where the endpoint knows it: a
 * 2026-07-28 HTTP request's own response stream. Set around the SDK's
 * handling of one request, so a handler can hold back what it sends unasked
 * (progress) while the client does not read, instead of queueing it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { OutboundFlow } from './notificationQueue.js';

/** The flow of the current request's response, when the endpoint set one. */
export const requestFlow = new AsyncLocalStorage<OutboundFlow>();
