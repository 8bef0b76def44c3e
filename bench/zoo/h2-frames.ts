/**
 * HTTP/2 frames as tshark decodes them from a capture and its TLS key log, and the streams a server
 * held: a stream whose next frame from the server came `minHoldMs` or more after the one before it,
 * before the stream ended, with the client frame that went out last before it resumed.
 */

/** The tshark fields `parseTsharkFrames` reads, in order (`-T fields -e …`). */
export const TSHARK_H2_FIELDS = ['frame.time_relative', 'tcp.stream', 'ip.src', 'tcp.srcport', 'http2.type', 'http2.streamid', 'http2.length', 'http2.flags.end_stream'] as const;

export interface H2Frame {
  tMs: number;
  /** tshark's TCP connection index. */
  conn: number;
  fromServer: boolean;
  /** The server's address (whichever side sent it). */
  server: string;
  type: number;
  stream: number;
  length: number;
  endStream: boolean;
}

/** RFC 9113 §6 frame type names. */
const TYPE_NAMES = ['DATA', 'HEADERS', 'PRIORITY', 'RST_STREAM', 'SETTINGS', 'PUSH_PROMISE', 'PING', 'GOAWAY', 'WINDOW_UPDATE', 'CONTINUATION'];

export function frameTypeName(type: number): string {
  return TYPE_NAMES[type] ?? `type ${type}`;
}

/** A capture's HTTP/2 frames, and when its last packet of any kind was taken. */
export interface H2Capture {
  frames: H2Frame[];
  endMs: number;
}

/**
 * One line per packet; a packet that carries HTTP/2 has each field as a comma-separated list over
 * its frames (END_STREAM over its DATA and HEADERS frames only), others only a time. `serverPort`
 * tells the sides apart; the client's lines carry the server's address as `ip.src` only when it sent
 * them, so a connection's server address is taken from its server lines.
 */
export function parseTsharkFrames(text: string, serverPort = 443): H2Capture {
  const frames: H2Frame[] = [];
  const serverOf = new Map<number, string>();
  let endMs = 0;
  for (const line of text.split('\n')) {
    const f = line.split('\t');
    const tMs = Number(f[0]) * 1000;
    if (Number.isFinite(tMs)) endMs = Math.max(endMs, tMs);
    if (f.length < 7 || f[4] === '') continue;
    const conn = Number(f[1]);
    const fromServer = Number(f[3]) === serverPort;
    if (fromServer) serverOf.set(conn, f[2] as string);
    const list = (i: number) => (f[i] ?? '').split(',');
    const [types, streams, lengths, ends] = [list(4), list(5), list(6), list(7)];
    // Only DATA and HEADERS carry END_STREAM: the flags list has an entry for those alone.
    let flag = 0;
    types.forEach((t, i) => {
      const type = Number(t);
      const endStream = type === 0 || type === 1 ? ends[flag++] === '1' : false;
      frames.push({ tMs, conn, fromServer, server: '', type, stream: Number(streams[i] ?? 0), length: Number(lengths[i] ?? 0), endStream });
    });
  }
  for (const fr of frames) fr.server = serverOf.get(fr.conn) ?? '';
  return { frames, endMs };
}

export interface HeldStream {
  server: string;
  conn: number;
  stream: number;
  /** When the server's last frame before the hold arrived. */
  heldAtMs: number;
  /** DATA bytes of the stream before the hold. */
  bytesBefore: number;
  /** Until the server's next frame on the stream, or the capture's last packet when none came. */
  holdMs: number;
  resumed: boolean;
  /** A resumed hold: the client's last frame on the connection during it, and how long before the resumption it left. */
  lastClientFrame: { type: string; beforeResumeMs: number } | null;
}

export function heldStreams({ frames, endMs }: H2Capture, minHoldMs: number): HeldStream[] {
  const held: HeldStream[] = [];
  const key = (f: H2Frame) => `${f.conn}/${f.stream}`;
  const byStream = new Map<string, H2Frame[]>();
  for (const f of frames) {
    if (!f.fromServer || f.stream === 0 || (f.type !== 0 && f.type !== 1)) continue;
    const list = byStream.get(key(f));
    if (list) list.push(f);
    else byStream.set(key(f), [f]);
  }
  for (const list of byStream.values()) {
    let bytes = 0;
    for (let i = 0; i < list.length; i++) {
      const f = list[i] as H2Frame;
      if (f.type === 0) bytes += f.length;
      if (f.endStream) break;
      const next = list[i + 1];
      const until = next?.tMs ?? endMs;
      if (until - f.tMs < minHoldMs) continue;
      const client = next === undefined ? undefined : frames.filter((c) => !c.fromServer && c.conn === f.conn && c.tMs > f.tMs && c.tMs <= until).pop();
      held.push({
        server: f.server, conn: f.conn, stream: f.stream, heldAtMs: f.tMs, bytesBefore: bytes, holdMs: until - f.tMs, resumed: next !== undefined,
        lastClientFrame: client ? { type: frameTypeName(client.type), beforeResumeMs: until - client.tMs } : null,
      });
    }
  }
  return held.sort((a, b) => a.heldAtMs - b.heldAtMs);
}
