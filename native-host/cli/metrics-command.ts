import { isIP } from 'node:net';
import { isCodedError } from '../../src/core/coded-error';
import { isHostName, isLoopbackAddress } from '../metrics/host-policy';
import { remoteRefusal, startMetricsServer, type MetricsServer } from '../metrics/metrics-server';
import { openStore } from '../store/lmdb-store';
import { boolFlag, intFlag, listFlag, noPositionals, parseArgs, stringFlag, type FlagSpec } from './args';
import { CliError } from './cli-error';
import { usageLine, type CommandHelp } from './command-help';
import type { CliIo } from './io';
import { parseTimeFlag } from './query-flags';
import { DATA_DIR_FLAG, storeDirFromArgs } from './store-access';

export const DEFAULT_METRICS_LISTEN = '127.0.0.1:9464';

/** After SIGTERM or SIGINT the process is gone within this long, whatever is still running. */
const SHUTDOWN_DEADLINE_MS = 900;

const FLAGS: Record<string, FlagSpec> = {
  listen: {
    type: 'string',
    value: 'HOST:PORT',
    description: "where to listen; port 0 picks a free one (9464 is Prometheus' port for exporters). Only a loopback address unless --allow-remote is given",
    default: DEFAULT_METRICS_LISTEN,
  },
  'allow-remote': {
    type: 'boolean',
    description: 'allow a --listen address other than loopback (0.0.0.0, a LAN address): the labels are the origins this browser visited, so anyone who can reach the port can read them; use it behind a firewall, for your own Prometheus',
  },
  'host-name': {
    type: 'string',
    value: 'NAME',
    repeatable: true,
    description: 'also answer requests whose Host is NAME (the name Prometheus scrapes, e.g. dev-box-1); repeatable. Other names get 421 and no data: that stops DNS rebinding pages',
    default: 'IP literals of the listening address, and localhost on loopback',
  },
  since: {
    type: 'string',
    value: 'AGE',
    description: 'only handshakes from the last AGE (30m, 12h, 7d, 2w), a window that moves with the clock',
    default: 'everything the store keeps, up to 90 days',
  },
  refresh: {
    type: 'string',
    value: 'MS',
    description: 'scrapes within MS of the last read of the store are served from it; concurrent scrapes always share one read, and a read takes only what was added since the last',
    default: '1000',
  },
  'data-dir': DATA_DIR_FLAG,
};

export const METRICS_HELP: CommandHelp = {
  synopsis: 'metrics',
  summary: 'serve the store live as Prometheus metrics and a JSON health',
  description:
    "Serves the store's handshake histograms live over HTTP while hosts write to it, until stopped (Ctrl-C or SIGTERM): " +
    'GET /metrics is the Prometheus text exposition (getlist_handshake_duration_seconds_bucket{phase,origin,protocol,tls,le}, ' +
    '_sum, _count), kept up to date by reading only what hosts added (a forget or a retention sweep rebuilds it); ' +
    'GET /health is a small JSON health (status, generation, handshakes, snapshotAgeMs, refreshMs). ' +
    "The labels name the origins this browser visited, so it listens on loopback only unless --allow-remote is given, " +
    'and answers only requests whose Host names it (421 otherwise: a page that rebinds its own DNS name to this address gets nothing).',
  flags: FLAGS,
};

export const METRICS_USAGE = usageLine(METRICS_HELP.synopsis, FLAGS);

export interface MetricsCommandDeps {
  /** Resolves when the server should stop. @default SIGINT or SIGTERM */
  stopped?: Promise<void>;
}

export async function metricsCommand(argv: readonly string[], io: CliIo, deps: MetricsCommandDeps = {}): Promise<number> {
  const args = parseArgs('metrics', argv, FLAGS);
  noPositionals(args, METRICS_USAGE);
  const { host, port } = parseListen(stringFlag(args, 'listen') ?? DEFAULT_METRICS_LISTEN);
  const allowRemote = boolFlag(args, 'allow-remote');
  const hostNames = listFlag(args, 'host-name');
  const badName = hostNames.find((n) => !isHostName(n));
  if (badName !== undefined) throw new CliError('E_USAGE', `--host-name: expected a DNS name like dev-box-1 or metrics.example.com (no port; IP literals are always answered), got ${JSON.stringify(badName)}`);
  const sinceFlag = stringFlag(args, 'since');
  if (sinceFlag !== undefined && !/^\d+(\.\d+)?[smhdw]$/.test(sinceFlag.trim())) throw new CliError('E_USAGE', `--since: expected an age like 30m, 12h, 7d; got ${JSON.stringify(sinceFlag)}`);
  const since = sinceFlag === undefined ? undefined : (now: number) => parseTimeFlag('since', sinceFlag, now);
  const maxAgeMs = intFlag(args, 'refresh', 1000, 0, 3_600_000);
  // A name is checked by the server once it is bound (to whatever the name resolved to).
  if (!allowRemote && isIP(host) !== 0 && !isLoopbackAddress(host)) throw new CliError('E_METRICS_REMOTE', `--listen ${remoteRefusal(host, port)}`);
  // Before anything is opened: the watchdog below must be able to end this process.
  const signalled = deps.stopped ?? untilSignal();
  const store = await openStore({ dir: storeDirFromArgs(args), readOnly: true });
  let server: MetricsServer;
  try {
    server = await startMetricsServer({ store, host, port, allowRemote, hostNames, maxAgeMs, ...(since ? { since } : {}), onError: (err) => io.err(`getlist metrics: ${describe(err)}\n`) });
  } catch (err) {
    await store.close().catch(() => undefined);
    if (isCodedError(err) && err.code === 'E_METRICS_REMOTE') throw new CliError('E_METRICS_REMOTE', `--listen ${err.message}`);
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new CliError('E_METRICS_LISTEN', `cannot listen on ${host}:${port} (${code}); choose another --listen`);
  }
  if (allowRemote && !isLoopbackAddress(server.address.address)) io.err(`getlist metrics: serving to the network on ${server.url}: anyone who can reach it can read the origins in the labels\n`);
  io.err(`getlist metrics: serving ${server.url}/metrics and ${server.url}/health from ${store.location}\n`);
  await signalled;
  if (deps.stopped === undefined) {
    setTimeout(() => {
      io.err('getlist metrics: E_METRICS_SHUTDOWN: still closing after a signal; exiting anyway\n');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
  }
  await server.close();
  await store.close().catch(() => undefined);
  return 0;
}

function describe(err: unknown): string {
  return isCodedError(err) ? `${err.code}: ${err.message}` : String(err);
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** `127.0.0.1:9464`, `[::1]:9464`, `localhost:0`. */
export function parseListen(value: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(value.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || !(port >= 0 && port <= 65535)) throw new CliError('E_USAGE', `--listen: expected HOST:PORT like ${DEFAULT_METRICS_LISTEN} or [::1]:9464, got ${JSON.stringify(value)}`);
  return { host: (m[1] ?? m[2]) as string, port };
}
