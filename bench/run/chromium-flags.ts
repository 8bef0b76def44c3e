/**
 * The flags every headless Chromium getlist starts (benchmarks, end-to-end tests) runs with: no
 * sandbox (root in CI), no GPU, and nothing of its own on the network — background networking,
 * component updates, sync and first-run fetches would reach hosts this machine cannot reach and
 * add requests a test's server log does not expect — and no QUIC, so every load is TCP as the
 * origins serve it. Callers add what their run needs (extension, host rules, certificates).
 */
export const CHROMIUM_QUIET_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
