import type { Clock, Dispatch, OpenOptions, TransportPort } from '../../src/scheduler';

/** A manually advanced clock. */
export class FakeClock implements Clock {
  constructor(public t = 0) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface FakeConnection {
  id: number;
  origin: string;
  options: OpenOptions;
  closed: boolean;
}

/**
 * Records what the scheduler asks for; the test answers by calling the scheduler's callbacks.
 * No sockets: this is what lets the dispatch policy be tested in milliseconds.
 */
export class FakeTransport implements TransportPort {
  readonly opened: FakeConnection[] = [];
  readonly sent: Dispatch[] = [];
  readonly paused = new Set<number>();
  readonly pauseLog: Array<['pause' | 'resume', number]> = [];
  readonly closedByScheduler: number[] = [];
  readonly abandoned: number[] = [];

  openConnection(id: number, origin: string, options: OpenOptions): void {
    this.opened.push({ id, origin, options, closed: false });
  }
  send(dispatch: Dispatch): void {
    this.sent.push(dispatch);
  }
  pause(dispatchId: number): void {
    this.paused.add(dispatchId);
    this.pauseLog.push(['pause', dispatchId]);
  }
  resume(dispatchId: number): void {
    this.paused.delete(dispatchId);
    this.pauseLog.push(['resume', dispatchId]);
  }
  abandon(dispatchId: number): void {
    this.abandoned.push(dispatchId);
  }
  closeConnection(id: number): void {
    this.closedByScheduler.push(id);
    const c = this.opened.find((x) => x.id === id);
    if (c) c.closed = true;
  }

  /** Dispatches written on one connection, in order. */
  on(connectionId: number): Dispatch[] {
    return this.sent.filter((d) => d.connectionId === connectionId);
  }
  /** The latest dispatch for a URL path. */
  dispatchOf(path: string): Dispatch {
    const d = [...this.sent].reverse().find((x) => x.request.path === path);
    if (!d) throw new Error(`no dispatch for ${path}; sent: ${this.sent.map((x) => x.request.path).join(', ')}`);
    return d;
  }
  paths(): string[] {
    return this.sent.map((d) => d.request.path);
  }
}
