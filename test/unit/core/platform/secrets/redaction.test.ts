/**
 * The one redaction step: a header value's credential, a Basic credential
 * decoded, an OAuth token set's tokens, this process's secret-looking
 * variables and well-known token shapes are redacted at every sink it feeds
 * (values, text, a logger, a writer), and secrets learned later are covered.
 */
import { StdioPath } from '../../../../../electron/core/platform/env/stdioPath.js';
import type { ResolvedEnvironment } from '../../../../../electron/core/platform/env/loginShell.js';
import { describe, expect, it } from 'vitest';
import { createRedaction, environmentSecrets } from '../../../../../electron/core/platform/secrets/redaction.js';
import { secretVariants } from '../../../../../electron/core/platform/secrets/secretVariants.js';
import type { Logger } from '../../../../../electron/core/platform/deps.js';
import { makeConfig } from '../../../../helpers/basics.js';

describe('secretVariants', () => {
  it('adds the credential after an auth scheme, and a decoded Basic credential', () => {
    expect(secretVariants('Bearer abcdefgh12345')).toEqual(['Bearer abcdefgh12345', 'abcdefgh12345']);
    const basic = Buffer.from('alice:correct-horse-battery').toString('base64');
    expect(secretVariants(`Basic ${basic}`)).toEqual([
      `Basic ${basic}`,
      basic,
      'alice:correct-horse-battery',
      'correct-horse-battery',
    ]);
  });

  it('treats unexpanded ${VAR} references as names, not secrets', () => {
    expect(secretVariants('${GITHUB_TOKEN}')).toEqual([]);
    expect(secretVariants('Bearer ${LINEAR_TOKEN}')).toEqual([]);
    expect(secretVariants('x-${A}')).toEqual(['x-${A}']);
  });

  it("adds an OAuth token set's tokens, not its other fields", () => {
    const tokens = JSON.stringify({ access_token: 'access-123456789', token_type: 'Bearer', expires_in: 3600 });
    expect(secretVariants(tokens)).toEqual([tokens, 'access-123456789']);
  });
});

describe('createRedaction', () => {
  const backends = makeConfig({
    mcpServers: {
      web: {
        url: 'https://example.com/mcp?api_key=query-secret-77',
        headers: { Authorization: 'Bearer header-cred-9876' },
      },
      local: { command: 'node', env: { API_TOKEN: 'env-secret-1234', PLAIN: 'not-a-secret' } },
    },
  }).backends;

  it('redacts config, environment and later-learned secrets and token shapes, in values, text, logs and writers', () => {
    const learned: string[] = [];
    const redaction = createRedaction({
      backends: () => backends,
      environment: { GITHUB_TOKEN: 'own-env-token-5555', XAUTHORITY: '/run/user/1000/xauth', HOME: '/home/me' },
      extra: () => learned,
    });
    const shaped = `sk-${'x'.repeat(24)}`;
    const text = `header-cred-9876 query-secret-77 env-secret-1234 own-env-token-5555 ${shaped} not-a-secret /home/me`;
    expect(redaction.text(text)).toBe('[redacted] [redacted] [redacted] [redacted] [redacted] not-a-secret /home/me');
    expect(redaction.value({ 'header-cred-9876': ['query-secret-77'] })).toEqual({ '[redacted]': ['[redacted]'] });
    expect(redaction.text('keychain-value-42')).toBe('keychain-value-42');
    learned.push('keychain-value-42');
    expect(redaction.text('keychain-value-42')).toBe('[redacted]');
    const lines: string[] = [];
    const logger: Logger = { info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) };
    redaction.logger(logger).warn('backend "local" is down: API_TOKEN=env-secret-1234');
    redaction.writer((t) => lines.push(t))('{"stderr":["header-cred-9876"]}');
    expect(lines).toEqual(['backend "local" is down: API_TOKEN=[redacted]', '{"stderr":["[redacted]"]}']);
  });

  it('learns the secrets of variables the login shell adds after start (StdioPath applies them in place)', async () => {
    let answer!: (resolved: ResolvedEnvironment) => void;
    const login = new Promise<ResolvedEnvironment>((resolve) => (answer = resolve));
    const stdioPath = new StdioPath({ HOME: '/home/me', PATH: '/usr/bin' }, [], login);
    const redaction = createRedaction({
      backends: () => backends,
      environment: stdioPath.environment,
      environmentRevision: () => stdioPath.revision,
    });
    expect(redaction.text('zshrc-token-31337')).toBe('zshrc-token-31337');
    answer({
      environment: { HOME: '/home/me', PATH: '/usr/bin', GITLAB_TOKEN: 'zshrc-token-31337' },
      source: 'login-shell',
      path: ['/usr/bin'],
    });
    await stdioPath.ready;
    expect(redaction.text('zshrc-token-31337')).toBe('[redacted]');
  });

  it("takes only secret-looking names from the process's own environment", () => {
    expect(
      environmentSecrets({
        OPENAI_API_KEY: 'a',
        SWITCHBOARD_CLIENT_TOKEN: 'b',
        XAUTHORITY: 'c',
        KEYRING: 'd',
        PATH: 'e',
      }),
    ).toEqual(['a', 'b']);
  });
});
