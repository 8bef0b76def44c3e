/**
 * One `webNavigation.onCommitted` and one `onCompleted` listener for the whole background, fanned
 * out to the parts that need them (the page record, the hint push, the content injection). Each
 * listener the browser holds is an event it may send the background on every navigation, while
 * the page is loading (bench/overhead/main.ts prices them; docs/extension.md, "Why lean capture hears two
 * navigation events"), so the parts share one of each.
 *
 * The listeners are unfiltered, so that a commit of a non-http(s) document reaches the page record
 * (it forgets the tab): each subscriber checks the frame and scheme it wants. Subscribing happens in
 * the background's first turn, as MV3 requires of listeners (the first subscription adds them).
 */
import type { LoadCompleted } from './content-injection';

export interface NavigationDetails extends LoadCompleted {
  /** Epoch ms, the browser's. */
  timeStamp: number;
  /** onCommitted only: how the navigation started (`link`, `typed`, `reload`, `form_submit`…). */
  transitionType?: string;
}

export interface NavigationEventLike {
  addListener(listener: (details: NavigationDetails) => void): void;
}

export interface NavigationHub {
  onCommitted(listener: (details: NavigationDetails) => void): void;
  onCompleted(listener: (details: NavigationDetails) => void): void;
}

export function createNavigationHub(webNavigation: { onCommitted: NavigationEventLike; onCompleted: NavigationEventLike }): NavigationHub {
  return { onCommitted: fanOut(webNavigation.onCommitted), onCompleted: fanOut(webNavigation.onCompleted) };
}

function fanOut(event: NavigationEventLike): (listener: (details: NavigationDetails) => void) => void {
  const listeners: ((details: NavigationDetails) => void)[] = [];
  return (listener) => {
    if (listeners.length === 0) {
      event.addListener((details) => {
        // One subscriber's throw must not cost the others their event.
        for (const l of listeners) {
          try {
            l(details);
          } catch (err) {
            console.warn(`getlist: navigation listener failed: ${String(err)}`);
          }
        }
      });
    }
    listeners.push(listener);
  };
}
