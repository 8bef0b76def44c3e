/** Server-side TCP state from `ss -tin`, for bench/trace.ts. */
export interface SsSample {
  tMs: number;
  /** Peer address:port → cwnd in segments, bytes acked, smoothed RTT ms. */
  sockets: Record<string, { cwnd: number; bytesAcked: number; rttMs: number }>;
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
    sockets[peer] = { cwnd: num(/\bcwnd:(\d+)/), bytesAcked: num(/\bbytes_acked:(\d+)/), rttMs: num(/\brtt:([\d.]+)/) };
  }
  return sockets;
}

