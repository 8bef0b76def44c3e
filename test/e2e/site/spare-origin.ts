/**
 * An origin for the backup-connection check: `/spares.html?load=N` names 12 images of 20 kB
 * (`/img/K.png?load=N`), more than the six connections Firefox opens to one origin, so requests
 * wait for connections and spares get handed some. The server runs as its own Node process (in a
 * link's server namespace), prints `{"origin": …}` once it listens
 * (bench/overhead/overhead-link-site.ts waits for it), and appends one JSON line per request to a
 * log file — `{"path", "port"}`, `port` the client's: the connection that carried it. A connection
 * idle for `SPARE_IDLE_MS` closes.
 */
export const SPARE_IMAGES = 12;
export const SPARE_IDLE_MS = 1000;

const SERVER = String.raw`
const http = require('node:http');
const fs = require('node:fs');
const [logPath, hostPort, images, idleMs] = process.argv.slice(1);
const [host, port] = hostPort.split(':');
const image = Buffer.alloc(20000, 7);
const server = http.createServer((req, res) => {
  fs.appendFileSync(logPath, JSON.stringify({ path: req.url, port: req.socket.remotePort }) + '\n');
  const [path, query] = req.url.split('?');
  if (path === '/spares.html') {
    const imgs = Array.from({ length: Number(images) }, (_, k) => '<img src="/img/' + k + '.png?' + query + '" width="16" height="16" alt="">').join('\n');
    const body = '<!doctype html><html><head><meta charset="utf-8"><title>spares</title><link rel="icon" href="data:,"></head><body>' + imgs + '</body></html>';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  if (path.startsWith('/img/')) {
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store', 'content-length': image.length });
    res.end(image);
    return;
  }
  res.writeHead(404, { 'content-length': 0 });
  res.end();
});
// A connection idle for a second closes, spares never used included, so each load starts cold.
server.keepAliveTimeout = Number(idleMs);
server.on('connection', (socket) => socket.setTimeout(Number(idleMs), () => socket.destroy()));
server.listen(Number(port), host, () => process.stdout.write(JSON.stringify({ origin: 'http://' + host + (port === '80' ? '' : ':' + port) }) + '\n'));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

/** The command that serves the page on `host:port`, logging to `logPath`. */
export function spareServerCommand(logPath: string): (hostPort: string) => string[] {
  return (hostPort) => [process.execPath, '-e', SERVER, logPath, hostPort, String(SPARE_IMAGES), String(SPARE_IDLE_MS)];
}

export interface SpareLogLine {
  path: string;
  port: number;
}
