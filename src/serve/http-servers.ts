import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The site's HTTP server: timeouts against slow clients, keep-alive for the rest. */
export function siteServer(handle: { handle: RequestListener }): Server {
  return createServer(
    { keepAliveTimeout: 5_000, requestTimeout: 30_000, headersTimeout: 20_000 },
    handle.handle,
  );
}

export function listen(server: Server, address: { host: string; port: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      const bound = server.address() as AddressInfo;
      const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
      resolve(`http://${host}:${bound.port}`);
    });
  });
}

/** Stops accepting connections, lets requests in flight finish (at most 10 s), then closes the rest. */
export async function close(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const deadline = setTimeout(() => server.closeAllConnections(), 10_000).unref();
  await closed;
  clearTimeout(deadline);
}
