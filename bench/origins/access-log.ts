import { readFileSync } from 'node:fs';

/** One line of the origins' access log (format: nginx-config.ts ACCESS_LOG_FORMAT). */
export interface AccessLogEntry {
  /** Epoch seconds with millisecond resolution, when the response was logged. */
  readonly msec: number;
  readonly origin: string;
  readonly port: number;
  /** nginx's connection serial number: equal values are one TCP connection. */
  readonly connection: number;
  /** 1-based position of this request on its connection. */
  readonly connectionRequests: number;
  /** `HTTP/1.1`, `HTTP/2.0`. */
  readonly protocol: string;
  readonly status: number;
  readonly bytes: number;
  readonly requestTime: number;
  readonly method: string;
  readonly path: string;
}

const LINE = /^(\S+) (\S+) (\d+) (\d+) (\d+) (\S+) (\d{3}) (\d+) (\S+) "(\S+) ([^"]*)"$/;

export function parseAccessLog(text: string): AccessLogEntry[] {
  const entries: AccessLogEntry[] = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (m === null) continue;
    entries.push({
      msec: Number(m[1]), origin: m[2] ?? '', port: Number(m[3]), connection: Number(m[4]),
      connectionRequests: Number(m[5]), protocol: m[6] ?? '', status: Number(m[7]), bytes: Number(m[8]),
      requestTime: Number(m[9]), method: m[10] ?? '', path: m[11] ?? '',
    });
  }
  return entries;
}

/** The log so far; an absent log (no request yet) reads as empty. */
export function readAccessLog(file: string): AccessLogEntry[] {
  try {
    return parseAccessLog(readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}
