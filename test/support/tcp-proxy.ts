import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of a real server. `cut()` is the server going away as the client
 * sees it: open connections are reset and new ones refused. `restore()` brings it back on the
 * same port. It lets a test take "the database" down without stopping the PostgreSQL that other
 * suites share.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly target: { host: string; port: number },
    public port = 0,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await proxy.restore();
    return proxy;
  }

  async restore(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(this.target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.resetAndDestroy();
    await new Promise((resolve) => server?.close(resolve));
  }
}
