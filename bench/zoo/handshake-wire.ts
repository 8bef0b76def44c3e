/**
 * Each TLS connection's handshake as the client's side of the link saw it, read from its capture
 * (`tcpdump -r`, tail-packets.ts `parseTcpdump`): when the client sent its SYN and ClientHello, when the server's first flight
 * arrived, and when the client answered it (its Finished) and sent its first request. The waits
 * between them say whose time a late handshake spent: the server's first flight arrives one round
 * trip after the ClientHello when the server and the link add nothing, and each of the client's
 * sends follows what it answers as soon as its process runs (bench/README.md, "What holds a
 * handshake").
 */
import { round } from '../engine/stats';
import type { Packet } from './tail-packets';

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

/** Splits tcpdump's `address.port`. */
function endpoint(s: string): { address: string; port: string } {
  const dot = s.lastIndexOf('.');
  return { address: s.slice(0, dot), port: s.slice(dot + 1) };
}

/**
 * The TLS handshakes (server port 443) among a capture's packets (tail-packets.ts `parseTcpdump`),
 * in SYN order, times in ms from the first packet. `clientNet` tells the client's addresses (the
 * link's client side, 198.18.0.0/16).
 */
export function handshakeWire(packets: readonly Packet[], clientNet = '198.18.'): WireHandshake[] {
  const conns = new Map<string, WireHandshake>();
  const t0 = packets[0]?.t ?? 0;
  for (const p of packets) {
    const ms = (p.t - t0) * 1000;
    const fromClient = p.src.startsWith(clientNet);
    const [client, server] = fromClient ? [p.src, endpoint(p.dst)] : [p.dst, endpoint(p.src)];
    if (server.port !== '443') continue;
    let c = conns.get(client);
    if (!c) {
      if (!(fromClient && p.flags === 'S')) continue; // a connection whose SYN the capture missed
      c = { port: Number(endpoint(client).port), server: server.address, synMs: ms, synAckMs: undefined, clientHelloMs: undefined, serverFlightMs: undefined, finishedMs: undefined, requestMs: undefined };
      conns.set(client, c);
      continue;
    }
    if (!fromClient && p.flags === 'S.') c.synAckMs ??= ms;
    if (p.len === 0) continue;
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

const gap = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined || b === undefined ? undefined : round(b - a, 1));

export function handshakeWaits(h: WireHandshake, rttMs: number): HandshakeWaits {
  const flight = gap(h.clientHelloMs, h.serverFlightMs);
  return {
    clientHelloAfterConnect: gap(h.synAckMs, h.clientHelloMs),
    serverBeyondRtt: flight === undefined ? undefined : round(flight - rttMs, 1),
    finishedAfterFlight: gap(h.serverFlightMs, h.finishedMs),
    requestAfterFinished: gap(h.finishedMs, h.requestMs),
  };
}
