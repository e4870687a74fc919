import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on loopback in front of a server, to cut connections the way a network does:
 * `drop()` resets every open connection and refuses new ones until `restore()`.
 */
export class TcpProxy {
  readonly port: number;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private refusing = false;

  private constructor(server: Server, port: number) {
    this.server = server;
    this.port = port;
  }

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    let proxy: TcpProxy | undefined;
    const server = createServer((client) => {
      if (!proxy || proxy.refusing) {
        client.resetAndDestroy();
        return;
      }
      const upstream = connect(targetPort, targetHost);
      for (const socket of [client, upstream]) {
        proxy.sockets.add(socket);
        socket.on('close', () => proxy?.sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new TcpProxy(server, (server.address() as { port: number }).port);
    return proxy;
  }

  drop(): void {
    this.refusing = true;
    for (const socket of this.sockets) socket.resetAndDestroy();
  }

  restore(): void {
    this.refusing = false;
  }

  async stop(): Promise<void> {
    this.drop();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
