/**
 * The transport of a server Switchboard runs and reaches over HTTP: a server
 * that exits before it listens, and a command that is not there, are each
 * reported as what they are (real child processes; no MCP needed to fail).
 */
import { describe, expect, it } from 'vitest';
import type { Transport } from '@modelcontextprotocol/client';
import { LaunchedHttpTransport } from '../../../electron/core/backends/transport/launchedHttpTransport.js';

const url = new URL('http://127.0.0.1:9/mcp'); // the discard port: nothing of ours listens there
const never = (): Transport => {
  throw new Error('the HTTP transport must not be opened');
};

describe('LaunchedHttpTransport', () => {
  it('a server that exits before it listens: its exit code and the URL it never served', async () => {
    const output: string[] = [];
    const transport = new LaunchedHttpTransport(
      {
        command: process.execPath,
        args: ['-e', 'console.error("no port for me"); process.exit(3)'],
        env: { ...(process.env as Record<string, string>) },
        backendId: 'quits',
        url,
      },
      never,
      (chunk) => output.push(chunk),
    );
    await expect(transport.start()).rejects.toThrow(
      'quits: the server exited with code 3 before it served http://127.0.0.1:9/mcp',
    );
    expect(output.join('')).toContain('no port for me');
  });

  it('a command that is not there is named, with the PATH searched', async () => {
    const transport = new LaunchedHttpTransport(
      { command: 'sb-no-such-server', args: [], env: { PATH: '/nonexistent/bin' }, backendId: 'missing', url },
      never,
      () => undefined,
    );
    await expect(transport.start()).rejects.toThrow(
      'command `sb-no-such-server` was not found on PATH (PATH searched: /nonexistent/bin)',
    );
  });
});
