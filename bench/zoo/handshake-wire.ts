/**
 * Each TLS connection's handshake as the client's side of the link saw it, read from `tcpdump -n
 * -tt -r FILE` lines: when the client sent its SYN and ClientHello, when the server's first flight
 * arrived, and when the client answered it (its Finished) and sent its first request. The waits
 * between them say whose time a late handshake spent: the server's first flight arrives one round
 * trip after the ClientHello when the server and the link add nothing, and each of the client's
 * sends follows what it answers as soon as its process runs (bench/README.md, "What holds a
 * handshake").
 */

export interface WireHandshake {
  /** The client's port. */
  port: number;
  server: string;
  synMs: number;
  synAckMs: number | undefined;
  /** The client's first payload: its ClientHello. */
  clientHelloMs: number | undefined;
  /** The server's first payload: ServerHello to Finished in TLS 1.3. */
  serverFlightMs: number | undefined;
  /** The client's first payload after that flight: its Finished. */
  finishedMs: number | undefined;
  /** The client's next payload: its first request (on h2, the preface, SETTINGS and HEADERS). */
  requestMs: number | undefined;
}

/** What a handshake waited for, ms (undefined where the capture lacks a packet). */
export interface HandshakeWaits {
  /** SYN-ACK to ClientHello: the client starting TLS on the connected socket. */
  clientHelloAfterConnect: number | undefined;
  /** ClientHello to the server's flight, less the round trip: the server and the link. */
  serverBeyondRtt: number | undefined;
  /** Server's flight to the client's Finished: the client reading and answering it. */
  finishedAfterFlight: number | undefined;
  /** Finished to the first request: the client handing the connection over and writing on it. */
  requestAfterFinished: number | undefined;
}

const LINE = /^(\d+\.\d+) IP (\d+\.\d+\.\d+\.\d+)\.(\d+) > (\d+\.\d+\.\d+\.\d+)\.(\d+): Flags \[([^\]]*)\].*length (\d+)/;

/**
 * The TLS handshakes (server port 443) in a capture's lines, in SYN order, times in ms from the
 * first packet. `clientNet` tells the client's addresses (the link's client side, 198.18.0.0/16).
 */
export function handshakeWire(lines: readonly string[], clientNet = '198.18.'): WireHandshake[] {
  const conns = new Map<string, WireHandshake>();
  let t0: number | undefined;
  for (const line of lines) {
    const m = LINE.exec(line);
    if (!m) continue;
    const t = Number(m[1]) * 1000;
    t0 ??= t;
    const ms = t - t0;
    const fromClient = (m[2] as string).startsWith(clientNet);
    const [clientAddr, clientPort, server, serverPort] = fromClient ? [m[2], m[3], m[4], m[5]] : [m[4], m[5], m[2], m[3]];
    if (serverPort !== '443') continue;
    const key = `${clientAddr}:${clientPort}`;
    const flags = m[6] as string;
    const length = Number(m[7]);
    let c = conns.get(key);
    if (!c) {
      if (!(fromClient && flags === 'S')) continue; // a connection whose SYN the capture missed
      c = { port: Number(clientPort), server: server as string, synMs: ms, synAckMs: undefined, clientHelloMs: undefined, serverFlightMs: undefined, finishedMs: undefined, requestMs: undefined };
      conns.set(key, c);
      continue;
    }
    if (!fromClient && flags === 'S.') c.synAckMs ??= ms;
    if (length === 0) continue;
    if (!fromClient) {
      c.serverFlightMs ??= ms;
      continue;
    }
    if (c.clientHelloMs === undefined) c.clientHelloMs = ms;
    else if (c.serverFlightMs !== undefined && c.finishedMs === undefined) c.finishedMs = ms;
    else if (c.finishedMs !== undefined && c.requestMs === undefined) c.requestMs = ms;
  }
  return [...conns.values()];
}

const gap = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined || b === undefined ? undefined : Math.round((b - a) * 10) / 10);

export function handshakeWaits(h: WireHandshake, rttMs: number): HandshakeWaits {
  const flight = gap(h.clientHelloMs, h.serverFlightMs);
  return {
    clientHelloAfterConnect: gap(h.synAckMs, h.clientHelloMs),
    serverBeyondRtt: flight === undefined ? undefined : Math.round((flight - rttMs) * 10) / 10,
    finishedAfterFlight: gap(h.serverFlightMs, h.finishedMs),
    requestAfterFinished: gap(h.finishedMs, h.requestMs),
  };
}
