import { pino, type Logger, type LoggerOptions } from 'pino';
import { prettyDestination } from './pretty-log.ts';

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
  '*.secretKey',
  '*.secretSealed',
  '*.secret_sealed',
  // The same names at the top level of a log call.
  'apiKey',
  'api_key',
  'secret',
  'keyHash',
  'key_hash',
  'secretHash',
  'secret_hash',
  'hashSecret',
  'signingSecret',
  'secretKey',
  'secretSealed',
  'secret_sealed',
];

/**
 * Builds the logger: JSON lines, or readable lines (platform/pretty-log.ts) when the destination
 * (stdout by default) is a terminal. `destination` lets tests capture output.
 */
export function createLogger(level: string, destination: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout): Logger {
  const options: LoggerOptions = {
    level,
    base: { service: 'faithscreen' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (destination.isTTY === true) return pino(options, prettyDestination(destination, !('NO_COLOR' in process.env)));
  return destination === process.stdout ? pino(options) : pino(options, destination);
}
