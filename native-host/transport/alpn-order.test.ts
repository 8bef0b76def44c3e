import { once } from 'node:events';
import { createServer, type Server } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { testCert } from '../../test/support/tls-cert';
import { sharedConnectTimer } from './connect-timer';
import { TimingConnector } from './timing-connector';

/**
 * A TLS server that answers the client's first ALPN protocol, as lighttpd's `mod_openssl` does
 * (RFC 7301 §3.2 leaves the choice to the server): what the connector offers, in its order, is
 * what the server records, and the protocol it picks is the one the handshake record names.
 */
async function firstProtocolServer(): Promise<{ server: Server; offered: string[][]; port: number }> {
  const offered: string[][] = [];
  const { key, cert } = testCert();
  const server = createServer({
    key, cert,
    ALPNCallback: ({ protocols }) => {
      offered.push(protocols);
      return protocols[0];
    },
  }, (s) => s.end());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, offered, port: (server.address() as AddressInfo).port };
}

/** What one connection offered the server, and the protocol its handshake record names. */
async function offer(allowH2: boolean, connectIn: 'timer' | 'loop'): Promise<{ offered: string[][]; protocol: string }> {
  const { server, offered, port } = await firstProtocolServer();
  try {
    // A connect asked before the timer's child is up is made in the loop: wait for it.
    if (connectIn === 'timer') expect(await sharedConnectTimer().warmUp()).toBe(true);
    const c = new TimingConnector({ allowH2, ca: testCert().cert, connectIn });
    const { socket, handshake } = await c.open(`https://127.0.0.1:${port}`, 1);
    socket.destroy();
    return { offered, protocol: handshake.protocol };
  } finally {
    server.close();
  }
}

describe('the ALPN offer', () => {
  // Both ways a connection is made: TCP in the connect timer's child, or in this loop.
  test.each(['timer', 'loop'] as const)('a connection that may speak h2 offers h2 first, and a server taking the client\'s first protocol answers h2 (TCP made in the %s)', async (connectIn) => {
    expect(await offer(true, connectIn)).toEqual({ offered: [['h2', 'http/1.1']], protocol: 'h2' });
  });

  test.each(['timer', 'loop'] as const)('a connection held to HTTP/1.1 offers only http/1.1 (TCP made in the %s)', async (connectIn) => {
    expect(await offer(false, connectIn)).toEqual({ offered: [['http/1.1']], protocol: 'http/1.1' });
  });
});
