import type { Socket } from 'node:net';

interface Warm {
  socket: Socket;
  timer: NodeJS.Timeout;
}

/**
 * Connections the host opened while measuring, kept open for a while so that another page on the
 * same origin finds the origin warm, as a browser's connection pool would. One per origin; an idle
 * connection is closed after `idleMs`, and the oldest goes first when there are more than `max`.
 */
export class WarmConnections {
  private readonly byOrigin = new Map<string, Warm>();

  constructor(
    /** @default 30000 */
    private readonly idleMs = 30_000,
    /** @default 256 */
    private readonly max = 256,
  ) {}

  /** A live connection to this origin is held. */
  has(origin: string): boolean {
    const w = this.byOrigin.get(origin);
    return w !== undefined && !w.socket.destroyed;
  }

  get size(): number {
    return this.byOrigin.size;
  }

  /** Keeps a connection; returns false (and closes it) when one to its origin is already held. */
  add(origin: string, socket: Socket): boolean {
    if (this.has(origin)) {
      socket.destroy();
      return false;
    }
    socket.on('error', () => undefined); // a reset while idle only means the origin is cold again
    const timer = setTimeout(() => socket.destroy(), this.idleMs);
    timer.unref();
    const w: Warm = { socket, timer };
    socket.once('close', () => {
      clearTimeout(timer);
      if (this.byOrigin.get(origin) === w) this.byOrigin.delete(origin);
    });
    this.byOrigin.set(origin, w);
    while (this.byOrigin.size > this.max) {
      const oldest = this.byOrigin.entries().next();
      if (oldest.done) break;
      this.byOrigin.delete(oldest.value[0]);
      clearTimeout(oldest.value[1].timer);
      oldest.value[1].socket.destroy();
    }
    return true;
  }

  /** Closes every held connection; resolves when all of them have closed. */
  async closeAll(): Promise<void> {
    const all = [...this.byOrigin.values()];
    this.byOrigin.clear();
    await Promise.all(
      all.map(({ socket, timer }) => {
        clearTimeout(timer);
        if (socket.closed) return undefined;
        return new Promise<void>((resolve) => {
          socket.once('close', () => resolve());
          socket.destroy();
        });
      }),
    );
  }
}
