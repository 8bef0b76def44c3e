import { connectionsForPath, FlightRate } from './path-estimate';

/**
 * How many initial windows the client's own link takes at once, read off the load's first
 * response flight that says its rate: `2 × rate × rtt / initial window` (path-estimate.ts), the
 * budget for HTTP/2 windows opened for demand (h2-windows.ts).
 *
 * Why load-wide: every origin of a page reaches the client over the same access link. An extra
 * connection per h2 origin saves slow-start round trips where that link has room, and where it
 * has none each one takes a share of it from the connections that carry the page's critical
 * chain: on a capped link, windows opened per origin without this budget made the fonts at the end
 * of a page's style chain a round trip late, while on a far uncapped link the same windows were
 * worth several round trips (bench/README.md, "Real-shaped pages"; bench/results/raw/real-40-200ms-caps.json.gz).
 *
 * Any response's flight may be the one: the first whose rate is known decides. A flight measured
 * while other responses share the link reads low, which only opens fewer windows. HTTP/2 bodies
 * arrive as whole DATA frames (nginx's are several segments long), so a large first chunk says nothing about
 * the rate there: on h2 the rate is the frames after the first over the time they took.
 */
export class LoadPath {
  private readonly flights = new Map<number, { flight: FlightRate; rttMs: number }>();
  private decided: number | undefined;

  /** At most this many responses measured at once (the first ones of the load). */
  constructor(private readonly maxMeasured = 8) {}

  /**
   * `bytes` of response `id`'s body arrived at `now` over a path of round trip `rttMs` (`framed`:
   * an HTTP/2 stream). Returns true when this decided the load's windows.
   */
  add(id: number, bytes: number, now: number, rttMs: number | undefined, framed: boolean): boolean {
    if (this.decided !== undefined || rttMs === undefined || !(rttMs > 0)) return false;
    let m = this.flights.get(id);
    if (m === undefined) {
      if (this.flights.size >= this.maxMeasured) return false;
      m = { flight: new FlightRate(Math.max(20, rttMs / 2), undefined, framed ? Infinity : undefined), rttMs };
      this.flights.set(id, m);
    }
    m.flight.add(bytes, now);
    const rate = m.flight.estimate();
    if (rate === undefined) {
      // A flight too short to tell: the response's next flight (a round trip later) may.
      if (m.flight.done) this.flights.delete(id);
      return false;
    }
    this.decided = rate === Infinity ? Infinity : connectionsForPath(rate, m.rttMs, Number.MAX_SAFE_INTEGER);
    this.flights.clear();
    return true;
  }

  /** Response `id` ended: its flight, unfinished, says nothing more. */
  ended(id: number): void {
    this.flights.delete(id);
  }

  /** Initial windows the link takes at once (Infinity: too fast to tell); undefined until a flight said. */
  get windows(): number | undefined {
    return this.decided;
  }
}
