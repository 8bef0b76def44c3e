import { mixedContentAction, upgradeToHttps } from './mixed-content';
import type { ResourceReference } from './reference';
import type { DiscoveredResource } from './types';

/** What the scanner needs from a classifier to report a resource. */
export type Classified = Pick<ResourceReference, 'kind' | 'priority' | 'attribute' | 'scriptMode' | 'lazy'> & { sheet?: string };

/**
 * The scanner's output: resolved URLs become `DiscoveredResource`s, once each, queued until
 * `deliver`. First discovery wins, even if a later one would rank higher (the scheduler already
 * holds that request; re-prioritising is not this module's job). Mixed content is upgraded or
 * marked blocked here.
 */
export class ResourceQueue {
  /** URLs already reported. */
  private readonly seen = new Set<string>();
  private readonly queue: DiscoveredResource[] = [];

  /** @param documentUrl the document's URL: it is being fetched already, and decides mixed content. */
  constructor(private readonly documentUrl: string, documentSelf: string | undefined) {
    if (documentSelf !== undefined) this.seen.add(documentSelf);
  }

  /**
   * Queues `url` unless already reported. `offset` is a thunk so byte offsets are only computed
   * for URLs actually reported. Returns whether it was new.
   */
  report(rawUrl: string, c: Classified, tag: string, offset: () => number, deferred = false): boolean {
    let url = rawUrl;
    const action = mixedContentAction(this.documentUrl, url, c.kind);
    if (action === 'upgrade') url = upgradeToHttps(url);
    if (this.seen.has(url)) return false;
    this.seen.add(url);
    const resource: DiscoveredResource = { url, kind: c.kind, priority: c.priority, offset: offset(), tag, attribute: c.attribute };
    if (c.scriptMode !== undefined) resource.scriptMode = c.scriptMode;
    if (c.lazy) resource.lazy = true;
    if (deferred) resource.deferred = true;
    if (c.sheet !== undefined) resource.sheet = c.sheet;
    if (action === 'upgrade') resource.mixedContent = 'upgraded';
    if (action === 'block') resource.mixedContent = 'blocked';
    this.queue.push(resource);
    return true;
  }

  /** Hands every queued resource to `onResource`, in order; one that throws leaves the rest queued. */
  deliver(onResource: (resource: DiscoveredResource) => void): void {
    while (this.queue.length > 0) {
      const resource = this.queue.shift();
      if (resource !== undefined) onResource(resource);
    }
  }
}
