import { pino, type Logger, type LoggerOptions } from 'pino';

/** Paths pino must never print: API keys, hashes, signing secrets, wherever they appear. */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-key"]',
  '*.apiKey',
  '*.api_key',
  '*.key',
  '*.secret',
  '*.keyHash',
  '*.key_hash',
  '*.secretHash',
  '*.secret_hash',
  '*.hashSecret',
  '*.signingSecret',
];

/** Builds the JSON logger; `destination` lets tests capture output. */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options: LoggerOptions = {
    level,
    base: { service: 'faithscreen' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}
