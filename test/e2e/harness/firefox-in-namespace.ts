/**
 * Firefox ESR started inside a link's client namespace and driven from this process.
 *
 * Chromium's CDP runs over pipes, which cross a namespace boundary; Firefox's WebDriver BiDi is a
 * WebSocket on the browser's loopback, which is the namespace's own and unreachable from outside
 * (bench/hints/firefox-driver.ts drives Firefox from a process inside instead). A Unix socket
 * lives in the file system, which namespaces share, so the socket crosses: the executable
 * puppeteer starts is a small bridge that runs Firefox under `ip netns exec`, waits for its "WebDriver
 * BiDi listening on ws://127.0.0.1:PORT" line, starts a relay inside the namespace from a Unix
 * socket to that port, listens on the same port of this namespace's loopback (Firefox checks the
 * port the handshake's Host header names), relays each connection to the Unix socket, and prints
 * the line again — the line puppeteer waits for.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BROWSERS } from './browsers';

/** Inside the namespace: `<sock> <port>`; relays the Unix socket to 127.0.0.1:port, says "ready", ends with its stdin. */
const INNER = String.raw`
const net = require('node:net');
const [sock, port] = process.argv.slice(2);
const server = net.createServer((c) => {
  const t = net.connect(Number(port), '127.0.0.1');
  c.pipe(t).pipe(c);
  c.on('error', () => t.destroy());
  t.on('error', () => c.destroy());
});
server.listen(sock, () => process.stdout.write('ready\n'));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

/** Outside: `<ns> <dir> <firefox> ...args`; the bridge described above. Exits with Firefox. */
const BRIDGE = String.raw`
const { spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');
const [inner, ns, dir, firefox, ...args] = process.argv.slice(2);
const ff = spawn('ip', ['netns', 'exec', ns, firefox, ...args], { stdio: ['ignore', 'inherit', 'pipe'] });
let relay;
const stop = () => { if (ff.exitCode === null && ff.signalCode === null) ff.kill('SIGKILL'); relay?.kill('SIGKILL'); };
process.on('SIGTERM', () => { stop(); process.exit(143); });
process.on('SIGINT', () => { stop(); process.exit(130); });
ff.on('exit', (code, signal) => { relay?.kill('SIGKILL'); process.exit(code ?? (signal ? 1 : 0)); });
let buf = '';
ff.stderr.on('data', (b) => {
  buf += b.toString();
  for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    const m = /^WebDriver BiDi listening on ws:\/\/[^:/]+:(\d+)$/.exec(line);
    if (m) bridge(Number(m[1]));
    else process.stderr.write(line + '\n');
  }
});
function bridge(port) {
  const sock = path.join(dir, 'bidi-' + process.pid + '.sock');
  relay = spawn('ip', ['netns', 'exec', ns, process.execPath, inner, sock, String(port)], { stdio: ['pipe', 'pipe', 'inherit'] });
  relay.stdout.once('data', () => {
    const server = net.createServer((c) => {
      const u = net.connect(sock);
      c.pipe(u).pipe(c);
      c.on('error', () => u.destroy());
      u.on('error', () => c.destroy());
    });
    // Firefox accepts a handshake only when its Host header names the port it listens on: the same
    // port here (this namespace's loopback is another one's, so the number is usually free).
    server.on('error', (e) => { process.stderr.write('bidi bridge: cannot listen on 127.0.0.1:' + port + ': ' + e.message + '\n'); stop(); process.exit(1); });
    server.listen(port, '127.0.0.1', () => process.stderr.write('WebDriver BiDi listening on ws://127.0.0.1:' + port + '\n'));
  });
}
`;

/**
 * Writes the bridge into `dir` and returns the executable to hand puppeteer (launchFirefox's
 * `executablePath`): Firefox ESR in `clientNs`, reachable from here.
 */
export function firefoxInNamespace(dir: string, clientNs: string): string {
  const inner = join(dir, 'bidi-relay.js');
  const bridge = join(dir, 'bidi-bridge.js');
  writeFileSync(inner, INNER);
  writeFileSync(bridge, BRIDGE);
  const wrapper = join(dir, 'firefox-in-netns.sh');
  writeFileSync(wrapper, `#!/bin/sh\nexec '${process.execPath}' '${bridge}' '${inner}' '${clientNs}' '${dir}' '${BROWSERS.firefox.executable}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}
