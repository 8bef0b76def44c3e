/**
 * Where a traced load waited on the client itself, read off the client's own capture (tcpdump on
 * the link's device in the client namespace stamps each packet as the client's kernel sends or
 * receives it), so no link or server time is in them:
 *
 * - start → first SYN: from the load's start (the run's `startedAt`) to its first connection attempt;
 * - connection up → document request: from the SYN-ACK of the document's connection to its `GET`;
 * - document bytes → first subresource request: from the last document segment that had arrived
 *   before it to the first request for anything else (the request cannot have needed later bytes);
 * - last byte → end: from the last response byte to arrive to the load's end (`startedAt + totalMs`).
 *
 * Plain HTTP only: requests are read from tcpdump's HTTP decoding (tail-packets.ts `request`).
 */
import { round } from '../engine/stats';
import type { Packet } from './tail-packets';

export interface ClientPhases {
  startToSynMs: number | null;
  upToDocumentRequestMs: number | null;
  documentToSubresourceMs: number | null;
  lastByteToEndMs: number | null;
}

/** The load's own clock: its start (epoch ms) and its length. */
export interface LoadSpan {
  startedAt: number;
  totalMs: number;
}

/**
 * The phases of one load whose document is `documentPath` (as requested). Client packets are
 * those whose source does not start with `serverAddrPrefix`. A phase the capture cannot show (no
 * document request, no subresource) is null.
 */
export function clientPhases(client: readonly Packet[], documentPath: string, serverAddrPrefix: string, load?: LoadSpan): ClientPhases {
  const fromServer = (p: Packet) => p.src.startsWith(serverAddrPrefix);
  const ms = (seconds: number) => seconds * 1000;
  const firstSyn = client.find((p) => !fromServer(p) && p.flags === 'S');
  const document = client.find((p) => !fromServer(p) && p.request === `GET ${documentPath}`);
  const up = document ? client.find((p) => fromServer(p) && p.dst === document.src && p.flags === 'S.') : undefined;
  const subresource = document ? client.find((p) => !fromServer(p) && p.request !== undefined && p.t >= document.t && p !== document) : undefined;
  const documentBytes = document && subresource
    ? client.filter((p) => fromServer(p) && p.dst === document.src && p.len > 0 && p.t > document.t && p.t <= subresource.t).pop()
    : undefined;
  const lastByte = client.filter((p) => fromServer(p) && p.len > 0).pop();
  return {
    startToSynMs: load && firstSyn ? round(ms(firstSyn.t) - load.startedAt, 1) : null,
    upToDocumentRequestMs: document && up ? round(ms(document.t - up.t), 1) : null,
    documentToSubresourceMs: subresource && documentBytes ? round(ms(subresource.t - documentBytes.t), 1) : null,
    lastByteToEndMs: load && lastByte ? round(load.startedAt + load.totalMs - ms(lastByte.t), 1) : null,
  };
}
