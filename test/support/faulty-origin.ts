import net from 'node:net';

/** How long an out-of-order origin holds a lone request for a second one to answer with it. */
const OUT_OF_ORDER_HOLD_MS = 150;

/**
 * A page served by a raw `net` server that misbehaves the way real servers and middleboxes do.
 * Every resource has its own length and its own fill byte, so a body handed to the wrong request,
 * cut short or padded is visible in the bytes alone. The server logs every request it parsed (on
 * which connection, in which order), which is what the tests check the client against.
 */
export interface Resource {
  path: string;
  kind: 'stylesheet' | 'script' | 'image';
  contentType: string;
  body: Buffer;
}

/** What the server does wrong. Connection-wide faults apply to every response, document included. */
export interface Fault {
  /** Close each connection after this many responses (FIN after the last byte). */
  closeAfter?: number;
  /** …saying `Connection: close` on the last one. */
  announceClose?: boolean;
  /** Send `Keep-Alive: timeout=5, max=M` (M counting down) and close after `closeAfter` responses. */
  keepAliveMax?: boolean;
  /**
   * Close a connection idle this long after a response: a keep-alive timeout (nginx
   * `keepalive_timeout`, Apache `KeepAliveTimeout`) racing the next request. A new connection waits
   * for its first request, as every server does under a header timeout of seconds.
   */
  idleCloseMs?: number;
  /** Answer HTTP/1.0; with `keepAlive`, say `Connection: keep-alive` and keep it open. */
  http10?: { keepAlive: boolean };
  /** Interim responses before every final one. */
  interim?: Array<100 | 103>;
  /**
   * Answer requests that arrive together in reverse order. A lone request is held until a second
   * one arrives on its connection or `OUT_OF_ORDER_HOLD_MS` pass, so a pipelined pair is always
   * answered swapped, however late a loaded machine writes or reads its second request (a fixed
   * few-ms window let a pair split across two batches answer in order, and prove the origin).
   */
  outOfOrder?: boolean;
  /** Say `Connection: keep-alive` on every response, as nginx, Apache and Node do. */
  announceKeepAlive?: boolean;
  /**
   * Turn Nagle's algorithm off (nginx's `tcp_nodelay on`). Otherwise a short response (a HEAD's)
   * holds the next one until the client's delayed ACK, tens of ms on loopback.
   */
  noDelay?: boolean;
  /** One resource (`victim`) misbehaves like this. */
  victim?:
    | { kind: 'rst-after-headers'; always: boolean }
    | { kind: 'slow-headers' }
    | { kind: 'slow-body' }
    | { kind: 'endless-chunked' }
    | { kind: 'length-short-garbage' }
    | { kind: 'length-short-smuggled' }
    | { kind: 'length-long-hang' }
    | { kind: 'length-long-close' }
    | { kind: 'not-modified'; withBody: boolean }
    | { kind: 'huge-headers' };
}

export interface LoggedRequest {
  connection: number;
  index: number;
  method: string;
  path: string;
}

export interface FaultyOrigin {
  origin: string;
  documentPath: string;
  resources: Resource[];
  /** The misbehaving resource, when the fault has one. */
  victimPath: string | undefined;
  log: LoggedRequest[];
  /**
   * Gives every resource whose path matches `which` a new body of the same length (a new fill
   * byte), as a deploy between two visits would: only the bytes tell old from new.
   */
  change(which: (path: string) => boolean): void;
  close(): Promise<void>;
}

const KINDS: Array<Pick<Resource, 'kind' | 'contentType'> & { ext: string }> = [
  { kind: 'stylesheet', contentType: 'text/css', ext: 'css' },
  { kind: 'script', contentType: 'application/javascript', ext: 'js' },
  { kind: 'image', contentType: 'image/png', ext: 'png' },
  { kind: 'image', contentType: 'image/gif', ext: 'gif' },
];

/**
 * `count` resources, kinds in turn (`imagesOnly`: GIF images only, as on P&M's page), each with a
 * distinct length (1,000 + 613·i) and fill byte.
 */
export function makeResources(count: number, imagesOnly = false): Resource[] {
  const kinds = imagesOnly ? KINDS.slice(3) : KINDS;
  return Array.from({ length: count }, (_, i) => {
    const k = kinds[i % kinds.length] as (typeof KINDS)[number];
    // Fill bytes stay printable and free of CSS syntax: `url(` can never appear in a stylesheet.
    return { path: `/r/${i}.${k.ext}`, kind: k.kind, contentType: k.contentType, body: Buffer.alloc(1000 + 613 * i, 0x41 + i) };
  });
}

