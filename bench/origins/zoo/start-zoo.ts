/**
 * Starts one zoo member serving the bench corpus, with the same face as the nginx origins
 * (`Origins`, ../start-origins.ts), so every bench and test that takes origins takes any member.
 * Each origin gets an HTTP listener and, where the member terminates TLS, an HTTPS one; a proxy
 * gets the zoo's nginx behind it, on the same addresses, on plain HTTP ports of its own.
 *
 * Ports: fixed ones (80/443 inside a link's namespace) are used as given, and the backend's are
 * fixed too (8080 up); with ports left 0 every port is picked free on this machine and the start
 * is retried when one is taken before the member binds it. Lifecycle as for the nginx origins: one
 * temp dir; `stop()`, a failed start and this process's exit stop the member and delete the dir.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docrootOf, writeDocroots, type Scheme } from '../docroot';
import { atExit } from '../../cli/exit-actions';
import { PortPicker } from '../free-port';
import { defaultSpawn, type SpawnFn } from '../nginx-process';
import { bindOrigin, validateBindings, type BoundOrigin, type LinkHosts, type OriginBinding } from '../origin-binding';
import { selectPages, servedFace } from '../served-pages';
import { OriginsError } from '../origins-errors';
import type { Origins } from '../start-origins';
import { makeTlsMaterial } from '../tls-material';
import { readZooAccessLog } from './zoo-access-log';
import { prepareZooMember } from './zoo-configs';
import { ZOO_INFO, type ZooMember } from './zoo-members';
import { killZooGroup, startZooProcesses, stopZooProcess, type ZooProcess } from './zoo-process';
import type { ZooConfigInput, ZooListener } from './zoo-types';

export interface StartZooOptions {
  member: ZooMember;
  bindings: readonly OriginBinding[];
  /** Bench corpus pages to serve; as for startOrigins. */
  pages?: readonly string[];
  /** @default 'address' */
  linkHosts?: LinkHosts;
  workDir?: string;
  spawn?: SpawnFn;
  /** @default 5 when ports are picked here */
  maxAttempts?: number;
  /** nginx's `tcp_nopush` (zoo-types.ts `ZooConfigInput.tcpNopush`). @default true, as Debian ships it */
  nginxTcpNopush?: boolean;
  /**
   * The member's keep-alive timeout in ms (zoo-types.ts `ZooConfigInput.keepaliveTimeoutMs`), for
   * the members whose configuration takes one in ms: nginx, Apache, Caddy, HAProxy. A proxy's backend
   * keeps Debian's. @default each member's own
   */
  keepaliveTimeoutMs?: number;
}

/** What the zoo adds to the nginx origins' face: which member, and what it offers. */
export interface ZooOrigins extends Origins {
  readonly member: ZooMember;
  /** The schemes it serves (`https` only where it terminates TLS). */
  readonly schemes: readonly Scheme[];
}

const BACKEND_BASE_PORT = 8080;

function pickPort(picker: PortPicker, address: string, fixed: number | undefined, fallback: number): Promise<number> {
  return fixed ? Promise.resolve(fallback) : picker.pick(address);
}

interface Layout {
  bound: BoundOrigin[];
  front: ZooListener[];
  backend: ZooListener[];
}

async function layout(o: StartZooOptions, www: string): Promise<Layout> {
  const picker = new PortPicker();
  try {
    return await layoutWith(picker, o, www);
  } finally {
    await picker.release();
  }
}

async function layoutWith(picker: PortPicker, o: StartZooOptions, www: string): Promise<Layout> {
  const info = ZOO_INFO[o.member];
  const bound: BoundOrigin[] = [];
  for (const b of o.bindings) {
    const httpPort = b.httpPort || await picker.pick(b.address);
    const httpsPort = info.tls ? (b.httpsPort || await picker.pick(b.address)) : 0;
    bound.push(bindOrigin({ ...b, httpPort, httpsPort }, o.linkHosts ?? 'address'));
  }
  const front: ZooListener[] = [];
  const backend: ZooListener[] = [];
  for (const [i, b] of bound.entries()) {
    const schemes: Scheme[] = info.tls ? ['http', 'https'] : ['http'];
    for (const [j, scheme] of schemes.entries()) {
      const root = docrootOf(www, scheme, b.origin);
      const port = scheme === 'http' ? b.httpPort : b.httpsPort;
      const fixed = o.bindings[i]?.httpPort;
      const backendPort = info.proxy ? await pickPort(picker, b.address, fixed, BACKEND_BASE_PORT + 2 * i + j) : undefined;
      front.push({ origin: b.origin, address: b.address, port, tls: scheme === 'https', root, ...(backendPort ? { backendPort } : {}) });
      if (backendPort) backend.push({ origin: b.origin, address: b.address, port: backendPort, tls: false, root });
    }
  }
  return { bound, front, backend };
}

