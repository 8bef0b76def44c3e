/** Server-side TCP state from `ss -tin`, for bench/trace/main.ts. */
export interface SsSample {
  tMs: number;
  /** The client side's sockets, by peer (the server's address:port). */
  client?: Record<string, SsSocket>;
  /** Peer address:port → cwnd in segments, bytes acked, smoothed RTT ms. */
  sockets: Record<string, SsSocket>;
}

export interface SsSocket {
  cwnd: number;
  bytesAcked: number;
  rttMs: number;
  /** Segments retransmitted over the connection's life (`retrans:x/N`), 0 when ss prints none. */
  retransTotal: number;
  /** Segments sent and not yet acknowledged. */
  unacked: number;
  /** Payload bytes this side has sent on the connection (`bytes_sent`), 0 when ss prints none. */
  bytesSent: number;
}

/** Parses `ss -tin` output: a socket line (state, queues, local, peer) followed by an info line. */
export function parseSsTin(out: string): SsSample['sockets'] {
  const sockets: SsSample['sockets'] = {};
  const lines = out.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = lines[i]?.trim().split(/\s+/) ?? [];
    if (head[0] !== 'ESTAB') continue;
    const peer = head[4] ?? '?';
    const info = lines[i + 1] ?? '';
    const num = (re: RegExp): number => Number(re.exec(info)?.[1] ?? NaN);
    sockets[peer] = {
      cwnd: num(/\bcwnd:(\d+)/), bytesAcked: num(/\bbytes_acked:(\d+)/), rttMs: num(/\brtt:([\d.]+)/),
      retransTotal: Number(/\bretrans:\d+\/(\d+)/.exec(info)?.[1] ?? 0), unacked: Number(/\bunacked:(\d+)/.exec(info)?.[1] ?? 0),
      bytesSent: Number(/\bbytes_sent:(\d+)/.exec(info)?.[1] ?? 0),
    };
  }
  return sockets;
}

