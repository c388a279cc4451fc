import { describe, expect, it } from 'vitest';
import { SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { SessionRenewal } from '../../../../../electron/core/backends/connection/sessionRenewal.js';

/** The SDK's error for a POST answered 404 (what a backend that forgot the session sends). */
const notFound = (): SdkHttpError =>
  new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'Error POSTing to endpoint: Session not found', {
    status: 404,
    statusText: 'Not Found',
  });

/**
 * A backend session by id: `reopen` opens the next one when `release()` is
 * called; each request is answered 404 unless it carries a session the
 * backend knows.
 */
function backend(options: { keeps?: (session: string) => boolean; sessionless?: boolean } = {}) {
  let session: string | undefined = options.sessionless ? undefined : 's1';
  let next = 1;
  let release: () => void = () => undefined;
  const state = { reopened: 0, renewed: 0, sent: [] as (string | undefined)[] };
  const renewal = new SessionRenewal({
    backendId: 'remote',
    sessionId: () => session,
    reopen: async () => {
      state.reopened++;
      await new Promise<void>((resolve) => (release = resolve));
      session = `s${++next}`;
    },
    timeoutMs: () => 5_000,
    renewed: () => void state.renewed++,
  });
  const keeps = options.keeps ?? ((id: string) => id !== 's1');
  /** One request: answered 404 unless its session is kept. */
  const request = async (answer: string): Promise<string> => {
    const carried = session;
    state.sent.push(carried);
    await Promise.resolve();
    if (carried !== undefined && !keeps(carried)) throw notFound();
    return answer;
  };
  const send = (answer: string, signal = new AbortController().signal): Promise<string> =>
    renewal.send(() => request(answer), signal);
  return { renewal, state, send, release: () => release(), session: () => session };
}

/** Lets pending promise callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('SessionRenewal', () => {
  it('renews once for every request that met the forgotten session and sends each once more', async () => {
    const b = backend();
    const answers = Promise.all(['a', 'b', 'c'].map((answer) => b.send(answer)));
    await settle();
    // A request made while the renewal runs waits for it: it never carries the lost session.
    const later = b.send('d');
    b.release();
    expect(await answers).toEqual(['a', 'b', 'c']);
    expect(await later).toBe('d');
    expect(b.state.reopened).toBe(1);
    expect(b.state.renewed).toBe(1);
    expect(b.state.sent.filter((id) => id === 's1')).toHaveLength(3);
    expect(b.state.sent.filter((id) => id === 's2')).toHaveLength(4);
  });

  it('fails a request answered 404 again on the new session, without renewing again', async () => {
    const b = backend({ keeps: () => false });
    const answer = b.send('a');
    await settle();
    b.release();
    await expect(answer).rejects.toMatchObject({
      code: 'backend_unavailable',
      message:
        'backend "remote" forgot our session (HTTP 404), and again the new one right after: it keeps losing sessions',
    });
    expect(b.state.reopened).toBe(1);
    expect(b.state.sent).toEqual(['s1', 's2']);
  });

  it("gives up waiting when the request's signal aborts, while the renewal goes on for the others", async () => {
    const b = backend();
    const controller = new AbortController();
    const impatient = b.send('a', controller.signal);
    const patient = b.send('b');
    await settle();
    controller.abort(new Error('caller gave up'));
    await expect(impatient).rejects.toThrow('caller gave up');
    b.release();
    expect(await patient).toBe('b');
    expect(b.state.sent).toEqual(['s1', 's1', 's2']);
  });

  it("renews for the listen stream's 404, but not a session it opened that never served a request", async () => {
    // Every session is lost at once (a balancer without session affinity): each new listen stream meets a 404.
    const b = backend({ keeps: () => false });
    b.renewal.listenLost('s1');
    await settle();
    b.release();
    await settle();
    expect(b.session()).toBe('s2');
    b.renewal.listenLost('s2');
    await settle();
    expect(b.state.reopened).toBe(1);
  });

  it("renews for the listen stream's 404 a session it opened once it has served a request", async () => {
    const b = backend({ keeps: (id) => id === 's2' });
    const first = b.send('a');
    await settle();
    b.release();
    expect(await first).toBe('a');
    // s2 served a request, then the backend restarted: its listen stream meets a 404.
    b.renewal.listenLost('s2');
    await settle();
    expect(b.state.reopened).toBe(2);
    b.release();
  });

  it('leaves a session already renewed alone, and a request without a session as it is', async () => {
    const b = backend();
    const first = b.send('a');
    await settle();
    b.release();
    await first;
    // The listen stream's GET, sent on s1 before the renewal, is answered 404 after it.
    await b.renewal.lost('s1');
    expect(b.state.reopened).toBe(1);

    const stdio = backend({ sessionless: true });
    const answeredNotFound = (): Promise<string> => Promise.reject(notFound());
    await expect(stdio.renewal.send(answeredNotFound, new AbortController().signal)).rejects.toBeInstanceOf(
      SdkHttpError,
    );
    expect(stdio.state.reopened).toBe(0);
  });
});
