import { createServer } from 'node:net';

/**
 * A port free on `address` right now: listen on port 0, read the port, close. Another process may
 * take it before nginx binds it, so callers retry on EADDRINUSE.
 */
export function freePort(address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, address, () => {
      const info = server.address();
      const port = typeof info === 'object' && info !== null ? info.port : 0;
      server.close(() => resolve(port));
    });
  });
}
