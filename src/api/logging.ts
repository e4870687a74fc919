import type { IncomingMessage } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';

/** Query parameters that carry a link's credentials (local and S3 presigned links). */
const SECRET_QUERY = /([?&](?:signature|x-amz-signature|x-amz-credential|x-amz-security-token)=)[^&]*/gi;

/** A URL as it may be logged: link signatures replaced. */
export function loggableUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

/**
 * The server's pino logger. Admin keys and cookies are redacted from the request headers that are
 * logged, and link signatures from URLs: secrets never reach the log (DESIGN.md).
 */
export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
      serializers: {
        req: (req: IncomingMessage & { ip?: string }) => ({
          method: req.method,
          url: loggableUrl(req.url ?? ''),
          headers: req.headers,
          remoteAddress: req.ip ?? req.socket?.remoteAddress,
        }),
        err: pino.stdSerializers.err,
      },
    },
    // Asynchronous writes to stdout: lines logged while a write is in flight go out together in
    // the next, so a busy server makes few writes and an idle one shows every line at once.
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
