/**
 * The exposure `install` gives each client it knows, from what the client
 * itself does with many tools (../shared/field-notes.md): Cursor uses only
 * its first 40 tools, Windsurf 100, VS Code Copilot 128; they get `auto` with
 * that cap, so they list everything while it fits and search beyond. Claude
 * Code and Codex take long lists (Claude Code defers them to its own tool
 * search): `all`. Others keep the policy's default.
 */
import type { ClientProfile } from '../../platform/config/policyConfig.js';

/** The exposure settings `install` writes into a new client profile. */
export const INSTALL_EXPOSURE: Readonly<Record<string, Pick<ClientProfile, 'exposure' | 'maxTools'>>> = {
  cursor: { exposure: 'auto', maxTools: 40 },
  windsurf: { exposure: 'auto', maxTools: 100 },
  vscode: { exposure: 'auto', maxTools: 128 },
  'claude-code': { exposure: 'all' },
  codex: { exposure: 'all' },
};

/** Adds a client's install-time exposure to a raw profile, keeping whatever the user set. */
export function applyInstallExposure(client: string, profile: Record<string, unknown>): void {
  const caps = INSTALL_EXPOSURE[client];
  if (!caps || profile['exposure'] !== undefined) return;
  profile['exposure'] = caps.exposure;
  if (caps.maxTools !== undefined && profile['maxTools'] === undefined) profile['maxTools'] = caps.maxTools;
}
