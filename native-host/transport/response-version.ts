import type { Socket } from 'node:net';

/**
 * undici does not tell a handler which HTTP version a response used, but pipelining health needs
 * to know when a server answers HTTP/1.0. The first bytes a connection receives are the first
 * response's status line, and a server answers every response on a connection with the same
 * version, so reading `HTTP/1.x` off the first chunk is enough.
 *
 * Must be attached AFTER undici's `readable` listener: with a `readable` listener present, a
 * `data` listener does not switch the socket to flowing mode; it sees each chunk undici reads.
 */
export function watchFirstStatusLine(socket: Socket, onVersion: (version: string) => void): void {
  const onData = (chunk: Buffer) => {
    socket.off('data', onData);
    const head = chunk.subarray(0, 9).toString('latin1');
    const m = /^HTTP\/(\d\.\d) /.exec(head);
    if (m && m[1]) onVersion(m[1]);
  };
  socket.on('data', onData);
}
