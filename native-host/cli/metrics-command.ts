import { startMetricsServer } from '../metrics/metrics-server';
import { openStore } from '../store/lmdb-store';
import { parseArgs, stringFlag, type FlagSpec } from './args';
import { CliError } from './cli-error';
import { usageLine, type CommandHelp } from './command-help';
import type { CliIo } from './io';
import { parseTimeFlag } from './query-flags';
import { DATA_DIR_FLAG, storeDirFromArgs } from './store-access';

export const DEFAULT_METRICS_LISTEN = '127.0.0.1:9464';

const FLAGS: Record<string, FlagSpec> = {
  listen: {
    type: 'string',
    value: 'HOST:PORT',
    description: "where to listen; port 0 picks a free one (9464 is Prometheus' port for exporters; keep it on loopback unless a firewall guards it: origins are in the labels)",
    default: DEFAULT_METRICS_LISTEN,
  },
  since: {
    type: 'string',
    value: 'AGE',
    description: 'only handshakes from the last AGE (30m, 12h, 7d, 2w), a window that moves with each scrape',
    default: 'everything the store keeps, up to 90 days',
  },
  'data-dir': DATA_DIR_FLAG,
};

export const METRICS_HELP: CommandHelp = {
  synopsis: 'metrics',
  summary: 'serve the store live as Prometheus metrics and a JSON health',
  description:
    "Serves the store's handshake histograms live over HTTP while hosts write to it, until stopped (Ctrl-C or SIGTERM): " +
    'GET /metrics is the Prometheus text exposition (getlist_handshake_duration_seconds_bucket{phase,origin,protocol,tls,le}, ' +
    '_sum, _count), aggregated from the store at each scrape; GET /health is a small JSON health (status, store, generation, ' +
    'handshakes, scrapeMs).',
  flags: FLAGS,
};

export const METRICS_USAGE = usageLine(METRICS_HELP.synopsis, FLAGS);

export interface MetricsCommandDeps {
  /** Resolves when the server should stop. @default SIGINT or SIGTERM */
  stopped?: Promise<void>;
}

export async function metricsCommand(argv: readonly string[], io: CliIo, deps: MetricsCommandDeps = {}): Promise<number> {
  const args = parseArgs('metrics', argv, FLAGS);
  if (args.positionals.length > 0) throw new CliError('E_USAGE', `unexpected argument ${JSON.stringify(args.positionals[0])}\nusage: ${METRICS_USAGE}`);
  const { host, port } = parseListen(stringFlag(args, 'listen') ?? DEFAULT_METRICS_LISTEN);
  const sinceFlag = stringFlag(args, 'since');
  if (sinceFlag !== undefined && !/^\d+(\.\d+)?[smhdw]$/.test(sinceFlag.trim())) throw new CliError('E_USAGE', `--since: expected an age like 30m, 12h, 7d; got ${JSON.stringify(sinceFlag)}`);
  const since = sinceFlag === undefined ? undefined : () => parseTimeFlag('since', sinceFlag, Date.now());
  const store = await openStore({ dir: storeDirFromArgs(args), readOnly: true });
  let server;
  try {
    server = await startMetricsServer({ store, host, port, ...(since ? { since } : {}) });
  } catch (err) {
    await store.close().catch(() => undefined);
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new CliError('E_METRICS_LISTEN', `cannot listen on ${host}:${port} (${code}); choose another --listen`);
  }
  io.err(`getlist metrics: serving ${server.url}/metrics and ${server.url}/health from ${store.location}\n`);
  await (deps.stopped ?? untilSignal());
  await server.close();
  await store.close().catch(() => undefined);
  return 0;
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
