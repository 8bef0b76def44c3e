/**
 * The helper run inside a namespace for the self-check: `node -e PROBE_PROGRAM '<json config>'`.
 * Plain CommonJS so it needs no build step. It writes JSON lines on stdout and always exits by its
 * own deadline; every loop is bounded by a count from the config.
 *
 * Modes:
 * - tcp-server {host, sendBytes}: prints {port}; each connection gets `sendBytes` zero bytes, then FIN
 *   (sendBytes 0: the connection is held open). Exits when stdin closes.
 * - udp-sink {host}: prints {port}; counts datagrams; on stdin close prints {received} and exits.
 * - connect {host, port, count, hold}: `count` sequential connects, prints {connectMs: [...]};
 *   with hold, keeps one more connection open until stdin closes.
 * - download {host, port}: reads to EOF, prints {bytes, firstChunkBytes, firstToLastMs}.
 * - udp-send {host, port, count, size, batch}: sends `count` datagrams, `batch` per ms, prints {sent, errors}.
 */
export const PROBE_PROGRAM = String.raw`
const net = require('node:net');
const dgram = require('node:dgram');
const cfg = JSON.parse(process.argv[1]);
const out = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
setTimeout(() => { out({ error: 'deadline' }); process.exit(3); }, cfg.deadlineMs);
const onStdinEnd = (fn) => { process.stdin.on('end', fn); process.stdin.on('close', fn); process.stdin.resume(); };

if (cfg.mode === 'tcp-server') {
  const payload = Buffer.alloc(cfg.sendBytes);
  const server = net.createServer((sock) => {
    sock.on('error', () => {});
    if (cfg.sendBytes > 0) sock.end(payload); else sock.resume();
  });
  server.listen(0, cfg.host, () => out({ port: server.address().port }));
  onStdinEnd(() => process.exit(0));
} else if (cfg.mode === 'udp-sink') {
  let received = 0;
  const sock = dgram.createSocket({ type: 'udp4', recvBufferSize: 8 << 20 });
  sock.on('message', () => { received++; });
  sock.bind(0, cfg.host, () => out({ port: sock.address().port }));
  onStdinEnd(() => { out({ received }); process.exit(0); });
} else if (cfg.mode === 'connect') {
  const connectMs = [];
  const once = () => new Promise((resolve, reject) => {
    const t0 = nowMs();
    const sock = net.connect({ host: cfg.host, port: cfg.port });
    sock.once('error', reject);
    sock.once('connect', () => resolve({ ms: nowMs() - t0, sock }));
  });
  (async () => {
    for (let i = 0; i < cfg.count; i++) {
      const { ms, sock } = await once();
      connectMs.push(ms);
      sock.destroy();
      await new Promise((r) => setTimeout(r, 10));
    }
    if (cfg.hold) await once();
    out({ connectMs });
    if (cfg.hold) onStdinEnd(() => process.exit(0)); else process.exit(0);
  })().catch((e) => { out({ error: String(e) }); process.exit(1); });
} else if (cfg.mode === 'download') {
  let bytes = 0, firstChunkBytes = 0, tFirst = 0, tLast = 0;
  const sock = net.connect({ host: cfg.host, port: cfg.port });
  sock.on('data', (chunk) => {
    const t = nowMs();
    if (bytes === 0) { tFirst = t; firstChunkBytes = chunk.length; }
    bytes += chunk.length; tLast = t;
  });
  sock.on('end', () => { out({ bytes, firstChunkBytes, firstToLastMs: tLast - tFirst }); process.exit(0); });
  sock.on('error', (e) => { out({ error: String(e) }); process.exit(1); });
} else if (cfg.mode === 'udp-send') {
  const sock = dgram.createSocket('udp4');
  const payload = Buffer.alloc(cfg.size);
  let issued = 0, sent = 0, errors = 0;
  const onSent = (err) => {
    if (err) errors++; else sent++;
    if (sent + errors === cfg.count) { out({ sent, errors }); process.exit(0); }
  };
  const tick = () => {
    for (let i = 0; i < cfg.batch && issued < cfg.count; i++, issued++) sock.send(payload, cfg.port, cfg.host, onSent);
    if (issued < cfg.count) setTimeout(tick, 1);
  };
  tick();
} else {
  out({ error: 'unknown mode ' + cfg.mode });
  process.exit(2);
}
`;
