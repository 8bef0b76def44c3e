/**
 * How long one run may take: one strategy's page load or replay of a page's list, from its first
 * request to its last byte. Then what is unfinished fails with `E_LOAD_TIMEOUT` and what finished
 * is kept. It is the default of `getlist load --timeout`, and the host's fixed limit for each
 * strategy of a `replay` schedule (a schedule cannot ask for more), which is what lets the
 * extension bound its own wait for a replay.
 */
export const RUN_TIMEOUT_MS = 120_000;
