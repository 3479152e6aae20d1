import { HostUnresolved } from './resolve-host.ts';

const DESCRIPTIONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed by the receiver while sending',
  HPE_INVALID_CONSTANT: 'the receiver did not answer in HTTP',
};

/**
 * What a failed attempt's log says about a network error: a description and its code, never the
 * error's own message, which names the address connected to (an internal one, for a name that
 * resolves there when private targets are allowed, must not reach the subscriber).
 */
export function networkErrorText(error: unknown): string {
  if (error instanceof HostUnresolved) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === undefined) return 'the connection failed';
  const description = DESCRIPTIONS[code] ?? (code.startsWith('ERR_TLS') || /CERT|SSL/.test(code) ? 'TLS failed' : 'the connection failed');
  return `${description} (${code})`;
}
