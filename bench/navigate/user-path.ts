/**
 * The scripted user's path through the site, from a seeded PRNG (src/core/prng.ts): from the index,
 * the live ticker first (so a browser has seen its `no-store` answer before the user hovers it
 * again), then a walk that follows each page's favourite link most of the time — the habit a
 * learner of followed links can pick up — and another of the page's links otherwise. Before each
 * click the user hovers another of the page's links and, every other step, one of the links no
 * speculation may fetch (nav-site.ts NEVER_LINKS, in turn), each for the hover time, then hovers
 * the chosen link and clicks it.
 */
import { Prng } from '../../src/core/prng';
import { followLinks, INDEX_PATH, LIVE_PATH, NEVER_LINKS } from './nav-site';

export interface NavStep {
  /** The page the user is on (root-relative). */
  from: string;
  /** hrefs hovered and not clicked, in order. */
  hovers: string[];
  /** The href clicked: the next page. */
  click: string;
}

/** How often the user follows the page's favourite link. */
const FAVOURITE_SHARE = 0.6;

export function userPath(seed: number, steps: number): NavStep[] {
  const rng = new Prng(`nav-user ${seed}`);
  const path: NavStep[] = [];
  let page = INDEX_PATH;
  let never = 0;
  for (let i = 0; i < steps; i++) {
    const links = followLinks(page);
    const [favourite, ...others] = links as [string, ...string[]];
    const click = i === 0 ? LIVE_PATH : rng.next() < FAVOURITE_SHARE ? favourite : rng.pick(others);
    const hovers = [rng.pick(links.filter((l) => l !== click))];
    if (i % 2 === 1) {
      const n = NEVER_LINKS[never++ % NEVER_LINKS.length];
      if (n !== undefined && n.href !== click) hovers.push(n.href);
    }
    path.push({ from: page, hovers: rng.shuffle(hovers), click });
    page = click;
  }
  return path;
}
