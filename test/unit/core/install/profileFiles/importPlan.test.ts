/**
 * `profile import` before it writes: a file that does not validate is refused
 * naming each field by dotted path; the plan says what would change (profile
 * new or replaced, servers added or left as they are, policies, secrets to
 * give) against the config as it is, and refuses a profile ID that is taken.
 */
import { describe, expect, it } from 'vitest';
import { ErrorFix } from '../../../../../shared/errors.js';
import { planImport, readProfileFile } from '../../../../../electron/core/install/profileFiles/importPlan.js';
import { entryFromInputs } from '../../../../../electron/core/install/profileFiles/serverInputs.js';

const file = {
  formatVersion: 1,
  profile: { id: 'cursor', name: 'Cursor', backends: ['notes', 'web'], maxTools: 40 },
  backendPolicies: { notes: { defaultRule: 'deny' }, web: { tools: { fetch: 'ask' } } },
  servers: {
    notes: { command: 'notes-server', args: ['--token', '${input:notes.args1}'], env: { KEY: { input: 'notes-key' } } },
    web: { url: 'https://web.example.com/mcp' },
  },
  inputs: {
    'notes.args1': { description: 'notes: args[1]', secret: true },
    'notes-key': { description: 'notes: env.KEY', secret: true },
  },
};
const text = (value: unknown): string => JSON.stringify(value);
const read = (value: unknown) => {
  const { file: parsed, problems } = readProfileFile(text(value));
  if (!parsed) throw new Error(problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
  return parsed;
};

describe('readProfileFile', () => {
  it('names each problem by its dotted path', () => {
    const bad = structuredClone(file) as Record<string, unknown> & typeof file;
    (bad.profile as Record<string, unknown>)['exposure'] = 'sometimes';
    (bad.servers.web as Record<string, unknown>)['url'] = 'ftp://nope';
    const first = readProfileFile(text(bad)).problems.map((p) => p.path);
    expect(first).toContain('profile.exposure');
    delete (bad.profile as Record<string, unknown>)['exposure'];
    expect(readProfileFile(text(bad)).problems).toEqual([
      { path: 'servers.web.url', message: 'must be an http(s) URL' },
    ]);
  });

  it('refuses an input used but not declared, an unknown format and text that is not JSON', () => {
    const undeclared = structuredClone(file);
    delete (undeclared.inputs as Record<string, unknown>)['notes-key'];
    expect(readProfileFile(text(undeclared)).problems).toEqual([
      { path: 'servers.notes.env.KEY', message: 'input "notes-key" is not declared under inputs' },
    ]);
    expect(readProfileFile(text({ ...file, formatVersion: 2 })).problems[0]?.path).toBe('formatVersion');
    expect(readProfileFile('{ nope').problems[0]?.path).toBe('(root)');
  });
});

describe('planImport', () => {
  it('into an empty config: a new profile, every server and policy added, every secret asked for', () => {
    const plan = planImport(read(file), { document: {}, stored: () => false });
    expect(plan).toEqual({
      id: 'cursor',
      profile: { state: 'new', changedFields: [] },
      servers: [
        { id: 'notes', state: 'added' },
        { id: 'web', state: 'added' },
      ],
      policies: [
        { id: 'notes', state: 'added' },
        { id: 'web', state: 'added' },
      ],
      inputs: [
        { name: 'notes.args1', description: 'notes: args[1]', stored: false, inline: true },
        { name: 'notes-key', description: 'notes: env.KEY', stored: false, inline: false },
      ],
    });
  });

  it('servers already here are left as they are, and their secrets are not asked for', () => {
    const document = {
      mcpServers: { notes: { command: 'other' }, web: { url: 'https://web.example.com/mcp' } },
      policy: { backends: { notes: { defaultRule: 'deny' }, web: { enabled: false } }, clients: {} },
    };
    const plan = planImport(read(file), { document, stored: () => false });
    expect(plan.servers).toEqual([
      { id: 'notes', state: 'differs' },
      { id: 'web', state: 'same' },
    ]);
    expect(plan.policies).toEqual([
      { id: 'notes', state: 'same' },
      { id: 'web', state: 'differs' },
    ]);
    expect(plan.inputs).toEqual([]);
  });

  it('a secret the keychain holds already is marked stored', () => {
    const plan = planImport(read(file), { document: {}, stored: (name) => name === 'notes-key' });
    expect(plan.inputs.find((input) => input.name === 'notes-key')?.stored).toBe(true);
  });

  it('refuses a profile ID that is taken unless replaced, and says which fields a replace changes', () => {
    const document = { policy: { clients: { cursor: { name: 'Cursor', maxTools: 80 } } } };
    // The fix as data (the CLI says --replace / --as, the UI its box and field), not in the message.
    expect(() => planImport(read(file), { document, stored: () => false })).toThrow(
      expect.objectContaining({
        message: 'a client profile "cursor" exists already',
        data: { client: 'cursor', fix: ErrorFix.ReplaceOrRename },
      }),
    );
    const replaced = planImport(read(file), { document, stored: () => false }, { replace: true });
    expect(replaced.profile).toEqual({ state: 'replaced', changedFields: ['maxTools', 'backends'] });
    const renamed = planImport(read(file), { document, stored: () => false }, { as: 'cursor-work' });
    expect(renamed).toMatchObject({ id: 'cursor-work', profile: { state: 'new' } });
    expect(() => planImport(read(file), { document, stored: () => false }, { as: 'no good' })).toThrow(
      /cannot be a profile ID/,
    );
  });

  it('a server the profile uses that is neither in the file nor here is reported missing', () => {
    const { servers: _servers, ...rulesOnly } = file;
    const plan = planImport(read({ ...rulesOnly, inputs: {} }), {
      document: { mcpServers: { notes: { command: 'x' } } },
      stored: () => false,
    });
    expect(plan.servers).toEqual([
      { id: 'notes', state: 'same' },
      { id: 'web', state: 'missing' },
    ]);
  });
});

describe('entryFromInputs', () => {
  it('makes whole inputs keychain references and puts inline ones back in place', () => {
    expect(entryFromInputs(file.servers.notes, (name) => `<${name}>`)).toEqual({
      command: 'notes-server',
      args: ['--token', '<notes.args1>'],
      env: { KEY: { secret: 'notes-key' } },
    });
  });
});
