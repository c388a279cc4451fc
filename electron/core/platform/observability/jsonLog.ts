/**
 * JSON log lines: one object per line (`time`, `level`, `msg`, the request id
 * of the request being handled when there is one, and any fields), for log
 * collectors. It writes through the writer it is given, which is the
 * process's redaction step, so a secret value never reaches a line whichever
 * field it hides in.
 */
import type { Logger } from '../deps.js';
import { currentRequestId } from './requestScope.js';

/** A log field's value. */
export type LogField = string | number | boolean | undefined;

/** A logger whose lines are JSON, and which takes fields besides the message. */
export interface JsonLog extends Logger {
  event(level: 'info' | 'warn' | 'error', message: string, fields: Record<string, LogField>): void;
}

/** A JSON logger writing one line per message to `write` (stderr through the redaction, in `serve`). */
export function jsonLog(write: (text: string) => void): JsonLog {
  const event: JsonLog['event'] = (level, message, fields) => {
    const requestId = currentRequestId();
    const line = {
      time: new Date().toISOString(),
      level,
      msg: message,
      ...(requestId === undefined ? {} : { requestId }),
      ...fields,
    };
    write(`${JSON.stringify(line)}\n`);
  };
  return {
    event,
    info: (message) => event('info', message, {}),
    warn: (message) => event('warn', message, {}),
    error: (message) => event('error', message, {}),
  };
}

/** Whether `logger` writes JSON lines (and takes fields). */
export function isJsonLog(logger: Logger): logger is JsonLog {
  return typeof (logger as Partial<JsonLog>).event === 'function';
}
