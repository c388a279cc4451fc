/**
 * The one transport declaration, as the config schema and the server form
 * read it: every spelling a config entry may use parses to its transport, an
 * unknown one is refused naming every transport, and a form round-trips each.
 */
import { describe, expect, it } from 'vitest';
import { parseBackend } from '../../../../electron/core/platform/index.js';
import {
  BACKEND_TRANSPORTS,
  REMOTE_TRANSPORTS,
  TRANSPORT_KINDS,
  transportNamed,
} from '../../../../shared/model/transports.js';
import { entryFromForm, formFromEntry } from '../../../../renderer/src/features/servers/entryForm.js';

describe('backend transports', () => {
  it('parses every remote spelling of an entry to its transport', () => {
    for (const kind of REMOTE_TRANSPORTS) {
      for (const spelling of BACKEND_TRANSPORTS[kind].spellings) {
        for (const field of ['type', 'transport']) {
          const { backend, problems } = parseBackend('x', { url: 'https://example.com/mcp', [field]: spelling });
          expect(problems).toEqual([]);
          expect(backend?.transport).toBe(kind);
        }
      }
    }
    expect(parseBackend('x', { url: 'https://example.com/mcp' }).backend?.transport).toBe('http');
  });

  it('refuses an unknown transport naming the field and every transport', () => {
    const { problems } = parseBackend('x', { url: 'https://example.com/mcp', type: 'websocket' });
    expect(problems).toEqual([
      { path: 'mcpServers.x.type', message: 'unknown transport "websocket" (expected stdio, http or sse)' },
    ]);
    expect(transportNamed('websocket')).toBeUndefined();
  });

  it('keeps each transport through the server form', () => {
    for (const kind of TRANSPORT_KINDS) {
      const base = BACKEND_TRANSPORTS[kind].remote
        ? { url: 'https://example.com/mcp', type: kind }
        : { command: 'srv' };
      const form = formFromEntry('x', base);
      expect(form.transport).toBe(kind);
      const { entry, problems } = entryFromForm(form);
      expect(problems).toEqual([]);
      expect(parseBackend('x', entry).backend?.transport).toBe(kind);
    }
  });
});
