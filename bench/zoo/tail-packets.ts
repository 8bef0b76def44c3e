/**
 * The packets of a traced load, as `tcpdump -tt -n -S` printed them on each side of the emulated
 * link, and the server segments held back until a packet from the client released them: the
 * signature of Nagle's algorithm (RFC 896; Linux's Minshall variant holds a partial segment while
 * an earlier partial one is unacknowledged) meeting the client's delayed ACK (RFC 9293 §3.8.6.3).
 */

export interface Packet {
  /** Seconds, as tcpdump's clock printed it. */
  t: number;
  src: string;
  dst: string;
  flags: string;
  /** Absolute sequence range of the payload ([seq, end)); end = seq when there is none. */
  seq: number | null;
  end: number | null;
  ack: number | null;
  len: number;
  /** A client's request as tcpdump's HTTP decoding printed it (`GET /path`), plain HTTP only. */
  request?: string;
}

const LINE = /^(\d+\.\d+) IP (\d+\.\d+\.\d+\.\d+\.\d+) > (\d+\.\d+\.\d+\.\d+\.\d+): Flags \[([^\]]*)\](?:, seq (\d+)(?::(\d+))?)?(?:, ack (\d+))?.*?, length (\d+)/;
const REQUEST = /: HTTP: ([A-Z]+) (\S+) HTTP\/1\.[01]$/;

/** Parses tcpdump's one-line TCP records; other lines are skipped. */
export function parseTcpdump(text: string): Packet[] {
  const out: Packet[] = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const seq = m[5] === undefined ? null : Number(m[5]);
    const request = REQUEST.exec(line);
    out.push({
      t: Number(m[1]), src: m[2] ?? '', dst: m[3] ?? '', flags: m[4] ?? '', seq,
      end: m[6] === undefined ? seq : Number(m[6]), ack: m[7] === undefined ? null : Number(m[7]), len: Number(m[8]),
      ...(request ? { request: `${request[1]} ${request[2]}` } : {}),
    });
  }
  return out;
}

/** One server segment sent after a gap in which the server had nothing else to send on its connection. */
export interface HeldSegment {
  /** The client's address:port. */
  connection: string;
  /** The connection's place in the capture, 1 for the first opened (by its first packet). */
  connectionOrder: number;
  /** ms from the capture's first packet to this segment's departure, on the server's clock. */
  atMs: number;
  /** ms since the previous data segment the server sent on this connection. */
  holdMs: number;
  len: number;
  /** Bytes the server had sent and not seen acknowledged when the held segment left. */
  unackedBefore: number;
  /** The client packet that reached the server just before the segment left, and how long before (ms). */
  releasedBy: { len: number; ack: number | null; leadMs: number } | null;
  /** At the client: ms from the arrival of the data that packet acknowledged to its sending (the ACK delay). */
  clientAckDelayMs: number | null;
  /** At the client: ms from the previous data segment's arrival to this one's (the tail as the client saw it). */
  clientGapMs: number | null;
}

const RELEASE_WINDOW_MS = 2;

/**
 * Server data segments that left `minGapMs` or more after the server's previous data segment on the
 * same connection while the connection was still sending a response (the first segment of a
 * response to a request that arrived in the gap is not held: it is excluded when a client data
 * packet, a request, arrived in the gap before any pure ACK released it).
 */
export function heldSegments(server: readonly Packet[], client: readonly Packet[], serverAddrPrefix: string, minGapMs = 10): HeldSegment[] {
  const held: HeldSegment[] = [];
  const fromServer = (p: Packet) => p.src.startsWith(serverAddrPrefix);
  const byConnection = new Map<string, Packet[]>();
  for (const p of server) {
    const key = fromServer(p) ? p.dst : p.src;
    byConnection.set(key, [...(byConnection.get(key) ?? []), p]);
  }
  const start = server[0]?.t ?? 0;
  const order = [...byConnection.keys()];
  for (const [connection, packets] of byConnection) {
    let lastData: Packet | undefined;
    let lastAck = 0;
    let lastFromClient: Packet | undefined;
    let requestInGap = false;
    for (const p of packets) {
      if (!fromServer(p)) {
        if (p.ack !== null) lastAck = Math.max(lastAck, p.ack);
        lastFromClient = p;
        if (p.len > 0) requestInGap = true;
        continue;
      }
      if (p.len === 0 || p.seq === null) continue;
      if (lastData && (p.t - lastData.t) * 1000 >= minGapMs && !requestInGap) {
        const leadMs = lastFromClient ? (p.t - lastFromClient.t) * 1000 : Infinity;
        const releasedBy = lastFromClient && leadMs <= RELEASE_WINDOW_MS ? { len: lastFromClient.len, ack: lastFromClient.ack, leadMs } : null;
        held.push({
          connection, connectionOrder: order.indexOf(connection) + 1, atMs: (p.t - start) * 1000, holdMs: (p.t - lastData.t) * 1000, len: p.len, unackedBefore: Math.max(0, p.seq - lastAck), releasedBy,
          clientAckDelayMs: releasedBy ? clientAckDelay(client, connection, releasedBy) : null,
          clientGapMs: clientGap(client, connection, p.seq),
        });
      }
      lastData = p;
      requestInGap = false;
    }
  }
  return held;
}

function clientAckDelay(client: readonly Packet[], connection: string, releasedBy: { len: number; ack: number | null }): number | null {
  const sent = client.find((p) => p.src === connection && p.ack === releasedBy.ack && p.len === releasedBy.len);
  if (!sent || releasedBy.ack === null) return null;
  // The newest data that packet acknowledged: the last server segment ending at or before its ack.
  let arrived: Packet | undefined;
  for (const p of client) {
    if (p.t > sent.t) break;
    if (p.dst === connection && p.len > 0 && p.end !== null && p.end <= releasedBy.ack) arrived = p;
  }
  return arrived ? (sent.t - arrived.t) * 1000 : null;
}

function clientGap(client: readonly Packet[], connection: string, seq: number): number | null {
  let prev: Packet | undefined;
  for (const p of client) {
    if (p.dst !== connection || p.len === 0) continue;
    if (p.seq === seq) return prev ? (p.t - prev.t) * 1000 : null;
    prev = p;
  }
  return null;
}
