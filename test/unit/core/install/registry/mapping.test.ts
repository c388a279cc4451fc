import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildEntry, optionsOf } from '../../../../../electron/core/install/registry/mapping.js';
import type { ServerJson } from '../../../../../electron/core/install/registry/registryTypes.js';
import { validateServerJson } from '../../../../../electron/core/install/registry/validate.js';

const examples = join(import.meta.dirname, '../../../../fixtures/registry/examples');
function example(path: string): ServerJson {
  const checked = validateServerJson(JSON.parse(readFileSync(join(examples, path), 'utf8')));
  if (!checked.ok) throw new Error(checked.reason);
  return checked.server;
}

describe('server.json to a backend entry (the registry docs examples)', () => {
  it('npm: npx -y id@version, positional value, named fixed value, secret env var apart', () => {
    const server = example('valid/with-package.json');
    const [option] = optionsOf(server);
    expect(option).toMatchObject({ kind: 'npm', runtime: 'npx' });
    expect(option!.fields.map((f) => [f.key, f.required, f.secret])).toEqual([
      ['env:API_KEY', true, true],
      ['arg:config_path', false, false],
    ]);
    const built = buildEntry(server, { package: 0 }, { 'arg:config_path': '/etc/w.json', 'env:API_KEY': 'k-123' });
    expect(built.entry).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-weather@1.0.0', '/etc/w.json', '--port', '8080'],
    });
    expect(built.secrets).toEqual([{ field: 'env', name: 'API_KEY', value: 'k-123' }]);
    expect(() => buildEntry(server, { package: 0 }, {})).toThrow('environment variable API_KEY is required');
  });

  it('npm with a repeated positional argument and its default; env var default', () => {
    const server = example('docs/filesystem.json');
    expect(buildEntry(server, { package: 0 }, {}).entry).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem@1.0.2', '/Users/username/Desktop'],
      env: { LOG_LEVEL: 'info' },
    });
    const repeated = buildEntry(server, { package: 0 }, { 'arg:target_dir': ['/a', '/b'], 'env:LOG_LEVEL': 'debug' });
    expect(repeated.entry['args']).toEqual(['-y', '@modelcontextprotocol/server-filesystem@1.0.2', '/a', '/b']);
    expect(repeated.entry['env']).toEqual({ LOG_LEVEL: 'debug' });
  });

  it('oci: docker run -i --rm, runtime argument with variables, env passed with -e, fixed positional', () => {
    const server = example('docs/filesystem.json');
    const option = optionsOf(server)[1]!;
    expect(option.runtime).toBe('docker');
    expect(option.fields.map((f) => f.key)).toEqual(['var:source_path', 'var:target_path', 'env:LOG_LEVEL']);
    expect(() => buildEntry(server, { package: 1 }, {})).toThrow(
      'argument --mount: variable {source_path} is required',
    );
    const built = buildEntry(server, { package: 1 }, { 'var:source_path': '/home/me/notes' });
    expect(built.entry).toEqual({
      command: 'docker',
      args: [
        'run',
        '-i',
        '--rm',
        '--mount',
        'type=bind,src=/home/me/notes,dst=/project',
        '-e',
        'LOG_LEVEL',
        'docker.io/mcp/filesystem:1.0.2',
        '/project',
      ],
      env: { LOG_LEVEL: 'info' },
    });
  });

  it('oci with choices, named package arguments with defaults, a secret env var', () => {
    const server = example('docs/database-manager-oci.json');
    const values = {
      'var:db_type': 'postgres',
      'arg:database_name': 'shop',
      'env:DB_USERNAME': 'me',
      'env:DB_PASSWORD': 'pw',
    };
    const built = buildEntry(server, { package: 0 }, values);
    expect(built.entry['args']).toEqual([
      'run',
      '-i',
      '--rm',
      '--network',
      'host',
      '-e',
      'DB_TYPE=postgres',
      '-e',
      'DB_USERNAME',
      '-e',
      'SSL_MODE',
      '-e',
      'DB_PASSWORD',
      'docker.io/example/database-manager-mcp:3.1.0',
      '--host',
      'localhost',
      'shop',
    ]);
    expect(built.entry['env']).toEqual({ DB_USERNAME: 'me', SSL_MODE: 'prefer' });
    expect(built.secrets).toEqual([{ field: 'env', name: 'DB_PASSWORD', value: 'pw' }]);
    expect(() => buildEntry(server, { package: 0 }, { ...values, 'var:db_type': 'oracle' })).toThrow(
      'must be one of postgres, mysql, mongodb, redis, not "oracle"',
    );
    const withPort = buildEntry(server, { package: 0 }, { ...values, 'arg:--port': '5432' });
    expect(withPort.entry['args']).toContain('5432');
  });

  it('pypi: uvx id==version; nuget: dnx id@version --yes -- args', () => {
    const pypi = buildEntry(example('docs/weather-pypi.json'), { package: 0 }, { 'env:WEATHER_API_KEY': 'w' });
    expect(pypi.entry).toEqual({
      command: 'uvx',
      args: ['weather-mcp-server==0.5.0'],
      env: { WEATHER_UNITS: 'celsius' },
    });
    const nuget = buildEntry(example('docs/knapcode-nuget.json'), { package: 0 }, {});
    expect(nuget.entry).toEqual({
      command: 'dnx',
      args: ['Knapcode.SampleMcpServer@0.4.0-beta', '--yes', '--', 'mcp', 'start'],
    });
  });

  it('remote: URL variables with defaults, secret header apart', () => {
    const server = example('valid/with-remote.json');
    const [option] = optionsOf(server);
    expect(option).toMatchObject({ kind: 'streamable-http', label: 'https://{host}/mcp' });
    const built = buildEntry(server, { remote: 0 }, { 'header:Authorization': 'Bearer t0k' });
    expect(built.entry).toEqual({ url: 'https://api.example.com/mcp', type: 'http' });
    expect(built.secrets).toEqual([{ field: 'headers', name: 'Authorization', value: 'Bearer t0k' }]);
    const other = buildEntry(server, { remote: 0 }, { 'header:Authorization': 'x', 'var:host': 'eu.example.com' });
    expect(other.entry['url']).toBe('https://eu.example.com/mcp');
  });
});

