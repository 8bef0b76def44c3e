import type { SessionStorageLike } from './page-store';

const KEY = 'getlist.speculation.keepingOrigins';
/** Origins remembered at most; the oldest goes first. */
export const MAX_KEEPING_ORIGINS = 1000;

/**
 * Origins whose documents the browser's HTTP cache was seen keeping (follow-state.ts
 * `documentKept`): only there does a document the cache did not keep count as `no-store`. Kept in
 * `storage.session`, so that a service worker the browser stopped while idle (Manifest V3) does not
 * forget them, and gone with the browser's session, as the cache's evidence may be: the user may
 * clear the cache or turn it off.
 */
export class KeepingOrigins {
  readonly ready: Promise<void>;
  private readonly origins = new Set<string>();

  constructor(
    private readonly session: SessionStorageLike | undefined,
    private readonly warn: (message: string) => void,
  ) {
    this.ready = session
      ? session.get(KEY).then(
          (items) => {
            const stored = items[KEY];
            if (Array.isArray(stored)) for (const o of stored.slice(-MAX_KEEPING_ORIGINS)) if (typeof o === 'string') this.origins.add(o);
          },
          (err: unknown) => this.warn(`could not read the origins the cache keeps: ${String(err)}`),
        )
      : Promise.resolve();
  }

  has(origin: string): boolean {
    return this.origins.has(origin);
  }

  add(origin: string): void {
    if (this.origins.has(origin)) return;
    this.origins.add(origin);
    if (this.origins.size > MAX_KEEPING_ORIGINS) this.origins.delete(this.origins.values().next().value as string);
    this.session?.set({ [KEY]: [...this.origins] }).catch((err: unknown) => this.warn(`could not save the origins the cache keeps: ${String(err)}`));
  }
}
