/** Where each client keeps its config on Linux, macOS and Windows, and our state directory. */
import { describe, expect, it } from 'vitest';
import { clientDefinition, isSwitchboardEntry } from '../../../../../electron/core/install/clientApps/definitions.js';
import type { ClientId, PlatformEnv } from '../../../../../electron/core/install/clientApps/clientAppTypes.js';
import { defaultStateDir } from '../../../../../electron/core/platform/config/paths.js';

const linux: PlatformEnv = { platform: 'linux', env: {}, home: '/home/me' };
const mac: PlatformEnv = { platform: 'darwin', env: {}, home: '/Users/me' };
const windows: PlatformEnv = {
  platform: 'win32',
  env: { APPDATA: 'C:\\Users\\me\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local' },
  home: 'C:\\Users\\me',
};

/** Paths compared with forward slashes (node:path joins with the host's separator). */
const path = (id: ClientId, p: PlatformEnv) => clientDefinition(id)!.configPath(p).replace(/\\/g, '/');

describe('client config paths', () => {
  it('Linux', () => {
    expect(path('claude-desktop', linux)).toBe('/home/me/.config/Claude/claude_desktop_config.json');
    expect(path('claude-code', linux)).toBe('/home/me/.claude.json');
    expect(path('cursor', linux)).toBe('/home/me/.cursor/mcp.json');
    expect(path('vscode', linux)).toBe('/home/me/.config/Code/User/mcp.json');
    expect(path('windsurf', linux)).toBe('/home/me/.codeium/windsurf/mcp_config.json');
    expect(path('zed', linux)).toBe('/home/me/.config/zed/settings.json');
    expect(path('codex', linux)).toBe('/home/me/.codex/config.toml');
    expect(path('zed', { ...linux, env: { XDG_CONFIG_HOME: '/xdg' } })).toBe('/xdg/zed/settings.json');
    expect(path('codex', { ...linux, env: { CODEX_HOME: '/c' } })).toBe('/c/config.toml');
  });

  it('macOS', () => {
    expect(path('claude-desktop', mac)).toBe('/Users/me/Library/Application Support/Claude/claude_desktop_config.json');
    expect(path('vscode', mac)).toBe('/Users/me/Library/Application Support/Code/User/mcp.json');
    expect(path('zed', mac)).toBe('/Users/me/.config/zed/settings.json');
    expect(path('cursor', mac)).toBe('/Users/me/.cursor/mcp.json');
  });

  it('Windows', () => {
    expect(path('claude-desktop', windows)).toBe('C:/Users/me/AppData/Roaming/Claude/claude_desktop_config.json');
    expect(path('vscode', windows)).toBe('C:/Users/me/AppData/Roaming/Code/User/mcp.json');
    expect(path('zed', windows)).toBe('C:/Users/me/AppData/Roaming/Zed/settings.json');
    expect(path('claude-code', windows)).toBe('C:/Users/me/.claude.json');
    expect(path('codex', windows)).toBe('C:/Users/me/.codex/config.toml');
  });

  it('state directory per platform', () => {
    expect(defaultStateDir('linux', {}, '/home/me')).toBe('/home/me/.local/state/mcp-switchboard');
    expect(defaultStateDir('linux', { XDG_STATE_HOME: '/s' }, '/home/me')).toBe('/s/mcp-switchboard');
    expect(defaultStateDir('darwin', {}, '/Users/me')).toBe('/Users/me/Library/Application Support/mcp-switchboard');
    expect(defaultStateDir('win32', windows.env, windows.home).replace(/\\/g, '/')).toBe(
      'C:/Users/me/AppData/Local/mcp-switchboard',
    );
  });

  it('Claude Code gets a short key and a matching name budget', () => {
    const definition = clientDefinition('claude-code')!;
    expect(definition.entryKey).toBe('sb');
    expect(`mcp__sb__${'x'.repeat(definition.toolNameBudget)}`).toHaveLength(64);
  });

  it('recognises Switchboard entries and nothing else', () => {
    expect(isSwitchboardEntry({ url: 'http://127.0.0.1:47100/mcp' })).toBe(true);
    expect(isSwitchboardEntry({ serverUrl: 'http://localhost:5/mcp' })).toBe(true);
    expect(isSwitchboardEntry({ command: '/n', args: ['/x/mcp-switchboard/bin/mcp-switchboard.js', 'connect'] })).toBe(
      true,
    );
    expect(isSwitchboardEntry({ command: 'mcp-switchboard-like', args: [] })).toBe(false);
    expect(isSwitchboardEntry({ url: 'https://example.com/mcp' })).toBe(false);
    expect(isSwitchboardEntry({ command: { path: 'uvx' } })).toBe(false);
  });
});
