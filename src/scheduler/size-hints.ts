import type { ScheduledRequest } from './request';

/**
 * Sizes of responses known to be large, by URL (`SchedulerOptions.sizeHints`): learned as responses
 * end and kept across the loads of a run, so a request is not pipelined behind a response that was
 * large last time, before its headers say so again.
 *
 * Invariant: only sizes ≥ `largeBytes` are kept — the only ones that change a decision — so a page
 * of small responses costs no memory here, and a URL whose response shrank is forgotten.
 */
export class SizeHints {
  constructor(
    private readonly large: Map<string, number>,
    readonly largeBytes: number,
  ) {}

  /** Declared size, else a size learned earlier (only large ones are kept), else 0. */
  expected(req: ScheduledRequest): number {
    if (req.expectedSize !== undefined) return req.expectedSize;
    return this.large.size > 0 ? (this.large.get(req.url) ?? 0) : 0;
  }

  /** `url`'s response ended with `bytes` of body. */
  learn(url: string, bytes: number): void {
    if (bytes >= this.largeBytes) this.large.set(url, bytes);
    else if (this.large.size > 0) this.large.delete(url);
  }
}
