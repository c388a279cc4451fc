/**
 * Parsing a call's params with its method's schema (shared/contractMethods.ts),
 * once, before the handler runs. A bad call is answered as data naming the
 * field: `policy.setBackend: profile: expected string, received number`, with
 * `data.path` (`profile`; `names.2` for an item of a list) and every issue.
 * Messages say what was expected, never the value given (it may be a secret).
 */
import type { z } from 'zod';
import type { MethodName } from '../../shared/contract.js';
import { METHODS } from '../../shared/contractMethods.js';
import { ErrorCode, type ErrorData, type Result } from '../../shared/errors.js';

/** One problem of a call's params. */
export interface ParamsIssue {
  /** The field, dotted (`entry`, `names.2`); empty for the params as a whole. */
  path: string;
  message: string;
}

/** zod's message without its generic prefix ("Invalid input: expected string, ..." -> "expected string, ..."). */
function messageOf(issue: z.core.$ZodIssue): string {
  return issue.message.replace(/^Invalid (input|option): /, '');
}

function issuesOf(error: z.ZodError): ParamsIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: messageOf(issue) }));
}

/** The params of a call to `method`, parsed; or the invalid_params error naming the first bad field. */
export function parseParams(method: MethodName, params: unknown): Result<unknown> {
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
    return {
      ok: false,
      error: { code: ErrorCode.InvalidParams, message: `${method}: params must be an object`, data: { path: '' } },
    };
  }
  const parsed = METHODS[method].params.safeParse(params);
  if (parsed.success) return { ok: true, result: parsed.data };
  const issues = issuesOf(parsed.error);
  const first = issues[0] ?? { path: '', message: 'invalid' };
  const error: ErrorData = {
    code: ErrorCode.InvalidParams,
    message: `${method}: ${first.path === '' ? 'params' : first.path}: ${first.message}`,
    data: { path: first.path, issues },
  };
  return { ok: false, error };
}
