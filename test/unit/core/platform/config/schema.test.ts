import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../../../../../electron/core/platform/config/load.js';
import { expandMap } from '../../../../../electron/core/platform/config/expand.js';
import { defaultConfigDir } from '../../../../../electron/core/platform/config/paths.js';
import { parseConfig, startModeOf } from '../../../../../electron/core/platform/config/schema.js';

describe('parseConfig', () => {
  it('reads a remote server’s credentials: shared by default, per-caller only over Streamable HTTP and without an Authorization header', () => {
    const { config, problems } = parseConfig({
      proxy: { credentialKeyFile: '/run/secrets/switchboard-key' },
      mcpServers: {
        shared: { url: 'https://example.com/mcp' },
        mine: { url: 'https://example.com/mcp', credentials: 'per-caller' },
      },
    });
    expect(problems).toEqual([]);
    expect(config?.proxy.credentialKeyFile).toBe('/run/secrets/switchboard-key');
    const modes = Object.fromEntries(
      (config?.backends ?? []).map((backend) => [
        backend.id,
        backend.transport === 'stdio' ? null : backend.credentials,
      ]),
    );
    expect(modes).toEqual({ shared: undefined, mine: 'per-caller' });
    const bad = parseConfig({
      proxy: { credentialKeyFile: 'relative.key' },
      mcpServers: {
        sse: { url: 'https://example.com/sse', type: 'sse', credentials: 'per-caller' },
        header: { url: 'https://x.dev/mcp', credentials: 'per-caller', headers: { Authorization: 'Bearer t' } },
        typo: { url: 'https://x.dev/mcp', credentials: 'per-person' },
      },
    });
    expect(bad.config).toBeUndefined();
    expect(bad.problems.map((problem) => problem.path).sort()).toEqual([
      'mcpServers.header.credentials',
      'mcpServers.sse.credentials',
      'mcpServers.typo.credentials',
      'proxy.credentialKeyFile',
    ]);
    expect(bad.problems.find((problem) => problem.path === 'mcpServers.sse.credentials')?.message).toContain(
      'Streamable HTTP',
    );
  });

  it('reads token exchange: needs gateway mode, a tokenExchange section, an issuer the gateway accepts', () => {
    const tokenExchange = { clientId: 'gw', clientSecret: { secret: 'gw-secret' } };
    const gateway = { resource: 'https://mcp.example.com/mcp', authorizationServers: ['https://login.example.com'] };
    const good = parseConfig({
      mcpServers: { up: { url: 'https://up.example.com/mcp', credentials: 'token-exchange', tokenExchange } },
      gateway,
    });
    expect(good.problems).toEqual([]);
    expect(good.config?.backends[0]).toMatchObject({ credentials: 'token-exchange', tokenExchange });
    const laptop = parseConfig({
      mcpServers: { up: { url: 'https://up.example.com/mcp', credentials: 'token-exchange', tokenExchange } },
    });
    expect(laptop.config).toBeUndefined();
    expect(laptop.problems).toEqual([
      { path: 'mcpServers.up.credentials', message: expect.stringContaining('token exchange needs gateway mode') },
    ]);
    const bad = parseConfig({
      mcpServers: {
        bare: { url: 'https://x.dev/mcp', credentials: 'token-exchange' },
        stray: { url: 'https://x.dev/mcp', tokenExchange },
        issuer: {
          url: 'https://x.dev/mcp',
          credentials: 'token-exchange',
          tokenExchange: { ...tokenExchange, issuer: 'https://elsewhere.example.com' },
        },
      },
      gateway,
    });
    expect(bad.problems.map((problem) => problem.path).sort()).toEqual([
      'mcpServers.bare.credentials',
      'mcpServers.issuer.tokenExchange.issuer',
      'mcpServers.stray.tokenExchange',
    ]);
  });

  it('reads a stdio server’s sandbox: true/false, or grants with network none by default; refuses relative paths, .. and bad hosts', () => {
    const { config, problems } = parseConfig({
      mcpServers: {
        on: { command: 'x', sandbox: true },
        off: { command: 'x', sandbox: false },
        granted: { command: 'x', sandbox: { read: ['~/.ssh'], write: ['/srv/data'] } },
        none: { command: 'x' },
      },
    });
    expect(problems).toEqual([]);
    const sandboxes = Object.fromEntries(
      (config?.backends ?? []).map((backend) => [backend.id, backend.transport === 'stdio' ? backend.sandbox : null]),
    );
    expect(sandboxes).toEqual({
      on: { enabled: true, read: [], write: [], network: 'none' },
      off: { enabled: false, read: [], write: [], network: 'none' },
      granted: { enabled: true, read: ['~/.ssh'], write: ['/srv/data'], network: 'none' },
      none: undefined,
    });
    const bad = parseConfig({
      mcpServers: {
        b: { command: 'x', sandbox: { read: ['relative/dir'], write: ['/a/../etc'], network: ['not a host!'] } },
      },
    });
    expect(bad.problems.map((problem) => problem.path)).toEqual([
      'mcpServers.b.sandbox.read.0',
      'mcpServers.b.sandbox.write.0',
      'mcpServers.b.sandbox.network.0',
    ]);
  });

  it("accepts Claude Desktop's mcpServers format as-is, with defaults for every option", () => {
    const { config, problems } = parseConfig({
      mcpServers: {
        filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
        github: { command: 'docker', args: ['run'], env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' } },
        linear: { url: 'https://mcp.linear.app/mcp' },
        legacy: { url: 'https://example.com/sse', type: 'sse', headers: { 'X-Key': '${KEY}' } },
      },
    });
    expect(problems).toEqual([]);
    expect(config?.proxy).toEqual({
      maxBackends: 32,
      maxCallerConnections: 64,
      maxCatalogItems: 1000,
      healthIntervalMs: 30_000,
      requestTimeoutMs: 60_000,
      maxQueue: 1000,
      probeFailureThreshold: 3,
      reconnectInitialMs: 1000,
      reconnectMaxMs: 60_000,
      approvalTimeoutMs: 60_000,
      inputTimeoutMs: 600_000,
      parkedCallTtlMs: 120_000,
      taskTtlDefaultMs: 3_600_000,
      taskTtlMaxMs: 86_400_000,
      maxTasksPerClient: 100,
      maxMessageBytes: 64 * 1024 * 1024,
      maxLogsPerSecond: 200,
      maxLogBytesPerSecond: 256 * 1024,
      maxProgressPerSecond: 100,
      maxClientNotifications: 256,
      clientStallMs: 30_000,
      headersTimeoutMs: 10_000,
      bodyTimeoutMs: 30_000,
      sessionIdleMs: 1_800_000,
      maxSessionsPerClient: 256,
      maxSessions: 1_000,
      drainMs: 10_000,
      defaultStart: 'eager',
      idleTimeoutMs: 600_000,
      startupGraceMs: 15_000,
      extraPath: [],
      defaultSandbox: false,
      quarantine: true,
      separator: '__',
    });
    expect(
      config?.backends.map((backend) => [backend.id, backend.transport, backend.prefix, backend.protocol]),
    ).toEqual([
      ['filesystem', 'stdio', 'filesystem', 'auto'],
      ['github', 'stdio', 'github', 'auto'],
      ['linear', 'http', 'linear', 'auto'],
      ['legacy', 'sse', 'legacy', 'auto'],
    ]);
  });

  it('takes extraPath: absolute directories only, each bad one named', () => {
    expect(parseConfig({ proxy: { extraPath: ['/opt/tools/bin'] } }).config?.proxy.extraPath).toEqual([
      '/opt/tools/bin',
    ]);
    expect(parseConfig({ proxy: { extraPath: ['/ok', 'bin'] } }).problems).toEqual([
      { path: 'proxy.extraPath.1', message: 'must be an absolute directory path' },
    ]);
    expect(parseConfig({ proxy: { extraPath: ['/a:/b'] } }).problems[0]?.message).toBe('must not contain ":"');
  });

  it('takes start modes: per backend, else the proxy default for stdio, always eager for remote by default', () => {
    const { config } = parseConfig({
      proxy: { defaultStart: 'on-demand', idleTimeoutMs: 5000 },
      mcpServers: {
        plain: { command: 'x' },
        eager: { command: 'x', start: 'eager' },
        remote: { url: 'https://example.com/mcp' },
        lazyRemote: { url: 'https://example.com/mcp', start: 'on-demand', idleTimeoutMs: 100 },
      },
    });
    expect(config!.backends.map((backend) => [backend.id, startModeOf(backend, config!.proxy)])).toEqual([
      ['plain', 'on-demand'],
      ['eager', 'eager'],
      ['remote', 'eager'],
      ['lazyRemote', 'on-demand'],
    ]);
    expect(config!.backends[3]!.idleTimeoutMs).toBe(100);
    expect(parseConfig({ mcpServers: { a: { command: 'x', start: 'lazy' } } }).problems[0]?.path).toBe(
      'mcpServers.a.start',
    );
  });

  it('takes per-backend options: prefix (empty means unprefixed), enabled, serialize, cwd', () => {
    const { config } = parseConfig({
      mcpServers: { a: { command: 'x', prefix: '', enabled: false, serialize: true, cwd: '/srv' } },
    });
    expect(config?.backends[0]).toMatchObject({ prefix: '', enabled: false, serialize: true, cwd: '/srv' });
  });

  it.each([
    [{ proxy: { maxBackends: 0 } }, 'proxy.maxBackends'],
    [{ proxy: { maxCatalogItems: 1.5 } }, 'proxy.maxCatalogItems'],
    [{ proxy: { healthIntervalMs: -1 } }, 'proxy.healthIntervalMs'],
    [{ proxy: { requestTimeoutMs: '60s' } }, 'proxy.requestTimeoutMs'],
    [{ proxy: { maxQueue: 0 } }, 'proxy.maxQueue'],
    [{ proxy: { inputTimeoutMs: 0 } }, 'proxy.inputTimeoutMs'],
    [{ proxy: { separator: '::' } }, 'proxy.separator'],
    [{ proxy: { maxBakends: 3 } }, 'proxy'],
    [{ mcpServers: { '9lives': { command: 'x' } } }, 'mcpServers.9lives'],
    [{ mcpServers: { 'has space': { command: 'x' } } }, 'mcpServers.has space'],
    [{ mcpServers: { a: { url: 'ftp://x' } } }, 'mcpServers.a.url'],
    [{ mcpServers: { a: { url: 'http://x', transport: 'ws' } } }, 'mcpServers.a.transport'],
    [{ mcpServers: { a: { command: '' } } }, 'mcpServers.a.command'],
    [{ mcpServers: { a: { command: 'x', prefix: 'a.b' } } }, 'mcpServers.a.prefix'],
    [{ mcpServers: { a: { args: [] } } }, 'mcpServers.a'],
    [{ mcpServers: { a: 'npx thing' } }, 'mcpServers.a'],
    [{ version: 2 }, 'version'],
  ])('refuses %j naming %s', (raw, path) => {
    const { config, problems } = parseConfig(raw);
    expect(config).toBeUndefined();
    expect(problems.map((problem) => problem.path)).toContain(path);
  });

  it('reports every problem of a config at once', () => {
    const { problems } = parseConfig({
      proxy: { maxQueue: 0 },
      mcpServers: { '1a': { command: 'x' }, b: { url: 'http://x', type: 'grpc' } },
    });
    expect(problems.map((problem) => problem.path)).toEqual(['proxy.maxQueue', 'mcpServers.1a', 'mcpServers.b.type']);
  });
});

describe('parseJsonText', () => {
  it('locates a syntax error by line and column', () => {
    const { problem } = parseJsonText('{\n  "a": 1,\n  oops\n}');
    expect(problem?.path).toMatch(/^\(line 3, column \d+\)$/);
  });
});

describe('expandMap', () => {
  it('expands ${VAR} and ${VAR:-default} from the environment', () => {
    expect(expandMap({ A: 'x-${ONE}-${TWO:-two}' }, { ONE: '1' }, 'mcpServers.s.env')).toEqual({ A: 'x-1-two' });
  });

  it('names the field and the variable when a variable is not set', () => {
    expect(() => expandMap({ TOKEN: '${NOPE}' }, {}, 'mcpServers.gh.env')).toThrow(
      'mcpServers.gh.env.TOKEN: environment variable ${NOPE} is not set',
    );
  });
});

describe('defaultConfigDir', () => {
  it('follows each platform', () => {
    expect(defaultConfigDir('linux', { XDG_CONFIG_HOME: '/x' }, '/home/u')).toBe('/x/mcp-switchboard');
    expect(defaultConfigDir('linux', {}, '/home/u')).toBe('/home/u/.config/mcp-switchboard');
    expect(defaultConfigDir('darwin', {}, '/Users/u')).toBe('/Users/u/Library/Application Support/mcp-switchboard');
    expect(defaultConfigDir('win32', { APPDATA: 'C:\\AppData' }, 'C:\\u')).toMatch(/AppData.mcp-switchboard$/);
  });
});

describe('instances (one process per person)', () => {
  it('reads per-principal for a stdio server, shared by default', () => {
    const { config, problems } = parseConfig({
      mcpServers: {
        shared: { command: 'notes-server' },
        mine: {
          command: 'memory-server',
          args: ['--file', '/srv/memory/${principal.id}.json'],
          env: { MEMORY_FILE_PATH: '/srv/memory/${principal.id}.json' },
          instances: 'per-principal',
        },
        remote: { url: 'https://x.dev/mcp', instances: 'shared' },
      },
    });
    expect(problems).toEqual([]);
    const modes = Object.fromEntries(
      (config?.backends ?? []).map((backend) => [
        backend.id,
        backend.transport === 'stdio' ? backend.instances : 'remote',
      ]),
    );
    expect(modes).toEqual({ shared: undefined, mine: 'per-principal', remote: 'remote' });
  });

  it('refuses per-principal for a remote server and ${principal.id} in a shared one, saying why', () => {
    const { config, problems } = parseConfig({
      mcpServers: {
        remote: { url: 'https://x.dev/mcp', instances: 'per-principal' },
        shared: { command: 'memory-server', args: ['${principal.id}'], cwd: '/srv/${principal.id}' },
        typo: { command: 'memory-server', instances: 'per-person' },
      },
    });
    expect(config).toBeUndefined();
    expect(problems.map((problem) => problem.path).sort()).toEqual([
      'mcpServers.remote.instances',
      'mcpServers.shared.args.0',
      'mcpServers.shared.cwd',
      'mcpServers.typo.instances',
    ]);
    const message = (path: string) => problems.find((problem) => problem.path === path)?.message;
    expect(message('mcpServers.remote.instances')).toContain('credentials: "per-caller"');
    expect(message('mcpServers.shared.cwd')).toContain('instances: "per-principal"');
  });
});
