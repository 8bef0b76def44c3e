import { H2_STRATEGIES, H2_STREAM_CASES, runH2Stream } from '../support/h2-stream-cases';

/**
 * Against each HTTP/2 stream fault (test/support/h2-stream-cases.ts), a burst of requests to one
 * origin must arrive whole, each with its own bytes, none failed, within MAX_SENDS sends each, in
 * no more sessions than the case allows; the server's log must show every path answered, none more
 * often than it was sent. `RUNS` times per strategy, since where a fault falls among the streams is
 * timing; `bench/faults --faults h2` runs them hundreds of times.
 */
const RUNS = 8;

describe.each(H2_STREAM_CASES)('an HTTP/2 origin that $name', (c) => {
  test.each(H2_STRATEGIES)('%s: every request arrives once with its own bytes, none fails', async (name) => {
    for (let run = 0; run < RUNS; run++) {
      const o = await runH2Stream(name, c);
      expect({ wrong: o.wrongBodies, lost: o.lost, overSent: o.overSent, unanswered: o.unanswered }).toEqual({ wrong: [], lost: [], overSent: [], unanswered: [] });
      expect(o.sessions).toBeLessThanOrEqual(c.maxSessions);
    }
  }, 60_000);
});
