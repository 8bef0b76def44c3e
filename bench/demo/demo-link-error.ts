import { CodedError } from '../../src/core/coded-error';

/**
 * Stable codes of `dist/bench/demo-link.js` beyond those it shares with the benchmark
 * (`E_BENCH_USAGE`, `E_BENCH_UNKNOWN_LINK`, `E_RUN_FAILED`, `E_RUN_TIMEOUT`, `E_RUN_BAD_OUTPUT`
 * from bench/cli/bench-run-error.ts, and the `E_LINK_*` codes of bench/link/link-error.ts).
 *
 * - `E_DEMO_SERVER`: the demo server in the server namespace did not start, or exited while the
 *   demo was running; the message carries the end of its stderr.
 */
export type DemoLinkErrorCode = 'E_DEMO_SERVER';

export class DemoLinkError extends CodedError<DemoLinkErrorCode> {
  override readonly name = 'DemoLinkError';
}
