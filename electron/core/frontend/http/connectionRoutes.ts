/**
 * The sign-in pages of per-caller servers on serve's own port (no bearer
 * token: a browser opens them, and what authorizes them is the one-time link
 * id, then the flow's `state`): `GET /connections/<server>/start?link=<id>`
 * redirects to the upstream's authorization server, and `GET
 * /connections/callback` is where it comes back with the code. Each answers a
 * short page saying what happened; never a token.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConnectionsService } from '../../api/services.js';
import { CALLBACK_PATH } from '../../platform/auth/callerSignIn.js';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function page(res: ServerResponse, status: number, title: string, text: string): void {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
}

/** Answers `/connections/...`; resolves false for another path. */
export async function routeConnections(
  connections: ConnectionsService,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<boolean> {
  const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
  const start = /^\/connections\/([^/]+)\/start$/.exec(path);
  if (path !== CALLBACK_PATH && !start) return false;
  if (req.method !== 'GET') {
    res.writeHead(405, { allow: 'GET' }).end();
    return true;
  }
  try {
    if (start?.[1]) {
      const location = await connections.start(decodeURIComponent(start[1]), query.get('link') ?? '');
      res.writeHead(302, { location, 'cache-control': 'no-store' }).end();
      return true;
    }
    const { server } = await connections.callback(query);
    page(res, 200, 'Signed in', `You are connected to "${server}" as yourself. You can close this window.`);
  } catch (error) {
    page(res, 400, 'Sign-in failed', error instanceof Error ? error.message : String(error));
  }
  return true;
}
