/**
 * Test helpers: a minimal HTTP/1.1 response parser for raw sockets (pipelining tests must see
 * the bytes exactly as sent, which node's http client would hide).
 */
import { connect, Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Parses as many complete Content-Length-framed responses as `buf` holds.
 * Returns them and the unconsumed remainder.
 */
export function parseResponses(buf: Buffer): { responses: RawResponse[]; rest: Buffer } {
  const responses: RawResponse[] = [];
  let rest = buf;
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) break;
    const lines = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const status = Number((lines[0] ?? '').split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 'NaN');
    if (!Number.isInteger(length)) throw new Error(`response without Content-Length: ${lines[0]}`);
    const bodyStart = headEnd + 4;
    if (rest.length < bodyStart + length) break;
    responses.push({ status, headers, body: rest.subarray(bodyStart, bodyStart + length) });
    rest = rest.subarray(bodyStart + length);
  }
  return { responses, rest };
}

/** Resolves with the first `count` responses read from `socket` (all data from now on). */
export function readResponses(socket: Socket, count: number): Promise<RawResponse[]> {
  return new Promise((resolve, reject) => {
    let buf: Buffer = Buffer.alloc(0);
    const got: RawResponse[] = [];
    const onData = (chunk: Buffer): void => {
      const parsed = parseResponses(Buffer.concat([buf, chunk]));
      got.push(...parsed.responses);
      buf = parsed.rest;
      if (got.length >= count) {
        socket.off('data', onData);
        resolve(got.slice(0, count));
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('close', () => reject(new Error(`socket closed after ${got.length}/${count} responses`)));
  });
}

export function getRequest(path: string, host = 'demo'): string {
  return `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
}

/** Connects and resolves once connected. */
export function connectRaw(port: number, host = '127.0.0.1'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host, noDelay: true }, () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}
