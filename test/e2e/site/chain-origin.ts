/**
 * An origin serving a page whose critical path is known: the document links `a.css`, which
 * `@import`s `b.css`, whose `@font-face` names `f.woff2`, used by the body's text. Each response is
 * small (one round trip, no rate limit matters), so the path costs one handshake and one round
 * trip per level. The server runs as its own Node process (in a link's server namespace), prints
 * `{"origin": …}` once it listens (bench/overhead/overhead-link-site.ts waits for it), and appends
 * one JSON line per request to a log file — `{"path", "at"}`, `at` in epoch ms when the request's
 * head arrived: the server's own account of when each level was asked for.
 */
export const CHAIN_PATHS = ['/chain.html', '/a.css', '/b.css', '/f.woff2'] as const;

const SERVER = String.raw`
const http = require('node:http');
const fs = require('node:fs');
const [logPath, hostPort] = process.argv.slice(1);
const [host, port] = hostPort.split(':');
const bodies = {
  '/chain.html': ['text/html; charset=utf-8', '<!doctype html><html><head><link rel="stylesheet" href="/a.css"></head><body><p>Where the time went.</p></body></html>'],
  '/a.css': ['text/css', '@import url("/b.css");\nbody { margin: 0; }\n'],
  '/b.css': ['text/css', '@font-face { font-family: Chain; src: url("/f.woff2") format("woff2"); }\nbody { font-family: Chain, sans-serif; }\n'],
  '/f.woff2': ['font/woff2', Buffer.alloc(2000, 7)],
};
const server = http.createServer((req, res) => {
  const at = Date.now();
  const path = req.url.split('?')[0];
  fs.appendFileSync(logPath, JSON.stringify({ path, at }) + '\n');
  const body = bodies[path];
  if (!body) { res.writeHead(404, { 'content-length': 0 }); res.end(); return; }
  res.writeHead(200, { 'content-type': body[0], 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body[1]) });
  res.end(body[1]);
});
// Any connection idle for a second closes — kept alive after a response, or opened ahead by the
// browser's predictor and never used — so a visit made later starts as cold as the first.
server.keepAliveTimeout = 1000;
server.on('connection', (socket) => socket.setTimeout(1000, () => socket.destroy()));
server.listen(Number(port), host, () => process.stdout.write(JSON.stringify({ origin: 'http://' + host + (port === '80' ? '' : ':' + port) }) + '\n'));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

/** The command that serves the chain on `host:port`, logging to `logPath`. */
export function chainServerCommand(logPath: string): (hostPort: string) => string[] {
  return (hostPort) => [process.execPath, '-e', SERVER, logPath, hostPort];
}

export interface ChainLogLine {
  path: string;
  at: number;
}