/** Resolves once the file has not grown for `quietMs` (the member's flush period has passed with nothing new). */
async function logQuiet(path: string, quietMs: number): Promise<void> {
  const size = (): number => (existsSync(path) ? statSync(path).size : 0);
  let last = size();
  let since = Date.now();
  while (Date.now() - since < quietMs) {
    await new Promise((r) => setTimeout(r, 100));
    const now = size();
    if (now !== last) [last, since] = [now, Date.now()];
  }
}

export async function startZoo(o: StartZooOptions): Promise<ZooOrigins> {
  validateBindings(o.bindings);
  const info = ZOO_INFO[o.member];
  const spawn = o.spawn ?? defaultSpawn;
  const builds = selectPages(o.pages, new Set(o.bindings.map((b) => b.origin)));
  const autoPorts = o.bindings.some((b) => !b.httpPort || (info.tls && !b.httpsPort));
  const dir = mkdtempSync(join(o.workDir ?? tmpdir(), `getlist-zoo-${o.member}-`));
  chmodSync(dir, 0o755);
  let processes: ZooProcess[] = [];
  const dropExitAction = atExit(() => {
    for (const p of processes) killZooGroup(p);
    rmSync(dir, { recursive: true, force: true });
  });
  const forget = (): void => {
    dropExitAction();
    rmSync(dir, { recursive: true, force: true });
  };
  const stopAll = async (): Promise<void> => {
    for (const p of [...processes].reverse()) await stopZooProcess(p);
  };
  try {
    const names = [...new Set([...o.bindings.flatMap((b) => [b.origin, b.address]), 'localhost'])];
    const tls = makeTlsMaterial(dir, names);
    const www = join(dir, 'www');
    let l: Layout | undefined;
    let prepared: ReturnType<typeof prepareZooMember> | undefined;
    for (let attempt = 1; ; attempt++) {
      l = await layout(o, www);
      rmSync(www, { recursive: true, force: true });
      mkdirSync(www, { mode: 0o755 });
      writeDocroots(www, builds, new Map(l.bound.map((b) => [b.origin, b])));
      const input = (sub: string, listeners: ZooListener[], front: boolean): ZooConfigInput => {
        const d = join(dir, sub);
        rmSync(d, { recursive: true, force: true });
        mkdirSync(d, { recursive: true, mode: 0o755 });
        return {
          dir: d, listeners, certPath: tls.certPath, keyPath: tls.keyPath, accessLogPath: join(d, 'access.log'),
          ...(o.nginxTcpNopush === false ? { tcpNopush: false } : {}),
          ...(front && o.keepaliveTimeoutMs !== undefined ? { keepaliveTimeoutMs: o.keepaliveTimeoutMs } : {}),
        };
      };
      try {
        if (info.proxy) {
          const back = prepareZooMember('nginx', input('backend', l.backend, false));
          processes.push(...await startZooProcesses({ member: 'nginx (backend)', launches: back.launches, listeners: l.backend, spawn, errorLogPath: back.errorLogPath }));
        }
        prepared = prepareZooMember(o.member, input(o.member, l.front, true));
        processes.push(...await startZooProcesses({ member: o.member, launches: prepared.launches, listeners: l.front, spawn, errorLogPath: prepared.errorLogPath }));
        break;
      } catch (err) {
        await stopAll();
        processes = [];
        if (!(err instanceof OriginsError && err.code === 'E_PORT_IN_USE' && autoPorts && attempt < (o.maxAttempts ?? 5))) throw err;
      }
    }
    const { bound } = l;
    const { accessLogPath, errorLogPath, dialect } = prepared;
    const schemes: Scheme[] = info.tls ? ['http', 'https'] : ['http'];
    let stopping: Promise<void> | undefined;
    const face = servedFace(builds, bound, tls);
    return {
      member: o.member,
      schemes,
      ...face,
      pageUrl(name, scheme = 'https', origin) {
        if (!schemes.includes(scheme)) throw new OriginsError('E_ORIGIN_UNBOUND', `${o.member} serves no ${scheme} (it terminates no TLS)`);
        return face.pageUrl(name, scheme, origin);
      },
      dir,
      accessLogPath,
      errorLogPath,
      accessLog: () => readZooAccessLog(accessLogPath, dialect),
      ...(info.logFlushMs === undefined ? {} : { settleLog: () => logQuiet(accessLogPath, info.logFlushMs ?? 0) }),
      pid: processes[processes.length - 1]?.child.pid ?? 0,
      stop() {
        stopping ??= stopAll().finally(forget);
        return stopping;
      },
    };
  } catch (err) {
    await stopAll();
    forget();
    throw err;
  }
}
