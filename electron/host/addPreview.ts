/**
 * What adding a registry entry would run, shown before anything is started
 * (issue #25; the MCP security best practices ask for the exact command of a
 * one-click install): the command and its arguments as they will be saved, or
 * the URL, and the sandbox the new server gets. Nothing is installed, started
 * or saved; bad values are refused naming the field, as `registry.add` would.
 */
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { AddPreviewView, SandboxSettingView } from '../../shared/model/sandboxViews.js';
import {
  InputError,
  newRegistryEntry,
  pickOption,
  resolveEntry,
  type InputValues,
  type RegistryClient,
} from '../core/install/index.js';

/** An entry's `sandbox` value as the UI shows it (absent: no sandbox applies to it). */
export function sandboxSettingOf(value: unknown): SandboxSettingView | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return { enabled: value, read: [], write: [], network: 'none' };
  const raw = value as Partial<SandboxSettingView>;
  return {
    enabled: raw.enabled !== false,
    read: raw.read ?? [],
    write: raw.write ?? [],
    network: raw.network ?? 'none',
  };
}

/** The preview of a built entry. */
export function previewOf(entry: Record<string, unknown>): AddPreviewView {
  const launch = (entry['launch'] ?? entry) as Record<string, unknown>;
  const sandbox = sandboxSettingOf(entry['sandbox']);
  return {
    ...(typeof launch['command'] === 'string' ? { command: launch['command'] } : {}),
    ...(Array.isArray(launch['args']) ? { args: (launch['args'] as unknown[]).map(String) } : {}),
    ...(typeof entry['url'] === 'string' ? { url: entry['url'] } : {}),
    ...(sandbox ? { sandbox } : {}),
  };
}

/** What `registry.add` of `ref` with `values` would run. */
export async function previewRegistryAdd(
  client: RegistryClient,
  request: { ref: string; values: InputValues; choice?: { package: number } | { remote: number } },
  signal?: AbortSignal,
): Promise<AddPreviewView> {
  const { entry } = await resolveEntry(client, request.ref, signal);
  const option = pickOption(entry.server, request.choice);
  if (option.kind === 'mcpb') {
    // Downloaded and unpacked at add: its command line is in its manifest, read then.
    return {
      note: `a bundle (${option.label.replace(/^bundle /, '')}); its command is read from the bundle when it is added`,
      sandbox: { enabled: true, read: [], write: [], network: 'none' },
    };
  }
  try {
    return previewOf(newRegistryEntry(entry.server, option, request.values).entry);
  } catch (error) {
    if (error instanceof InputError) {
      throw new SwitchboardError(ErrorCode.InputInvalid, error.message, { key: error.key });
    }
    throw error;
  }
}
