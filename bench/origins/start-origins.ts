/**
 * Real origin servers for the benchmarks: nginx (from Debian) serving the bench corpus, one
 * virtual host per named origin, HTTP/1.1 with persistent connections and pipelining on one port
 * and HTTPS (HTTP/2 and HTTP/1.1 by ALPN) on another, with a certificate made for this run.
 *
 * Lifecycle: everything lives in one temp dir; `stop()`, a failed start and the exit of this
 * process all stop nginx and delete that dir.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAccessLog, type AccessLogEntry } from './access-log';
import { writeDocroots, type Scheme } from './docroot';
import { atExit } from '../cli/exit-actions';
import { PortPicker } from './free-port';
import { renderNginxConfig, supportsHttp2Directive } from './nginx-config';
import { defaultSpawn, findNginx, killGroup, nginxVersion, startNginx, stopNginx, type NginxRun, type SpawnFn } from './nginx-process';
import { bindOrigin, validateBindings, type BoundOrigin, type LinkHosts, type OriginBinding } from './origin-binding';
import { selectPages, servedFace } from './served-pages';
import { OriginsError } from './origins-errors';
import { makeTlsMaterial } from './tls-material';

export type { OriginBinding, BoundOrigin, LinkHosts } from './origin-binding';
export type { AccessLogEntry } from './access-log';
export { spkiHash } from './tls-material';
export { netnsSpawn, type SpawnFn } from './nginx-process';
export { OriginsError, NGINX_INSTALL_HINT } from './origins-errors';

export interface StartOriginsOptions {
  /** One per origin: its name, the address it listens on, and its ports (0 = a free one). */
  bindings: readonly OriginBinding[];
  /**
   * Pages to serve, by bench corpus name. Single-origin pages go on every origin; a multi-origin
   * page needs all its origins bound (else `E_ORIGIN_UNBOUND`).
   * @default every page of BENCH_PAGE_NAMES whose origins are all bound
   */
  pages?: readonly string[];
  /** How page links name other origins. @default 'address' */
  linkHosts?: LinkHosts;
  /** Parent of the run's temp dir. @default os.tmpdir() */
  workDir?: string;
  /** How nginx is started, e.g. {@link netnsSpawn}('srv') to run it in a network namespace. @default child_process.spawn */
  spawn?: SpawnFn;
  /** @default nginx found on PATH or in /usr/sbin */
  nginxPath?: string;
  /** Extra names and addresses for the certificate's SAN list (the bindings' are always in). */
  extraCertNames?: readonly string[];
  /** Start attempts when automatically picked ports turn out taken. @default 5 */
  maxAttempts?: number;
  /** nginx's `keepalive_requests`: a test of a server closing at its budget sets a small one. @default 1000000 */
  keepaliveRequests?: number;
}

export interface Origins {
  readonly origins: readonly BoundOrigin[];
  /** Base URLs by origin name. */
  readonly urls: Readonly<Record<string, { readonly http: string; readonly https: string }>>;
  /** URL of a served page's document; single-origin pages default to the first binding. */
  pageUrl(page: string, scheme?: Scheme, origin?: string): string;
  /** PEM of the CA to trust (getlist `transport: { ca }`, Node `ca`). */
  readonly caPem: string;
  readonly caPath: string;
  /** Chromium: `--ignore-certificate-errors-spki-list=${spkiHash}`. */
  readonly spkiHash: string;
  readonly caSpkiHash: string;
  readonly dir: string;
  readonly accessLogPath: string;
  readonly errorLogPath: string;
  /** Every response logged so far, in log order. */
  accessLog(): AccessLogEntry[];
  /**
   * Resolves once every response sent so far is in the access log, for servers that write it late
   * (a zoo member that buffers it); absent, the log is written as each response is sent.
   */
  settleLog?(): Promise<void>;
  readonly pid: number;
  /** Stops nginx and deletes the run's files. Idempotent. */
  stop(): Promise<void>;
}

