/**
 * The content script's scheduling: everything it does waits until the page has loaded and the
 * main thread is idle, so the observer does not compete with the load it observes.
 */
export interface IdleDeadlineLike {
  timeRemaining(): number;
}

/** Idle work still runs within this long when the page never goes idle (busy animations). */
const IDLE_TIMEOUT_MS = 2000;

/** `requestIdleCallback` where the browser has it, else a short timer with a 10 ms budget. */
export function idle(cb: (deadline: IdleDeadlineLike) => void, timeoutMs = IDLE_TIMEOUT_MS): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(cb, { timeout: timeoutMs });
  else
    setTimeout(() => {
      const end = performance.now() + 10;
      cb({ timeRemaining: () => Math.max(0, end - performance.now()) });
    }, 50);
}

/** Runs `cb` in the first idle period after the `load` event (at once-idle if it already fired). */
export function afterLoadIdle(cb: () => void): void {
  // The timer lets the load event's own handlers and the first post-load paint go first.
  const go = () => setTimeout(() => idle(() => cb()), 0);
  if (document.readyState === 'complete') go();
  else window.addEventListener('load', go, { once: true });
}

/**
 * Runs `cb` whenever the document is hidden or put away: `visibilitychange` to hidden (a tab
 * switched away from or closed) and `pagehide` (a navigation away, a close, bfcache). Browsers may
 * discard a hidden page without another event, so the page's last reports go out then (the Page
 * Lifecycle guidance; `unload` is not used: it keeps pages out of the back/forward cache).
 */
export function onHidden(cb: () => void): void {
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') cb();
  });
  window.addEventListener('pagehide', cb);
}
