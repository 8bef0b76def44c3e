/** Lets `turns` turns of the event loop's check phase run: every short `setImmediate` chain ends. */
export async function drainImmediates(turns = 200): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
}
