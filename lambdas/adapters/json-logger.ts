/**
 * Structured JSON logs, one object per line on stdout (CloudWatch keeps them as-is).
 * Callers must not pass secrets; as a second line of defence, fields whose names
 * suggest a credential are replaced before writing.
 */
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

export function createLogger(
  level: LogLevel,
  base: LogFields = {},
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Logger {
  const emit = (at: Exclude<LogLevel, 'silent'>, message: string, fields?: LogFields) => {
    if (order[at] < order[level]) return;
    const entry = { level: at, time: new Date().toISOString(), message, ...base, ...(redact(fields ?? {}, 0) as object) };
    write(JSON.stringify(entry));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}
