/**
 * What timing TCP connects in the connect timer's child costs, against connecting in this loop:
 * `rounds` rounds of `parallel` connections opening at once to a loopback server, through the
 * timing connector either way. Per connection: the time from asking to a usable socket
 * (`totalMs`, p50/p90) and CPU time, this process's and the child's (Linux `/proc/<pid>/stat`).
 * The loop is otherwise idle, so the figures are the mechanism's own; bench/README.md,
 * "Handshake fidelity", says what a busy loop adds.
 */
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { ConnectTimer } from '../../native-host/transport/connect-timer';
import { TimingConnector } from '../../native-host/transport/timing-connector';
import { median } from '../../src/stats/median';
import { nearestRank } from '../engine/stats';

export interface CostRow {
  mode: 'timer' | 'loop';
  parallel: number;
  connections: number;
  totalMs: { p50: number; p90: number };
  /** CPU µs per connection: this process, and the timer's child (0 in the loop). */
  cpuUs: { self: number; child: number };
}

/** utime + stime of a process, in µs (Linux: clock ticks of `/proc/<pid>/stat`, 100 per second). */
function processCpuUs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

export async function connectCost(rounds: number, parallels: readonly number[]): Promise<CostRow[]> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const timer = new ConnectTimer();
  const rows: CostRow[] = [];
  try {
    for (const parallel of parallels) {
      for (const mode of ['timer', 'loop'] as const) {
        const connector = new TimingConnector({ connectIn: mode }, undefined, undefined, () => timer);
        for (const { socket } of await Promise.all(Array.from({ length: parallel }, (_, i) => connector.open(origin, i)))) socket.destroy(); // warm
        const totals: number[] = [];
        const self0 = process.cpuUsage();
        const child0 = processCpuUs(timer.pid);
        for (let round = 0; round < rounds; round++) {
          const done = await Promise.all(Array.from({ length: parallel }, (_, i) => connector.open(origin, round * parallel + i)));
          for (const { socket, handshake } of done) {
            totals.push(handshake.totalMs);
            socket.destroy();
          }
        }
        const self = process.cpuUsage(self0);
        const n = rounds * parallel;
        rows.push({
          mode, parallel, connections: n,
          totalMs: { p50: median(totals), p90: nearestRank(totals, 0.9) },
          cpuUs: { self: (self.user + self.system) / n, child: mode === 'timer' ? (processCpuUs(timer.pid) - child0) / n : 0 },
        });
      }
    }
  } finally {
    timer.close();
    for (const s of sockets) s.destroy();
    server.close();
  }
  return rows;
}

export function formatCost(rows: readonly CostRow[]): string {
  const head = 'mode   at once  connections  total p50  total p90  CPU µs/conn (self + child)';
  const body = rows.map((r) => `${r.mode.padEnd(5)}  ${String(r.parallel).padStart(7)}  ${String(r.connections).padStart(11)}  ${r.totalMs.p50.toFixed(3).padStart(9)}  ${r.totalMs.p90.toFixed(3).padStart(9)}  ${(r.cpuUs.self + r.cpuUs.child).toFixed(0)} (${r.cpuUs.self.toFixed(0)} + ${r.cpuUs.child.toFixed(0)})`);
  return [head, ...body].join('\n');
}
