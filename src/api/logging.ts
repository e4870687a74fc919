import type { IncomingMessage } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';

const REDACTED = '[redacted]';

/** Headers that carry credentials, whatever their value looks like. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

/** Query parameters that carry credentials: link signatures (local and S3 presigned) and keys. */
const SECRET_PARAMS = new Set([
  'signature',
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
  'api_key',
  'apikey',
  'api-key',
  'key',
  'token',
  'access_token',
]);

/** An admin key in any text: `<prefix>_<43 base64url characters>` (a 256-bit secret). */
const KEY_SHAPED = /\b[a-z][a-z0-9]{1,30}_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;

/** Past this, a line's long strings and lists are shortened (a 500-path body once made one 300 KB line). */
const MAX_LINE_BYTES = 16 * 1024;
const MAX_STRING = 512;
const MAX_ITEMS = 20;

/** Replaces anything shaped like an admin key. */
export function redactKeys(text: string): string {
  return text.replace(KEY_SHAPED, REDACTED);
}

/**
 * A URL as it may be logged: the values of credential parameters replaced (their names compared
 * decoded, so `%73ignature` is `signature`), and anything shaped like a key.
 */
export function loggableUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return redactKeys(url);
  const pairs = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return SECRET_PARAMS.has(decodedName(name)) ? `${name}=${REDACTED}` : pair;
    });
  return redactKeys(`${url.slice(0, query)}?${pairs.join('&')}`);
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/** Request headers as they may be logged: credential headers replaced, key-shaped values too. */
export function loggableHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    out[name] = SECRET_HEADERS.has(name) ? REDACTED : shorten(redactKeys(text));
  }
  return out;
}

function shorten(text: string): string {
  return text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}… (${text.length} characters)` : text;
}

/** A log line within MAX_LINE_BYTES: long strings and lists of an oversized line are shortened. */
export function capLine(line: string): string {
  if (line.length <= MAX_LINE_BYTES) return line;
  try {
    const shrunk = `${JSON.stringify(shrink(JSON.parse(line)))}\n`;
    if (shrunk.length <= MAX_LINE_BYTES) return shrunk;
  } catch {
    // not JSON: cut below
  }
  return `${JSON.stringify({ msg: shorten(line), truncated: line.length })}\n`;
}

function shrink(value: unknown): unknown {
  if (typeof value === 'string') return shorten(value);
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ITEMS).map(shrink);
    return value.length > MAX_ITEMS ? [...kept, `… ${value.length - MAX_ITEMS} more`] : kept;
  }
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shrink(inner)]));
  return value;
}

/**
 * The server's pino logger. Credentials never reach the log (DESIGN.md): credential headers and
 * query parameters are redacted, anything shaped like an admin key in a URL or header too, and a
 * message or error that quotes one is cleaned the same way. No line is longer than 16 KiB.
 */
export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      serializers: {
        req: (req: IncomingMessage & { ip?: string }) => ({
          method: req.method,
          url: loggableUrl(req.url ?? ''),
          headers: loggableHeaders(req.headers),
          remoteAddress: req.ip ?? req.socket?.remoteAddress,
        }),
        err: pino.stdSerializers.err,
      },
      hooks: { streamWrite: (line) => capLine(redactKeys(line)) },
    },
    // Asynchronous writes to stdout: lines logged while a write is in flight go out together in
    // the next, so a busy server makes few writes and an idle one shows every line at once.
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
