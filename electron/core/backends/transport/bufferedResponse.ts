/**
 * A `Response` over a body already read whole (a backend's JSON answer): the
 * SDK client reads it with `json()` or `text()`, and those parse the bytes at
 * once. A `Response` built with its body turns the bytes into a web stream and
 * reads them back through it, which on every proxied call cost more CPU than
 * the parse itself (bench/hopProfile.ts: undici's extractBody, ReadableStream,
 * makeTransferable, readAllBytes). The stream is still made, from the same
 * bytes, for a caller that asks for `body`; the body is consumed once, by
 * whichever way it is read, as the platform's is.
 */

/** A `Response` of `init` whose body is `bytes`, read without a stream unless `body` is asked for. */
export function bufferedResponse(bytes: Buffer, init: ResponseInit): Response {
  const response = new Response(null, init);
  let unread: Buffer | undefined = bytes;
  let stream: ReadableStream<Uint8Array> | undefined;
  const take = (): Buffer => {
    if (unread === undefined) throw new TypeError('Body is unusable: Body has already been read');
    const taken = unread;
    unread = undefined;
    return taken;
  };
  const read = <T>(decode: (body: Buffer) => T): Promise<T> => {
    if (stream !== undefined) return new Response(stream).arrayBuffer().then((buffer) => decode(Buffer.from(buffer)));
    try {
      return Promise.resolve(decode(take()));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  };
  Object.defineProperties(response, {
    body: {
      get: (): ReadableStream<Uint8Array> | null => {
        if (stream === undefined && unread !== undefined) stream = streamOf(take());
        return stream ?? null;
      },
    },
    bodyUsed: { get: (): boolean => unread === undefined && (stream === undefined || stream.locked) },
    text: { value: () => read((body) => body.toString('utf8')) },
    json: { value: () => read((body) => JSON.parse(body.toString('utf8')) as unknown) },
    arrayBuffer: { value: () => read((body) => new Uint8Array(body).buffer) },
    bytes: { value: () => read((body) => new Uint8Array(body)) },
    blob: { value: () => read((body) => new Blob([new Uint8Array(body)])) },
    clone: {
      value: (): Response => {
        if (unread === undefined) throw new TypeError('Response.clone: Body has already been consumed.');
        const copy = bufferedResponse(unread, response);
        Object.defineProperty(copy, 'url', { value: response.url });
        return copy;
      },
    },
  });
  return response;
}

/** A web stream of `bytes`, in one chunk. */
function streamOf(bytes: Buffer): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.length > 0) controller.enqueue(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
      controller.close();
    },
  });
}
