/**
 * The two contenders of the loopback throughput benchmark. Both issue the same request list to
 * the same server over the same number of HTTP/1.1 connections at the same pipelining depth, and
 * both consume bodies the same way (undici's dispatch-handler API, counting bytes, no copies):
 *
 * - `plainUndici`: N `Client`s, each `pipelining: depth`, requests assigned round-robin and all
 *   handed to undici up front: undici's own queueing and parser, nothing else.
 * - `plainUndiciPool`: undici's `Pool` of N connections at `pipelining: depth`, which hands each
 *   request to a connection with room as one frees. Per round the faster of the two plain
 *   contenders is the reference, so getlist is compared with undici at its best.
 * - `getlistRun`: the `getlist` strategy in a run set up as every run is (native-host/run/page-run.ts),
 *   driving `UndiciTransport` (one undici `Client` per connection, the scheduler deciding what is
 *   written where), all requests enqueued up front.
 *   Its extra cost is the scheduler plus the transport glue, which is what the goal bounds. The
 *   origin is remembered as pipelining-good (origin memory, as on a revisit): a list of images
 *   alone can never prove that a server keeps order (a swap of two images contradicts nothing),
 *   so a first contact would stay at the probe's depth 2 and the run would compare pipelining
 *   depths, not engines. Both contenders still connect cold.
 *
 * Request headers are identical (the transport's user-agent/accept/accept-encoding) and so are
 * the dispatch options (`blocking: false`, `reset: false`, `idempotent: true`, 30 s timeouts).
 * Timing covers connecting, the whole list, and the last body byte; it excludes building the URL
 * strings and closing the clients.
 */
import { Client, Pool, type Dispatcher } from 'undici';
import { strategy, type Strategy } from '../../src/scheduler';
import { InMemoryOriginMemory } from '../../src/origins/origin-memory';
import { runPage } from '../../native-host/run/page-run';

export interface ContenderRun {
  ms: number;
  requestsPerSec: number;
  bytes: number;
  errors: number;
  /** Connections the client side says it opened. */
  connections: number;
}

/** Same request headers as `UndiciTransport` sends, so both contenders put the same bytes on the wire. */
const HEADERS = { 'user-agent': 'getlist/0.1', accept: '*/*', 'accept-encoding': 'identity' };
const TIMEOUT_MS = 30_000;
/** A contender run that takes longer than this is a failure, not a measurement. */
const RUN_LIMIT_MS = 600_000;

const CLIENT_OPTIONS = { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000 };

/** Plain undici: `connections` clients at `pipelining: depth`, requests spread round-robin. */
export async function plainUndici(origin: string, paths: readonly string[], connections: number, depth: number): Promise<ContenderRun> {
  const clients = Array.from({ length: connections }, () => new Client(origin, { ...CLIENT_OPTIONS, pipelining: depth }));
  return dispatchAll(origin, paths, (i) => clients[i % connections] as Dispatcher, clients);
}

/**
 * Plain undici's own pool: one `Pool` of `connections` at `pipelining: depth`, every request handed
 * to it up front; the pool gives each to a connection with room as one frees, so a connection that
 * runs slow is not left holding a fixed share of the list (the round-robin contender's weakness).
 */
export async function plainUndiciPool(origin: string, paths: readonly string[], connections: number, depth: number): Promise<ContenderRun> {
  const pool = new Pool(origin, { ...CLIENT_OPTIONS, connections, pipelining: depth });
  return dispatchAll(origin, paths, () => pool, [pool]);
}

async function dispatchAll(
  origin: string, paths: readonly string[], pick: (i: number) => Dispatcher, owned: ReadonlyArray<Client | Pool>,
): Promise<ContenderRun> {
  let opened = 0;
  for (const c of owned) c.on('connect', () => { opened += 1; });
  let bytes = 0;
  let errors = 0;
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    let left = paths.length;
    const finished = () => {
      left -= 1;
      if (left === 0) resolve();
    };
    // One handler per request, as any caller that needs to know which response ended has.
    const handler = (): Dispatcher.DispatchHandler => {
      let got = 0;
      return {
        onRequestStart: () => undefined,
        onResponseStart: () => undefined,
        onResponseData: (_controller, chunk) => { got += chunk.length; },
        onResponseEnd: () => {
          bytes += got;
          finished();
        },
        onResponseError: () => {
          errors += 1;
          finished();
        },
      };
    };
    for (let i = 0; i < paths.length; i++) {
      pick(i).dispatch(
        { origin, path: paths[i] as string, method: 'GET', headers: HEADERS, blocking: false, reset: false, idempotent: true, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS },
        handler(),
      );
    }
  });
  const ms = performance.now() - t0;
  await Promise.all(owned.map((c) => c.close()));
  return { ms, requestsPerSec: (paths.length * 1000) / ms, bytes, errors, connections: opened };
}

/** The `getlist` strategy: a run (scheduler + `UndiciTransport`), every URL enqueued up front. */
export async function getlistRun(urls: readonly string[], s: Strategy = strategy('getlist')): Promise<ContenderRun> {
  const memory = new InMemoryOriginMemory();
  if (urls[0] !== undefined) memory.put({ origin: new URL(urls[0]).origin, pipelining: 'good', protocol: 'http/1.1' });
  const { ended, run } = await runPage(
    { url: urls[0] ?? '', strategy: s, transport: { requestTimeoutMs: TIMEOUT_MS }, timeoutMs: RUN_LIMIT_MS, memory },
    {
      kind: 'replay',
      start: (scheduler) => {
        for (const url of urls) scheduler.enqueue({ url, priority: 'image' });
      },
    },
  );
  if (ended !== 'idle') throw new Error(`the getlist contender did not finish ${urls.length} requests within ${RUN_LIMIT_MS} ms`);
  // From the session's start to the last request done: connecting, the whole list, the last body byte.
  const ms = run.totalMs;
  return { ms, requestsPerSec: (urls.length * 1000) / ms, bytes: run.bytes, errors: run.errors, connections: run.connectionsOpened };
}
