/**
 * Server approvals (quarantine): the migration that trusts the servers of an
 * existing config once, approvals that cover exactly the launch line (env
 * names, not values), a corrupt file refused and never overwritten, no
 * secret of a URL or an argument kept (a version 1 file, which kept them,
 * written again masked), and the user's recorded choices (put back under
 * review, started unsandboxed) kept per launch line.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerApprovals } from '../../../../../electron/core/catalog/policy/serverApprovals.js';
import { parseBackend, type BackendConfig } from '../../../../../electron/core/platform/config/schema.js';
import { tempDir } from '../../../../helpers/basics.js';

function backend(id: string, entry: Record<string, unknown>): BackendConfig {
  const { backend: parsed, problems } = parseBackend(id, entry);
  if (!parsed) throw new Error(JSON.stringify(problems));
  return parsed;
}

const fs = backend('fs', { command: 'npx', args: ['-y', 'server-fs', '/tmp'], env: { TOKEN: 'one' } });

describe('ServerApprovals', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let file: string;

  beforeEach(async () => {
    dir = await tempDir();
    file = join(dir.path, 'server-approvals.json');
  });
  afterEach(() => dir.cleanup());

  it('records the servers present at the first start as approved, and only those', async () => {
    const approvals = new ServerApprovals(file);
    await approvals.load([fs]);
    expect(approvals.isApproved(fs)).toBe(true);
    expect(approvals.isApproved(backend('web', { url: 'https://example.com/mcp' }))).toBe(false);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { servers: Record<string, { launch: unknown }> };
    expect(Object.keys(saved.servers)).toEqual(['fs']);
    expect(JSON.stringify(saved)).not.toContain('one');

    // The next start finds the file: a server added since is not adopted.
    const later = new ServerApprovals(file);
    await later.load([fs, backend('web', { url: 'https://example.com/mcp' })]);
    expect(later.isApproved(fs)).toBe(true);
    expect(later.get('web')).toBeUndefined();
  });

  it('covers the launch line: new args, env names, cwd or sandbox need a new approval; env values do not', async () => {
    const approvals = new ServerApprovals(file);
    await approvals.load([fs]);
    const entry = { command: 'npx', args: ['-y', 'server-fs', '/tmp'], env: { TOKEN: 'one' } };
    expect(approvals.isApproved(backend('fs', { ...entry, env: { TOKEN: 'rotated' } }))).toBe(true);
    expect(approvals.isApproved(backend('fs', { ...entry, args: ['-y', 'server-fs', '/'] }))).toBe(false);
    expect(approvals.isApproved(backend('fs', { ...entry, env: { TOKEN: 'one', NODE_OPTIONS: 'x' } }))).toBe(false);
    expect(approvals.isApproved(backend('fs', { ...entry, cwd: '/srv' }))).toBe(false);
    expect(approvals.isApproved(backend('fs', { ...entry, sandbox: { network: 'all' } }))).toBe(false);
    expect(approvals.isApproved(backend('fs', { ...entry, description: 'renamed in the UI' }))).toBe(true);

    const widened = backend('fs', { ...entry, sandbox: { network: 'all' } });
    const record = await approvals.approve(widened);
    expect(record.launch).toMatchObject({ command: 'npx', envKeys: ['TOKEN'], sandbox: { network: 'all' } });
    expect(approvals.isApproved(widened)).toBe(true);
    expect(approvals.isApproved(fs)).toBe(false);
    const reread = new ServerApprovals(file);
    await reread.load([]);
    expect(reread.isApproved(widened)).toBe(true);
  });

  it('keeps no secret of a URL or an argument, and migrates a version 1 file that did, its approvals intact', async () => {
    const keyed = backend('keyed', { command: 'srv', args: ['--token', 'tok-SECRET-1', '--api-key=key-SECRET-2'] });
    const web = backend('web', { url: 'https://api.example.com/mcp?api_key=url-SECRET-3&region=eu' });
    const approvals = new ServerApprovals(file);
    await approvals.load([keyed, web]);
    const text = await readFile(file, 'utf8');
    expect(text).not.toMatch(/SECRET/);
    expect(JSON.parse(text)).toMatchObject({
      version: 2,
      servers: {
        keyed: { launch: { args: ['--token', '****', '--api-key=****'] } },
        web: { launch: { url: 'https://api.example.com/mcp?api_key=****&region=eu' } },
      },
    });

    // A version 1 file kept the launch line in plain text: read, it is written again masked.
    const v2 = JSON.parse(text) as { servers: Record<string, { hash: string; approvedAt: string }> };
    const plain = (id: string, launch: unknown) => ({ ...v2.servers[id], launch });
    await writeFile(
      file,
      JSON.stringify({
        version: 1,
        servers: {
          keyed: plain('keyed', {
            transport: 'stdio',
            command: 'srv',
            args: ['--token', 'tok-SECRET-1', '--api-key=key-SECRET-2'],
            envKeys: [],
            sandbox: null,
          }),
          web: plain('web', {
            transport: 'http',
            url: 'https://api.example.com/mcp?api_key=url-SECRET-3&region=eu',
            headerKeys: [],
          }),
        },
      }),
    );
    const migrated = new ServerApprovals(file);
    await migrated.load([]);
    expect(migrated.isApproved(keyed)).toBe(true);
    expect(migrated.isApproved(web)).toBe(true);
    const after = await readFile(file, 'utf8');
    expect(after).not.toMatch(/SECRET/);
    expect(JSON.parse(after)).toMatchObject({
      version: 2,
      servers: { web: { launch: { url: expect.stringContaining('api_key=****') } } },
    });
  });

  it('keeps a server put back under review unapproved until approved again, and a start-unsandboxed choice per launch line', async () => {
    const approvals = new ServerApprovals(file);
    await approvals.load([fs]);
    await approvals.hold(fs);
    expect(approvals.isApproved(fs)).toBe(false);
    expect(approvals.isHeld('fs')).toBe(true);
    await approvals.allowUnsandboxed(fs);
    expect(approvals.startsUnsandboxed(fs)).toBe(true);
    expect(approvals.startsUnsandboxed(backend('fs', { command: 'npx', args: ['-y', 'other'] }))).toBe(false);
    const reread = new ServerApprovals(file);
    await reread.load([]);
    expect(reread.isHeld('fs')).toBe(true);
    expect(reread.startsUnsandboxed(fs)).toBe(true);
    await reread.approve(fs);
    expect(reread.isApproved(fs)).toBe(true);
    expect(reread.isHeld('fs')).toBe(false);
    expect(reread.startsUnsandboxed(fs)).toBe(false);
  });

  it('forgets a removed server, so adding it again quarantines it', async () => {
    const approvals = new ServerApprovals(file);
    await approvals.load([fs]);
    await approvals.forget('fs');
    expect(approvals.isApproved(fs)).toBe(false);
    const reread = new ServerApprovals(file);
    await reread.load([fs]);
    expect(reread.isApproved(fs)).toBe(false);
  });

  it('refuses a corrupt file with config_invalid and never overwrites it', async () => {
    await writeFile(file, '{"version": 1, "servers": {"fs": {"hash": "not-a-hash"}}}');
    const approvals = new ServerApprovals(file);
    await expect(approvals.load([fs])).rejects.toMatchObject({ code: 'config_invalid' });
    expect(approvals.isApproved(fs)).toBe(false);
    await expect(approvals.approve(fs)).rejects.toMatchObject({ code: 'config_invalid' });
    expect(await readFile(file, 'utf8')).toContain('not-a-hash');
  });
});
