import { createServer, type Server } from 'node:net';

function listenOnZero(address: string): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, address, () => {
      const info = server.address();
      resolve({ server, port: typeof info === 'object' && info !== null ? info.port : 0 });
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Picks ports free on their address right now. Each picked port stays bound until `release()`, so
 * the ports of one set are distinct: a port closed at once can be handed out again by the next
 * bind to port 0, and two origins on one port would serve each other's paths as 404s. Another
 * process may still take a port between `release()` and the server's bind, so callers retry on
 * EADDRINUSE.
 */
export class PortPicker {
  private readonly held: Server[] = [];

  async pick(address: string): Promise<number> {
    const { server, port } = await listenOnZero(address);
    this.held.push(server);
    return port;
  }

  async release(): Promise<void> {
    await Promise.all(this.held.splice(0).map(close));
  }
}