async function fixPorts(bindings: readonly OriginBinding[]): Promise<Array<OriginBinding & { httpPort: number; httpsPort: number }>> {
  const out: Array<OriginBinding & { httpPort: number; httpsPort: number }> = [];
  const picker = new PortPicker();
  try {
    for (const b of bindings) {
      try {
        out.push({ ...b, httpPort: b.httpPort || await picker.pick(b.address), httpsPort: b.httpsPort || await picker.pick(b.address) });
      } catch (err) {
        throw new OriginsError('E_BAD_BINDING', `${b.origin}: cannot pick a free port on ${b.address} (${(err as Error).message}); give httpPort and httpsPort for addresses outside this network namespace`);
      }
    }
  } finally {
    await picker.release();
  }
  return out;
}

export async function startOrigins(options: StartOriginsOptions): Promise<Origins> {
  validateBindings(options.bindings);
  const nginx = options.nginxPath ?? findNginx();
  const http2Directive = supportsHttp2Directive(nginxVersion(nginx));
  const linkHosts = options.linkHosts ?? 'address';
  const builds = selectPages(options.pages, new Set(options.bindings.map((b) => b.origin)));
  const autoPorts = options.bindings.some((b) => !b.httpPort || !b.httpsPort);
  const dir = mkdtempSync(join(options.workDir ?? tmpdir(), 'getlist-origins-'));
  // nginx workers run as an unprivileged user when the master is root: they must read the tree.
  chmodSync(dir, 0o755);
  let run: NginxRun | undefined;
  // nginx first, then its tree.
  const dropExitAction = atExit(() => {
    if (run?.child.pid !== undefined && run.child.exitCode === null) killGroup(run.child);
    rmSync(dir, { recursive: true, force: true });
  });
  const forget = (): void => {
    dropExitAction();
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const names = [...new Set([...options.bindings.flatMap((b) => [b.origin, b.address]), 'localhost', ...(options.extraCertNames ?? [])])];
    const tls = makeTlsMaterial(dir, names);
    const paths = { conf: join(dir, 'nginx.conf'), pid: join(dir, 'nginx.pid'), errorLog: join(dir, 'error.log'), accessLog: join(dir, 'access.log') };
    for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, 'temp', t), { recursive: true });
    let bound: BoundOrigin[] = [];
    const maxAttempts = autoPorts ? (options.maxAttempts ?? 5) : 1;
    for (let attempt = 1; ; attempt++) {
      bound = (await fixPorts(options.bindings)).map((b) => bindOrigin(b, linkHosts));
      const docroot = join(dir, 'www');
      rmSync(docroot, { recursive: true, force: true });
      mkdirSync(docroot, { mode: 0o755 });
      writeDocroots(docroot, builds, new Map(bound.map((b) => [b.origin, b])));
      writeFileSync(paths.conf, renderNginxConfig({ dir, docroot, origins: bound, certPath: tls.certPath, keyPath: tls.keyPath, http2Directive, ...(options.keepaliveRequests !== undefined ? { keepaliveRequests: options.keepaliveRequests } : {}) }));
      rmSync(paths.pid, { force: true });
      try {
        run = await startNginx({ nginx, confPath: paths.conf, pidPath: paths.pid, errorLogPath: paths.errorLog, prefix: dir, spawn: options.spawn ?? defaultSpawn });
        break;
      } catch (err) {
        // Another process took a port between freePort() and nginx's bind: pick again.
        if (!(err instanceof OriginsError && err.code === 'E_PORT_IN_USE' && attempt < maxAttempts)) throw err;
        rmSync(paths.errorLog, { force: true });
      }
    }
    const started = run;
    let stopping: Promise<void> | undefined;
    return {
      ...servedFace(builds, bound, tls),
      dir,
      accessLogPath: paths.accessLog,
      errorLogPath: paths.errorLog,
      accessLog: () => readAccessLog(paths.accessLog),
      pid: started.child.pid ?? 0,
      stop() {
        stopping ??= stopNginx(started).finally(forget);
        return stopping;
      },
    };
  } catch (err) {
    if (run !== undefined) await stopNginx(run);
    forget();
    throw err;
  }
}
