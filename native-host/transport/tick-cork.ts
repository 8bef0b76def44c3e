import type { Socket } from 'node:net';

/** A connection whose socket may be corked for the current tick. */
export interface Corkable {
  readonly socket: Socket;
  /** The socket is corked until this tick's requests are written. */
  corked: boolean;
}

/**
 * HTTP/1.1 requests written in one tick leave in one `writev`: the socket is corked at the first
 * and uncorked once the tick's work is done. A read often completes several pipelined responses
 * on one connection, each freeing a slot the scheduler refills at once; written one by one, each
 * request would cost a system call of its own, and the server a read of its own. Uncorking on
 * `nextTick`, not later, adds no wait: the requests leave before the event loop polls again, as
 * they would have.
 */
export class TickCork {
  private readonly corked: Corkable[] = [];

  /** Corks `conn`'s socket until the end of this tick (once: a corked one stays as it is). */
  cork(conn: Corkable): void {
    if (conn.corked) return;
    conn.corked = true;
    conn.socket.cork();
    this.corked.push(conn);
    if (this.corked.length === 1) process.nextTick(this.uncorkAll);
  }

  private readonly uncorkAll = (): void => {
    const list = this.corked;
    for (let i = 0; i < list.length; i++) {
      const conn = list[i] as Corkable;
      conn.corked = false;
      conn.socket.uncork();
    }
    list.length = 0;
  };
}
