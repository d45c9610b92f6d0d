/**
 * Structured JSON logs, one object per line on stdout (CloudWatch keeps them as-is), written by
 * the Powertools logger (X-Ray trace id when tracing is on, JSON-safe errors, Lambda's log-level
 * controls). Callers must not pass secrets; as a second line of defence, the formatter replaces
 * fields whose names suggest a credential before anything is written.
 */
import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { LogFormatter, LogItem } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import type { LogLevel } from '../config/settings';
import type { LogFields, Logger } from '../core/ports';

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 50 };
const secretLike = /pass(word)?|secret|token|authorization|cookie|api_?key|^code$|code_verifier|private/i;

function redact(value: unknown, depth: number): unknown {
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = secretLike.test(key) ? '[redacted]' : redact(v, depth + 1);
  }
  return out;
}

/** The project's line shape (level, time, message, service, then the fields), redacted. */
export class RedactingLogFormatter extends LogFormatter {
  formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    return new LogItem({
      attributes: {
        level: attributes.logLevel.toLowerCase(),
        time: attributes.timestamp.toISOString(),
        message: attributes.message,
        service: attributes.serviceName,
        xray_trace_id: attributes.xRayTraceId,
        ...(redact(additional, 0) as LogAttributes),
      },
    });
  }
}

/**
 * A logger writing at `level` and above. `context` supplies the current request's fields
 * (lambdas/http/request-context.ts), added to every line; the fields a line passes win.
 */
export function createLogger(level: LogLevel, base: LogFields = {}, context: () => LogFields = () => ({})): Logger {
  const { service, ...persistentKeys } = base;
  // The level check is ours: Lambda's JSON log format sets AWS_LAMBDA_LOG_LEVEL (TRACE, lib/functions.ts),
  // which Powertools would otherwise put before LOG_LEVEL.
  const powertools = new PowertoolsLogger({
    serviceName: typeof service === 'string' ? service : 'authorization-server',
    logLevel: 'DEBUG',
    logFormatter: new RedactingLogFormatter(),
    persistentKeys: persistentKeys as LogAttributes,
  });
  const emit = (at: Exclude<LogLevel, 'silent'>, message: string, fields?: LogFields) => {
    if (order[at] < order[level]) return;
    powertools[at](message, { ...context(), ...fields } as LogAttributes);
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}
