/**
 * Secrets inline in a server's URL or command line: masked in what the UI
 * gets (target and entry), put back when an edit sends the masked form, and
 * listed for the redaction (audit log, UI answers).
 */
import { describe, expect, it } from 'vitest';
import { inspectArgs, inspectUrl, MASK } from '../../../../../electron/core/platform/config/inlineSecrets.js';
import { secretValues } from '../../../../../electron/core/platform/secrets/redaction.js';
import { parseBackend } from '../../../../../electron/core/platform/config/schema.js';
import { mergeHidden, redactEntry } from '../../../../../electron/host/backendViews.js';

describe('inspectUrl', () => {
  it('masks a user-info password and secret-looking query values, keeping the rest', () => {
    const { masked, secrets } = inspectUrl(
      'https://me:p%40ss-word-1@api.example.com:8443/mcp?api_key=KEY-123456&region=eu&access_token=tok%2Babc#frag',
    );
    expect(masked).toBe(
      `https://me:${MASK}@api.example.com:8443/mcp?api_key=${MASK}&region=eu&access_token=${MASK}#frag`,
    );
    expect(secrets).toEqual(
      expect.arrayContaining(['p%40ss-word-1', 'p@ss-word-1', 'KEY-123456', 'tok%2Babc', 'tok+abc']),
    );
  });

  it('keeps URLs without secrets, ${VAR} references and plain names as they are', () => {
    for (const url of [
      'http://127.0.0.1:3000/mcp',
      'https://user@example.com/mcp?page=2',
      'https://example.com/mcp?token=${MCP_TOKEN}',
      'not a url',
    ]) {
      expect(inspectUrl(url)).toEqual({ masked: url, secrets: [] });
    }
  });
});

describe('inspectArgs', () => {
  it('masks values after or with secret-looking flags, and URLs among the arguments', () => {
    const { masked, secrets } = inspectArgs([
      '-y',
      'some-server',
      '--token',
      'tok-value-1',
      '--api-key=key-value-2',
      '--token-file',
      '/home/me/token.txt',
      '--verbose',
      'https://example.com/sse?secret=url-secret-3',
      '--url=https://example.com/?auth=url-secret-4',
      '--password',
      '${DB_PASSWORD}',
    ]);
    expect(masked).toEqual([
      '-y',
      'some-server',
      '--token',
      MASK,
      `--api-key=${MASK}`,
      '--token-file',
      '/home/me/token.txt',
      '--verbose',
      `https://example.com/sse?secret=${MASK}`,
      `--url=https://example.com/?auth=${MASK}`,
      '--password',
      '${DB_PASSWORD}',
    ]);
    expect(secrets).toEqual(expect.arrayContaining(['tok-value-1', 'key-value-2', 'url-secret-3', 'url-secret-4']));
    expect(secrets).not.toContain('/home/me/token.txt');
  });
});

describe('backend views', () => {
  const stdio = { command: 'npx', args: ['server', '--api-key', 'stdio-secret-1', '--port', '8080'] };
  const remote = { url: 'https://api.example.com/mcp?token=remote-secret-2', headers: {} };

  it('show URL and argument secrets masked in the entry', () => {
    const a = redactEntry(stdio).entry;
    const b = redactEntry(remote).entry;
    expect(a['args']).toEqual(['server', '--api-key', MASK, '--port', '8080']);
    expect(b['url']).toBe(`https://api.example.com/mcp?token=${MASK}`);
    expect(JSON.stringify([a, b])).not.toMatch(/stdio-secret-1|remote-secret-2/);
  });

  it('put the real values back when an edit sends the masked form', () => {
    const shownStdio = redactEntry(stdio).entry;
    const edited = mergeHidden(stdio, { ...shownStdio, args: [...(shownStdio['args'] as string[]), '--debug'] });
    expect(edited['args']).toEqual([...stdio.args, '--debug']);
    expect(mergeHidden(remote, redactEntry(remote).entry)['url']).toBe(remote.url);
    // A new value replaces the old one.
    expect(mergeHidden(stdio, { ...shownStdio, args: ['server', '--api-key', 'new-value'] })['args']).toEqual([
      'server',
      '--api-key',
      'new-value',
    ]);
  });

  it('keep a masked URL secret when the user edits another part of the URL', () => {
    const withUser = { url: 'https://me:pa%24s@old.example.com/mcp?token=remote-secret-2&region=eu', headers: {} };
    const shown = redactEntry(withUser).entry['url'] as string;
    expect(shown).toBe(`https://me:${MASK}@old.example.com/mcp?token=${MASK}&region=eu`);
    const moved = shown.replace('old.example.com', 'new.example.com').replace('region=eu', 'region=us');
    expect(mergeHidden(withUser, { url: moved, headers: {} })['url']).toBe(
      'https://me:pa%24s@new.example.com/mcp?token=remote-secret-2&region=us',
    );
    // A value typed anew, or a secret parameter that is new, stays as typed.
    const retyped = `https://new.example.com/mcp?token=typed-now&key=${MASK}`;
    expect(mergeHidden(withUser, { url: retyped, headers: {} })['url']).toBe(retyped);
  });

  it('list the inline secrets for the redaction', () => {
    const backends = [parseBackend('s', stdio).backend!, parseBackend('r', remote).backend!];
    const values = secretValues(backends, {}, []);
    expect(values).toEqual(expect.arrayContaining(['stdio-secret-1', 'remote-secret-2']));
    expect(values).not.toContain('8080');
  });
});
