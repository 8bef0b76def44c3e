/**
 * The headline figures of one page load under one strategy. Shared by the host protocol's replay
 * summaries, the CLI's run JSON, stored page summaries and the benchmarks, so they cannot drift.
 */
export interface LoadFigures {
  /** Load start to the last request done, ms. */
  totalMs: number;
  /** Mean time to first byte from when each request was known, ms. */
  meanTtfbMs: number;
  connectionsOpened: number;
  requestsPerConnection: number;
  bytes: number;
  errors: number;
}

/** Just the load figures of a larger record (a run, a summary), e.g. for a reply or JSON output. */
export function loadFigures(x: LoadFigures): LoadFigures {
  return {
    totalMs: x.totalMs,
    meanTtfbMs: x.meanTtfbMs,
    connectionsOpened: x.connectionsOpened,
    requestsPerConnection: x.requestsPerConnection,
    bytes: x.bytes,
    errors: x.errors,
  };
}
