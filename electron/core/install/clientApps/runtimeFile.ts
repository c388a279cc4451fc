/**
 * The runtime file: how `connect` (and later the desktop app) finds the
 * running Switchboard. `serve` writes `<state dir>/runtime.json` once it
 * listens and removes it on a clean exit; a crash leaves it behind, so a
 * reader checks that the pid is alive and that `/healthz` answers before
 * trusting it.
 */
import { chmod, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isProcessAlive } from '../../backends/process/processTree.js';
import { fileWriter } from '../../platform/config/configStore.js';

/** What the running instance publishes about itself. */
export interface RuntimeInfo {
  port: number;
  pid: number;
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** ISO time the instance started listening. */
  startedAt: string;
  /** The config file it serves (a `connect` with another config is warned). */
  config?: string;
}

/** Path of the runtime file in a state directory. */
export function runtimeFilePath(stateDir: string): string {
  return join(stateDir, 'runtime.json');
}

/** Writes the runtime file, readable only by the user (the port is not secret, but the pid and config path are the user's business). */
export async function writeRuntimeFile(stateDir: string, info: RuntimeInfo): Promise<string> {
  const path = runtimeFilePath(stateDir);
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  await fileWriter.write(path, `${JSON.stringify(info, null, 2)}\n`);
  await chmod(path, 0o600);
  return path;
}

/** Removes the runtime file if it still describes `pid` (a newer instance may have replaced it). */
export async function removeRuntimeFile(stateDir: string, pid: number = process.pid): Promise<void> {
  const current = await readRuntimeFile(stateDir);
  if (current && current.pid !== pid) return;
  await rm(runtimeFilePath(stateDir), { force: true });
}

/** The runtime file's content, or undefined when it is missing or unreadable. */
export async function readRuntimeFile(stateDir: string): Promise<RuntimeInfo | undefined> {
  let text: string;
  try {
    text = await readFile(runtimeFilePath(stateDir), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as Partial<RuntimeInfo>;
    if (typeof value.port !== 'number' || typeof value.pid !== 'number' || typeof value.url !== 'string') {
      return undefined;
    }
    return {
      port: value.port,
      pid: value.pid,
      url: value.url,
      startedAt: String(value.startedAt ?? ''),
      ...(typeof value.config === 'string' ? { config: value.config } : {}),
    };
  } catch {
    return undefined; // half-written by a crashed writer: treat as absent
  }
}

/** Whether `/healthz` of the instance at `url` answers 200 within `timeoutMs`. */
export async function answersHealth(url: string, timeoutMs = 2000): Promise<boolean> {
  try {
    const response = await fetch(new URL('/healthz', url), { signal: AbortSignal.timeout(timeoutMs) });
    await response.text();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * The running instance described by the runtime file, or undefined when there
 * is none: no file, its pid is dead, or its port does not answer `/healthz`
 * (a crashed instance, or a reused pid).
 */
export async function findRunningInstance(stateDir: string): Promise<RuntimeInfo | undefined> {
  const info = await readRuntimeFile(stateDir);
  if (!info) return undefined;
  if (!isProcessAlive(info.pid)) return undefined;
  return (await answersHealth(info.url)) ? info : undefined;
}