describe('a package that serves HTTP: run it, and reach it at its URL', () => {
  const entries = join(import.meta.dirname, '../../../../fixtures/registry/entries');
  const read = (file: string): ServerJson => {
    const checked = validateServerJson(JSON.parse(readFileSync(join(entries, file), 'utf8')));
    if (!checked.ok) throw new Error(checked.reason);
    return checked.server;
  };

  it('the URL template takes an environment variable (its default, or the value given)', () => {
    const server = read('server-everything-http.json');
    const [option] = optionsOf(server);
    expect(option?.unsupported).toBeUndefined();
    expect(option?.label).toContain('serving streamable-http at http://127.0.0.1:{PORT}/mcp');
    expect(buildEntry(server, { package: 0 }, {}).entry).toEqual({
      url: 'http://127.0.0.1:3001/mcp',
      type: 'http',
      launch: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-everything@2026.8.31', 'streamableHttp'],
        env: { PORT: '3001' },
      },
    });
    expect(buildEntry(server, { package: 0 }, { 'env:PORT': '4555' }).entry['url']).toBe('http://127.0.0.1:4555/mcp');
  });

  it('a named argument by its name, a secret env var kept apart under launch', () => {
    const server = read('server-everything-http.json');
    const pkg = server.packages![0]!;
    pkg.transport = { type: 'sse', url: 'http://localhost:{--port}/sse' };
    pkg.packageArguments = [{ type: 'named', name: '--port', default: '8123' }];
    pkg.environmentVariables = [{ name: 'API_KEY', isSecret: true, isRequired: true }];
    const built = buildEntry(server, { package: 0 }, { 'env:API_KEY': 's3cret' });
    expect(built.entry).toMatchObject({ url: 'http://localhost:8123/sse', type: 'sse', launch: { command: 'npx' } });
    expect((built.entry['launch'] as { args: string[] }).args.slice(-2)).toEqual(['--port', '8123']);
    expect(built.secrets).toEqual([{ field: 'env', name: 'API_KEY', value: 's3cret' }]);
    pkg.transport = { type: 'sse', url: 'http://localhost:{nope}/sse' };
    expect(() => buildEntry(server, { package: 0 }, { 'env:API_KEY': 'x' })).toThrow(
      'the URL http://localhost:{nope}/sse names {nope}, which no argument or variable gives',
    );
  });
});
