/**
 * Readable log lines for a terminal: `12:04:05 INFO  API listening  url=http://127.0.0.1:8080`.
 * The input is pino's JSON line, already redacted, so nothing secret can reach the screen that
 * would not reach a log file. Used when stdout is a TTY; pipes and files keep JSON lines.
 */
const LEVELS: Record<number, { name: string; color: string }> = {
  10: { name: 'TRACE', color: '90' },
  20: { name: 'DEBUG', color: '36' },
  30: { name: 'INFO ', color: '32' },
  40: { name: 'WARN ', color: '33' },
  50: { name: 'ERROR', color: '31' },
  60: { name: 'FATAL', color: '35' },
};
// Fields every line has, or that the line's head already shows.
const HIDDEN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'service', 'err']);

function paint(text: string, code: string, colors: boolean): string {
  return colors ? `\u001b[${code}m${text}\u001b[0m` : text;
}

function show(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  return JSON.stringify(value);
}

/** One pino JSON line as one readable line (plus an error's stack, indented); other text passes through. */
export function formatLogLine(line: string, colors: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const level = LEVELS[Number(entry.level)] ?? { name: String(entry.level).toUpperCase().padEnd(5), color: '0' };
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 19) : new Date(Number(entry.time)).toISOString().slice(11, 19);
  const fields = Object.entries(entry)
    .filter(([name, value]) => !HIDDEN.has(name) && value !== undefined)
    .map(([name, value]) => `${paint(name, '90', colors)}=${show(value)}`);
  const head = `${paint(time, '90', colors)} ${paint(level.name, level.color, colors)} ${String(entry.msg ?? '')}`;
  let text = fields.length > 0 ? `${head}  ${fields.join(' ')}` : head;
  const err = entry.err as { message?: string; stack?: string } | undefined;
  if (err) text += `\n${(err.stack ?? err.message ?? JSON.stringify(err)).replace(/^/gm, '    ')}`;
  return `${text}\n`;
}

/** A pino destination that writes readable lines to `out`. */
export function prettyDestination(out: NodeJS.WritableStream, colors: boolean): { write(chunk: string): boolean } {
  return {
    write: (chunk: string) =>
      out.write(
        chunk
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => formatLogLine(line, colors))
          .join(''),
      ),
  };
}
