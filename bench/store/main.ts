// How much a kill -9 loses: starts a writer process on a fresh store, SIGKILLs it at a random
// moment (0.3 … 1.5 s into its writes), reopens the store and measures the loss window: how long
// before the kill the oldest lost record had been handed over (0 when nothing was lost). Also
// checks what survived is a gap-free prefix of what was handed over. 20 kills by default.
//
//   npm run bench:store [-- --kills N]
// Prints one line per kill, then p50 / p90 / p100 of the window; exits 1 if p100 > 1000 ms (the
// store's promise: "acknowledged records survive kill -9, losing at most the last second").
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../native-host/store/lmdb-store';
import { intValue, type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { runMain } from '../cli/run-main';
import { nearestRank } from '../engine/stats';

const PROMISE_MS = 1000;

interface Handover {
  seq: number;
  at: number;
}

async function killOnce(writer: string, dir: string, start: number, afterMs: number): Promise<{ handovers: Handover[]; killedAt: number }> {
  const child = spawn(process.execPath, [writer, dir, String(start)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const handovers: Handover[] = [];
  let buffered = '';
  let killedAt = NaN;
  let firstAt: number | undefined;
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const [seq, at] = buffered.slice(0, nl).split(' ').map(Number) as [number, number];
      buffered = buffered.slice(nl + 1);
      if (Number.isNaN(killedAt)) handovers.push({ seq, at });
      firstAt ??= Date.now();
      if (Number.isNaN(killedAt) && Date.now() - firstAt >= afterMs) {
        killedAt = Date.now();
        child.kill('SIGKILL');
      }
    }
  });
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.once('close', (_c, s) => resolve(s)));
  if (signal !== 'SIGKILL') throw new Error('the writer exited by itself');
  return { handovers, killedAt };
}

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/store-kill-loss.js [--kills N]',
  notes: [`How much a kill -9 of a writing process loses; exit status 1 if any loss window exceeds ${PROMISE_MS} ms.`],
  options: { kills: { type: 'string', value: 'N', help: 'writer processes to kill', default: '20' } },
};

async function main(argv: readonly string[]): Promise<number> {
  const args = benchCommandLine(argv, COMMAND);
  if (!args) return 0;
  const kills = intValue(args.values.kills, 'kills', 20, 1, 10_000, benchUsage);
  const writer = path.join(__dirname, 'store-writer.js');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'getlist-kill-bench-'));
  const dir = path.join(tmp, 'handshakes');
  const windows: number[] = [];
  let next = 0;
  try {
    for (let k = 0; k < kills; k++) {
      const afterMs = 300 + Math.round(Math.random() * 1200);
      const { handovers, killedAt } = await killOnce(writer, dir, next, afterMs);
      const store = await openStore({ dir, readOnly: true });
      const seqs: number[] = [];
      for await (const r of store.handshakes()) seqs.push(r.connectionId);
      await store.close();
      seqs.sort((a, b) => a - b);
      if (!seqs.every((s, j) => s === j)) throw new Error(`kill ${k + 1}: the store is not a gap-free prefix of what was handed over`);
      const kept = seqs.length;
      const firstLost = handovers.find((h) => h.seq >= kept);
      const window = firstLost ? killedAt - firstLost.at : 0;
      const handed = (handovers.at(-1)?.seq ?? next - 1) + 1;
      windows.push(window);
      console.log(`kill ${String(k + 1).padStart(2)}: after ${afterMs} ms, handed over ${handed - next}, lost ${handed - kept}, loss window ${window} ms`);
      next = kept;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const p100 = Math.max(...windows);
  console.log(`\nloss window over ${kills} kills (flush interval 250 ms): p50 ${nearestRank(windows, 0.5)} ms, p90 ${nearestRank(windows, 0.9)} ms, p100 ${p100} ms (promise: ≤ ${PROMISE_MS} ms) — ${p100 <= PROMISE_MS ? 'kept' : 'BROKEN'}`);
  return p100 <= PROMISE_MS ? 0 : 1;
}

runMain('store-kill-loss', () => main(process.argv.slice(2)));
