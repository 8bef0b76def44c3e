/**
 * Reads a member's access log into the origins' entries (../access-log.ts), so the benches and
 * tests read every member as they read nginx. Every member but Caddy writes the zoo's line
 * (zoo-log-format.ts); Caddy writes JSON. Connections are numbered in order of first appearance,
 * and each request's position on its connection is its order in the log (the order the member
 * finished them), since not every member can log it.
 */
import { readFileSync } from 'node:fs';
import type { AccessLogEntry } from '../access-log';

interface RawEntry {
  msec: number;
  origin: string;
  port: number;
  connection: string;
  protocol: string;
  status: number;
  bytes: number;
  method: string;
  path: string;
}

const LINE = /^(\S+) (\S+) (\S+) (\S+) (\S+) (\d{3}) (\S+) "(\S+) ([^"]*)"$/;

/** `HTTP/2`, `http/2`, `HTTP/2.0` → `HTTP/2.0`; `http/1.1` → `HTTP/1.1`, as nginx logs them. */
export function normalizeProtocol(p: string): string {
  const up = p.toUpperCase();
  return up === 'HTTP/2' ? 'HTTP/2.0' : up;
}

/** A number in a field, digits only (varnish's listener `p8080`); `-` or nothing is 0. */
const num = (s: string | undefined): number => Number((s ?? '').replace(/\D/g, '') || 0);

function zooLine(line: string): RawEntry | undefined {
  const m = LINE.exec(line.trim());
  if (m === null) return undefined;
  const path = m[9] ?? '';
  return {
    msec: Number(m[1]), origin: m[2] ?? '', port: num(m[3]), connection: m[4] ?? '', protocol: normalizeProtocol(m[5] ?? ''),
    status: Number(m[6]), bytes: num(m[7]), method: m[8] ?? '', path: path.startsWith('/') ? path : `/${path}`,
  };
}

interface CaddyLine {
  ts?: number;
  status?: number;
  size?: number;
  request?: { remote_port?: string; proto?: string; method?: string; host?: string; uri?: string };
}

function caddyLine(line: string): RawEntry | undefined {
  if (!line.startsWith('{')) return undefined;
  let j: CaddyLine;
  try {
    j = JSON.parse(line) as CaddyLine;
  } catch {
    return undefined;
  }
  const r = j.request;
  if (r === undefined || j.status === undefined) return undefined;
  const host = r.host ?? '';
  return {
    msec: j.ts ?? 0, origin: host.replace(/:\d+$/, ''), port: Number(/:(\d+)$/.exec(host)?.[1] ?? 0), connection: r.remote_port ?? '',
    protocol: normalizeProtocol(r.proto ?? ''), status: j.status, bytes: j.size ?? 0, method: r.method ?? '', path: (r.uri ?? '').split('?')[0] ?? '',
  };
}

export type ZooLogDialect = 'zoo' | 'caddy';

export function parseZooAccessLog(text: string, dialect: ZooLogDialect): AccessLogEntry[] {
  const parse = dialect === 'caddy' ? caddyLine : zooLine;
  const connections = new Map<string, { id: number; requests: number }>();
  const out: AccessLogEntry[] = [];
  for (const line of text.split('\n')) {
    const e = parse(line);
    // lighttpd logs each h2 connection's preface as a `PRI *` line: not a request.
    if (e === undefined || e.method === 'PRI') continue;
    let c = connections.get(e.connection);
    if (c === undefined) connections.set(e.connection, (c = { id: connections.size + 1, requests: 0 }));
    c.requests += 1;
    out.push({
      msec: e.msec, origin: e.origin, port: e.port, connection: c.id, connectionRequests: c.requests, protocol: e.protocol,
      status: e.status, bytes: e.bytes, requestTime: 0, method: e.method, path: e.path,
    });
  }
  return out;
}

export function readZooAccessLog(file: string, dialect: ZooLogDialect): AccessLogEntry[] {
  try {
    return parseZooAccessLog(readFileSync(file, 'utf8'), dialect);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}
