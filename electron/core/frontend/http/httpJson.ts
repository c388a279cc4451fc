/**
 * Small HTTP helpers of the endpoint: JSON answers, JSON-RPC errors outside
 * any request (`id: null`), bounded body reading, header and body tests.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/server';

/** Answers `status` with a JSON body. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Answers a JSON-RPC error, by default one that belongs to no request (`id: null`). */
export function jsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
  data?: unknown,
  id: unknown = null,
): void {
  const error = data === undefined ? { code, message } : { code, message, data };
  sendJson(res, status, { jsonrpc: '2.0', error, id }, headers);
}

/** Reads a request body up to the SDK's size limit. */
export async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > DEFAULT_MAX_REQUEST_BODY_SIZE) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A request header's first value. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether a parsed body is a single message calling `method`. */
export function isMethod(body: unknown, method: string): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === method;
}

/** Whether a parsed body is an `initialize` request. */
export function isInitialize(body: unknown): boolean {
  return isMethod(body, 'initialize');
}
