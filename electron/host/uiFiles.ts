/**
 * Serving the built renderer (`dist/renderer`, from `vite build -c
 * build/vite.renderer.config.ts`) on the endpoint's port: static files with
 * the right types, never outside the directory, and the HTML pages under a
 * strict Content-Security-Policy (no inline scripts or styles).
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { dirname, extname, join, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

/** The repository (or installed package) root: the nearest folder up with our package.json. */
export function packageRoot(from: string = import.meta.dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'mcp-switchboard') return dir;
      } catch {
        // not ours; keep looking
      }
    }
    if (dirname(dir) === dir) return resolve(import.meta.dirname, '../..');
  }
}

/** Where the built renderer is. */
export function defaultUiDir(): string {
  return join(packageRoot(), 'dist', 'renderer');
}

/** The Content-Security-Policy of the UI served on `port`. */
export function contentSecurityPolicy(port: number): string {
  const sockets = [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${sockets}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** Headers of every HTML page. */
export function pageHeaders(port: number): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': contentSecurityPolicy(port),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A plain page (no scripts, no styles) with a title and a message. */
export function sendPage(res: ServerResponse, status: number, port: number, title: string, message: string): void {
  res.writeHead(status, pageHeaders(port));
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
      `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>\n`,
  );
}

/** The UI's index.html, or undefined when the renderer was not built. */
export async function readIndex(uiDir: string): Promise<Buffer | undefined> {
  return readFile(join(uiDir, 'index.html')).catch(() => undefined);
}

/**
 * Sends the file at URL `path` from `uiDir`; false when there is none (or
 * the path leaves the directory).
 */
export async function sendStatic(res: ServerResponse, uiDir: string, path: string, method: string): Promise<boolean> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  const root = resolve(uiDir);
  const file = resolve(root, `.${decoded}`);
  if (decoded.includes('\0') || (file !== root && !file.startsWith(root + sep))) return false;
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return false;
  const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  const hashed = decoded.startsWith('/assets/');
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': String(info.size),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (method === 'HEAD') res.end();
  else res.end(await readFile(file));
  return true;
}
