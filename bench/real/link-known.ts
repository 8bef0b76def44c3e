/**
 * `getlist-link`: a first visit by a client whose own link its earlier loads know, as a user's
 * first visit to a site usually is: before each measured load another real-shaped page on the same
 * link is loaded unmeasured with `--memory FILE`, and the measured load starts from FILE less
 * everything learned of the measured page's own hosts (their origins' facts, every page list).
 * What is left tells of the link only (src/scheduler/link-rate.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { getBenchPage } from '../corpus/bench-corpus';

/** The page loaded first: the heaviest of the others (real-news, or real-shop before real-news itself). */
export function linkWarmUpPage(page: string): string {
  return page === 'real-news' ? 'real-shop' : 'real-news';
}

/** Rewrites the memory file at `path` (`getlist load --memory`) to forget `page`'s hosts and every page list. */
export function forgetPage(path: string, page: string): void {
  const hosts = new Set(getBenchPage(page).origins);
  const memory = JSON.parse(readFileSync(path, 'utf8')) as { origins?: Array<{ origin: string }>; pages?: unknown[]; fingerprints?: unknown[] };
  memory.origins = (memory.origins ?? []).filter((o) => !hosts.has(new URL(o.origin).hostname));
  memory.pages = [];
  memory.fingerprints = [];
  writeFileSync(path, JSON.stringify(memory));
}
