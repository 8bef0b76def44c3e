/**
 * Each loopback contender runs in a worker thread of its own: its own V8 isolate (JIT state,
 * inline caches, heap), so what one contender's runs teach the engine about shared code (undici's
 * parser, Node's streams) is never what the other's runs find. In one isolate getlist paid for what
 * plain undici's runs had left in that shared code, while plain undici measured the same either way
 * (bench/README.md, "The engine benchmark", has the figures): a penalty only for sharing the
 * process with the other contender, which no real getlist host pays.
 *
 * The worker is the bench bundle itself (`__filename`), started with `workerData.role`; the entry
 * point hands control to `serveContender` instead of running the benchmark.
 */
import { readFileSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { pipelineDepth, strategy } from '../../src/scheduler';
import { getlistRun, plainUndici, plainUndiciPool, type ContenderRun } from './loopback-contenders';

export type ContenderName = 'undici' | 'undici-pool' | 'getlist';

interface ContenderData {
  role: 'loopback-contender';
  who: ContenderName;
  origin: string;
  paths: string[];
}

/** One run as the worker measured it: the run and its own thread's CPU time (ms; undefined off Linux). */
export interface WorkerRun extends ContenderRun {
  cpuMs: number | undefined;
}

export interface ContenderWorker {
  run(): Promise<WorkerRun>;
  close(): Promise<void>;
}

/** True in a contender worker: the entry point must call `serveContender` and nothing else. */
export function isContenderWorker(): boolean {
  return !isMainThread && (workerData as Partial<ContenderData> | null)?.role === 'loopback-contender';
}

/** Starts `who`'s worker for this request list; each `run()` is one full run of the list. */
export function startContenderWorker(who: ContenderName, origin: string, paths: readonly string[]): ContenderWorker {
  const data: ContenderData = { role: 'loopback-contender', who, origin, paths: [...paths] };
  const worker = new Worker(__filename, { workerData: data });
  let failed: Error | undefined;
  worker.on('error', (err) => {
    failed = err;
  });
  return {
    run: () =>
      new Promise<WorkerRun>((resolve, reject) => {
        if (failed) {
          reject(failed);
          return;
        }
        const onError = (err: Error) => reject(err);
        worker.once('error', onError);
        worker.once('message', (m: WorkerRun | { error: string }) => {
          worker.off('error', onError);
          if ('error' in m) reject(new Error(`${who} contender: ${m.error}`));
          else resolve(m);
        });
        worker.postMessage('run');
      }),
    close: async () => {
      await worker.terminate();
    },
  };
}

/** The worker side: one run per message, measured on this thread. */
export function serveContender(): void {
  const data = workerData as ContenderData;
  const port = parentPort;
  if (!port) return;
  const s = strategy('getlist');
  const urls = data.paths.map((p) => `${data.origin}${p}`);
  port.on('message', () => {
    const cpu0 = threadCpuMs();
    const run =
      data.who === 'undici' ? plainUndici(data.origin, data.paths, s.connections.maxPerOrigin, pipelineDepth(s))
      : data.who === 'undici-pool' ? plainUndiciPool(data.origin, data.paths, s.connections.maxPerOrigin, pipelineDepth(s))
      : getlistRun(urls, s);
    run.then(
      (r) => {
        const cpu1 = threadCpuMs();
        port.postMessage({ ...r, cpuMs: cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0 } satisfies WorkerRun);
      },
      (err: unknown) => port.postMessage({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
    );
  });
}

/** CPU time (ms) of the calling thread, from the kernel's `schedstat` (ns); undefined off Linux. */
function threadCpuMs(): number | undefined {
  try {
    const ns = Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
    return Number.isFinite(ns) && ns > 0 ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}
