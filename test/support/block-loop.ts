/** Keeps the event loop busy for `ms`, as parsing a large response would. */
export function blockLoop(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy
  }
}