/**
 * The page: one tag per resource, and a `data:` icon so that no implicit `/favicon.ico` is asked
 * for (the suite counts every request the server sees against its own resource list).
 */
function documentFor(resources: Resource[]): Buffer {
  const tags = resources.map((r) =>
    r.kind === 'stylesheet' ? `<link rel="stylesheet" href="${r.path}">` : r.kind === 'script' ? `<script src="${r.path}"></script>` : `<img src="${r.path}" alt="">`);
  return Buffer.from(`<!doctype html><html><head><title>faulty</title><link rel="icon" href="data:,"></head><body>\n${tags.join('\n')}\n</body></html>\n`, 'latin1');
}

export async function startFaultyOrigin(fault: Fault, count = 12, victimIndex = 5, imagesOnly = false): Promise<FaultyOrigin> {
  const resources = makeResources(count, imagesOnly);
  const byPath = new Map(resources.map((r) => [r.path, r]));
  const documentPath = '/';
  const doc = documentFor(resources);
  const victimPath = fault.victim ? resources[victimIndex]?.path : undefined;
  const log: LoggedRequest[] = [];
  const sockets = new Set<net.Socket>();
  let victimHits = 0;
  let nextConn = 0;

  const server = net.createServer((socket) => {
    sockets.add(socket);
    if (fault.noDelay) socket.setNoDelay(true);
    const conn = nextConn++;
    const timers = new Set<NodeJS.Timeout>();
    const later = (ms: number, fn: () => void) => {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      timers.add(t);
    };
    socket.on('close', () => {
      sockets.delete(socket);
      for (const t of timers) clearTimeout(t);
    });
    socket.on('error', () => undefined);
    let buf = Buffer.alloc(0);
    let index = 0;
    let served = 0;
    let done = false;
    let idleTimer: NodeJS.Timeout | undefined;
    const pending: LoggedRequest[] = [];

    const armIdle = () => {
      if (fault.idleCloseMs === undefined) return;
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = setTimeout(() => socket.end(), fault.idleCloseMs);
      timers.add(idleTimer);
    };

    const head = (status: number, headers: Array<[string, string]>, reason = 'OK') => {
      const version = fault.http10 ? '1.0' : '1.1';
      return `HTTP/${version} ${status} ${reason}\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
    };

    /** Writes one response; returns false when the connection is finished after it. */
    const answer = (req: LoggedRequest): void => {
      if (done || socket.destroyed) return;
      served += 1;
      const isDoc = req.path === documentPath;
      const res = byPath.get(req.path);
      const body = isDoc ? doc : res ? res.body : Buffer.from('not found');
      const status = isDoc || res ? 200 : 404;
      const type = isDoc ? 'text/html; charset=utf-8' : res ? res.contentType : 'text/plain';
      const headers: Array<[string, string]> = [['Content-Type', type]];
      const last = fault.closeAfter !== undefined && served >= fault.closeAfter;
      if (fault.keepAliveMax && fault.closeAfter !== undefined) headers.push(['Keep-Alive', `timeout=5, max=${fault.closeAfter - served}`]);
      if (fault.http10?.keepAlive || (fault.announceKeepAlive && !last)) headers.push(['Connection', 'keep-alive']);
      if (last && fault.announceClose) headers.push(['Connection', 'close']);
      const interim = (fault.interim ?? []).map((s) => (s === 100 ? head(100, [], 'Continue') : head(103, [['Link', '</r/0.css>; rel=preload; as=style']], 'Early Hints'))).join('');
      if (req.path === victimPath && fault.victim) {
        victimHits += 1;
        if (misbehave(fault.victim, req, body, headers, interim)) return;
      }
      socket.write(Buffer.concat([Buffer.from(interim + head(status, [...headers, ['Content-Length', String(req.method === 'HEAD' ? body.length : body.length)]]), 'latin1'), req.method === 'HEAD' ? Buffer.alloc(0) : body]));
      const closeNow = last || (fault.http10 !== undefined && !fault.http10.keepAlive);
      if (closeNow) {
        done = true;
        socket.end();
      } else {
        armIdle();
      }
    };

    /** The victim's misbehaviour; true when it wrote (or will write) everything itself. */
    const misbehave = (v: NonNullable<Fault['victim']>, req: LoggedRequest, body: Buffer, headers: Array<[string, string]>, interim: string): boolean => {
      const h = (extra: Array<[string, string]>) => Buffer.from(interim + head(200, [...headers, ...extra]), 'latin1');
      switch (v.kind) {
        case 'rst-after-headers':
          if (!v.always && victimHits > 1) return false;
          done = true;
          socket.write(h([['Content-Length', String(body.length)]]), () => socket.resetAndDestroy());
          return true;
        case 'slow-headers': {
          done = true; // nothing after it is ever answered on this connection
          const text = h([['Content-Length', String(body.length)]]).toString('latin1');
          let i = 0;
          const drip = () => {
            if (socket.destroyed || i >= text.length - 2) return; // never the final CRLF
            socket.write(text[i++] as string);
            later(60, drip);
          };
          drip();
          return true;
        }
        case 'slow-body': {
          done = true;
          socket.write(h([['Content-Length', String(body.length)]]));
          let i = 0;
          const drip = () => {
            if (socket.destroyed || i >= body.length) return;
            socket.write(body.subarray(i, i + 1));
            i += 1;
            later(60, drip);
          };
          drip();
          return true;
        }
        case 'endless-chunked': {
          done = true;
          socket.write(h([['Transfer-Encoding', 'chunked']]));
          const drip = () => {
            if (socket.destroyed) return;
            socket.write(`a\r\n${'z'.repeat(10)}\r\n`);
            later(30, drip);
          };
          drip();
          return true;
        }
        case 'length-short-garbage':
          // Declares 100 bytes fewer than it sends: the rest is garbage where a response should start.
          socket.write(Buffer.concat([h([['Content-Length', String(body.length - 100)]]), body]));
          armIdle();
          return true;
        case 'length-short-smuggled': {
          // The body ends early and a complete extra response follows it (response splitting).
          const smuggled = Buffer.from(head(200, [['Content-Type', 'image/png'], ['Content-Length', '7']]) + 'SMUGGLE', 'latin1');
          socket.write(Buffer.concat([h([['Content-Length', String(body.length - 50)]]), body.subarray(0, body.length - 50), smuggled]));
          armIdle();
          return true;
        }
        case 'length-long-hang':
          done = true;
          socket.write(Buffer.concat([h([['Content-Length', String(body.length + 500)]]), body]));
          return true;
        case 'length-long-close':
          done = true;
          socket.write(Buffer.concat([h([['Content-Length', String(body.length + 500)]]), body]), () => socket.end());
          return true;
        case 'not-modified':
          socket.write(Buffer.concat([Buffer.from(interim + head(304, [['Content-Length', String(body.length)], ['ETag', '"v1"']], 'Not Modified'), 'latin1'), v.withBody ? body : Buffer.alloc(0)]));
          armIdle();
          return true;
        case 'huge-headers':
          socket.write(Buffer.concat([h([['X-Padding', 'p'.repeat(1024 * 1024)], ['Content-Length', String(body.length)]]), body]));
          armIdle();
          return true;
      }
    };

    let holdTimer: NodeJS.Timeout | undefined;
    const flush = () => {
      const batch = pending.splice(0);
      if (fault.outOfOrder) batch.reverse();
      for (const req of batch) answer(req);
    };

    socket.on('data', (chunk) => {
      if (idleTimer) clearTimeout(idleTimer);
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) break;
        const [line = ''] = buf.subarray(0, end).toString('latin1').split('\r\n');
        buf = buf.subarray(end + 4);
        const [method = '', path = ''] = line.split(' ');
        const req: LoggedRequest = { connection: conn, index: index++, method, path };
        log.push(req);
        if (done) continue;
        pending.push(req);
      }
      if (pending.length > 0 && !fault.outOfOrder) flush();
      else if (pending.length > 1) {
        // Out of order: a batch of two or more is answered backwards at once.
        if (holdTimer) clearTimeout(holdTimer);
        holdTimer = undefined;
        flush();
      } else if (pending.length === 1 && holdTimer === undefined) {
        holdTimer = setTimeout(() => {
          holdTimer = undefined;
          flush();
        }, OUT_OF_ORDER_HOLD_MS);
        timers.add(holdTimer);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    documentPath,
    resources,
    victimPath,
    log,
    change: (which) => {
      for (const r of resources) if (which(r.path)) r.body = Buffer.alloc(r.body.length, r.body[0] === undefined ? 0x61 : r.body[0] + 0x20);
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
