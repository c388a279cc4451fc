/**
 * A backend's buffered answer handed to the SDK without a web stream: read
 * once by any of the platform's ways, as a stream when asked, cloned before a
 * read, with status and headers as given.
 */
import { describe, expect, it } from 'vitest';
import { bufferedResponse } from '../../../../../electron/core/backends/transport/bufferedResponse.js';

const init = { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json' } };
const answer = (text = '{"jsonrpc":"2.0","id":1,"result":{"ok":true}}'): Response =>
  bufferedResponse(Buffer.from(text), init);

describe('bufferedResponse', () => {
  it('reads as JSON or text once, with status and headers, and refuses a second read', async () => {
    const response = answer();
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { ok: true } });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    expect(await answer('plain ü').text()).toBe('plain ü');
    expect(new TextDecoder().decode(await answer('ab').arrayBuffer())).toBe('ab');
  });

  it('rejects a body that is not JSON with the platform’s SyntaxError', async () => {
    await expect(answer('not json').json()).rejects.toThrow(SyntaxError);
  });

  it('hands its bytes over as a stream when the body is asked for', async () => {
    const response = answer('streamed');
    const body = response.body;
    expect(body).not.toBeNull();
    expect(await new Response(body).text()).toBe('streamed');
    expect(response.bodyUsed).toBe(true);
  });

  it('clones before a read, each copy read on its own', async () => {
    const response = answer('twice');
    const copy = response.clone();
    expect(await response.text()).toBe('twice');
    expect(await copy.text()).toBe('twice');
    expect(copy.status).toBe(200);
    expect(() => response.clone()).toThrow(TypeError);
  });
});
