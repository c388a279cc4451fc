/**
 * The one translation of thrown errors into contract error data: every code
 * it yields is in the closed set; JSON-RPC errors keep their number apart in
 * `data.rpcCode`; the SDK's local errors, aborts and Node errors get a code
 * of ours.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { ErrorCode, SwitchboardError, isErrorCode } from '../../../../shared/errors.js';
import { toErrorData } from '../../../../electron/core/platform/toErrorData.js';

describe('toErrorData', () => {
  it('keeps our errors as they are', () => {
    const error = new SwitchboardError(ErrorCode.UnknownBackend, 'no backend "x"', { backend: 'x' });
    expect(toErrorData(error)).toEqual({ code: 'unknown_backend', message: 'no backend "x"', data: { backend: 'x' } });
  });

  it('turns JSON-RPC errors into invalid_params or protocol_error, their number in data.rpcCode', () => {
    expect(toErrorData(new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown tool: x'))).toEqual({
      code: 'invalid_params',
      message: 'Unknown tool: x',
      data: { rpcCode: -32602 },
    });
    expect(toErrorData(new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found'))).toEqual({
      code: 'protocol_error',
      message: 'Method not found',
      data: { rpcCode: -32601 },
    });
    // A v1 SDK McpError (or any MCP error object) carries just a numeric code.
    expect(toErrorData(Object.assign(new Error('boom'), { code: -32603 }))).toEqual({
      code: 'protocol_error',
      message: 'boom',
      data: { rpcCode: -32603 },
    });
  });

  it('recovers a local code a JSON-RPC error carried over the wire (data.code)', () => {
    const relayed = new ProtocolError(-32001, 'timed out after 100 ms', { code: 'timeout', timeoutMs: 100 });
    expect(toErrorData(relayed)).toEqual({
      code: 'timeout',
      message: 'timed out after 100 ms',
      data: { rpcCode: -32001 },
    });
    const foreign = new ProtocolError(-32000, 'busy', { code: 'SOMETHING_ELSE' });
    expect(toErrorData(foreign).code).toBe('protocol_error');
  });

  it("gives the SDK's local errors, aborts and OAuth refusals a code of ours", () => {
    expect(toErrorData(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'))).toEqual({
      code: 'timeout',
      message: 'Request timed out',
    });
    expect(toErrorData(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed')).code).toBe(
      'backend_unavailable',
    );
    expect(toErrorData(new SdkError(SdkErrorCode.InvalidResult, 'bad result'))).toEqual({
      code: 'internal',
      message: 'bad result',
      data: { sdkCode: 'INVALID_RESULT' },
    });
    const aborted = new AbortController();
    aborted.abort();
    expect(toErrorData(aborted.signal.reason).code).toBe('cancelled');
    expect(toErrorData(new DOMException('The operation timed out.', 'TimeoutError')).code).toBe('timeout');
    expect(toErrorData(new UnauthorizedError('Unauthorized')).code).toBe('authorization_required');
  });

  it('makes everything else internal, keeping a foreign code as the cause', () => {
    expect(toErrorData(Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' }))).toEqual({
      code: 'internal',
      message: 'ENOENT: no such file',
      data: { cause: 'ENOENT' },
    });
    expect(toErrorData(Object.assign(new Error('queue is full'), { code: 'queue_full' }))).toEqual({
      code: 'queue_full',
      message: 'queue is full',
    });
    expect(toErrorData('a string')).toEqual({ code: 'internal', message: 'a string' });
    expect(toErrorData(new TypeError('x is undefined'))).toEqual({ code: 'internal', message: 'x is undefined' });
  });

  it('only ever yields codes of the closed set', () => {
    const thrown: unknown[] = [
      new Error('plain'),
      Object.assign(new Error('errno'), { code: 'EACCES' }),
      new ProtocolError(-32700, 'parse'),
      new SdkError(SdkErrorCode.EraNegotiationFailed, 'era'),
      null,
      42,
    ];
    for (const error of thrown) expect(isErrorCode(toErrorData(error).code)).toBe(true);
    expect(isErrorCode('ipc_failed')).toBe(true);
    expect(isErrorCode('needs_authorization')).toBe(false);
  });
});
