/**
 * The frame a request belongs to, 0 for the tab's top frame. Chromium 156 can report the first
 * sub-resources of a new top-level document with the frame's internal id instead of 0 while its
 * commit is still being processed (seen on a profile started before: cross-origin.html's
 * parser-found sheet, image and script at frameId 8 beside its later images at 0, about one load in
 * five), which would leave them out of the page and its replays. `frameType` tells the top-level
 * document's frame from a sub-frame (the e2e cross-origin check exercises it). A prerendered, cached or unloading document's requests keep their own id (they
 * are not the tab's page).
 */
export function frameIdOf(e: { frameId: number }): number {
  const x = e as { frameId: number; frameType?: unknown; documentLifecycle?: unknown };
  if (x.frameId === 0 || x.frameType !== 'outermost_frame') return x.frameId;
  return x.documentLifecycle === undefined || x.documentLifecycle === 'active' ? 0 : x.frameId;
}
