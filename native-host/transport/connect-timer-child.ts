/**
 * The program the connect timer runs in its child process (connect-timer.ts), as source for
 * `node -e`: a process whose event loop does nothing but connect, so the `connect` event of each
 * socket is dispatched the moment the kernel reports the handshake done.
 *
 * Messages in: `{ id, addresses, port }` (addresses the parent's connection gate already passed, in
 * the order to try them) and `{ cancel: id }`. Messages out: `{ ready: true }` once it listens,
 * then `{ id, tcpMs, remoteAddress }` with the connected socket attached (its descriptor passes to the parent, and this process closes its
 * copy once the parent has it), or `{ id, error: { code, message } }`.
 *
 * A message that cannot be sent means the parent is gone (it exited, or its channel closed before
 * this process saw the disconnect): this process exits quietly then, as on `disconnect`, instead
 * of dying of an unhandled EPIPE on the stderr it shares with the parent.
 *
 * The socket is paused before it connects, so Node never starts reading it here: nothing the
 * server sends can be consumed by this process before the parent owns the socket.
 * TCP runs from the first connection attempt (the SYN) to `connect`, as the in-process connector
 * and curl's `time_connect − time_namelookup` count it; with several addresses Node tries them in
 * turn (`autoSelectFamily`), failed attempts included.
 */
export const CONNECT_TIMER_CHILD_SOURCE = String.raw`
'use strict';
const net = require('node:net');
const open = new Map();
process.on('disconnect', () => process.exit(0));
const send = (msg, socket) => process.send(msg, socket, (err) => { if (err) process.exit(0); });
process.on('message', (m) => {
  if (m.cancel !== undefined) {
    const s = open.get(m.cancel);
    open.delete(m.cancel);
    if (s) s.destroy();
    return;
  }
  const list = m.addresses;
  const many = list.length > 1;
  const s = net.connect({
    host: many ? 'getlist.connect-timer' : list[0].address,
    port: m.port,
    autoSelectFamily: many,
    lookup: (_name, opts, cb) => (opts && opts.all ? cb(null, list) : cb(null, list[0].address, list[0].family)),
  });
  s.pause();
  open.set(m.id, s);
  let attemptAt;
  s.once('connectionAttempt', () => { attemptAt = performance.now(); });
  s.once('connect', () => {
    const tcpMs = performance.now() - (attemptAt === undefined ? performance.now() : attemptAt);
    open.delete(m.id);
    send({ id: m.id, tcpMs, remoteAddress: s.remoteAddress }, s);
  });
  s.once('error', (e) => {
    if (!open.delete(m.id)) return;
    send({ id: m.id, error: { code: e.code, message: e.message } });
  });
});
send({ ready: true });
`;
