/**
 * What the zoo bench runs on each member: the P&M page at 50 ms (Padmanabhan & Mogul's figure,
 * the goal's setting), McManus's 159-resource page on his 100 ms broadband link, and the
 * real-shaped pages at 100 ms where the member terminates TLS (their third-party origins are
 * https). Every cell has `browser` (six connections, no pipelining), `getlist` (first visit),
 * `getlist-revisit` and Chromium; the real-shaped cells add `h2` and `getlist-link`, a first visit
 * by a client whose link a load of another page just showed (real/link-known.ts).
 */
import { REAL_PAGE_NAMES } from '../corpus/page-real';
import { ZOO_INFO, type ZooMember } from '../origins/zoo/zoo-members';
import type { RealCellPlan, RealLink } from '../real/real-bench';

export interface ZooLinkPlan {
  link: RealLink;
  cells: RealCellPlan[];
}

export const ZOO_PM_PAGE = 'pm95-2544-20';
export const ZOO_MCMANUS_PAGE = 'mcmanus-159';

/** The member's cells of `parts`; with `pages`, only the cells of those pages. */
export function zooPlan(member: ZooMember, parts: readonly string[], pages?: readonly string[]): ZooLinkPlan[] {
  const plans = zooPlanAll(member, parts);
  if (pages === undefined) return plans;
  return plans.map((p) => ({ ...p, cells: p.cells.filter((c) => pages.includes(c.page)) })).filter((p) => p.cells.length > 0);
}

function zooPlanAll(member: ZooMember, parts: readonly string[]): ZooLinkPlan[] {
  const plans: ZooLinkPlan[] = [];
  if (parts.includes('pm')) {
    plans.push({ link: { name: 'pm-50', rttMs: 50, capBitsPerSec: undefined }, cells: [{ page: ZOO_PM_PAGE, contenders: ['browser', 'getlist', 'getlist-revisit', 'chromium'] }] });
  }
  if (parts.includes('mcmanus')) {
    plans.push({ link: { name: 'mcmanus-100', rttMs: 100, capBitsPerSec: 20_000_000 }, cells: [{ page: ZOO_MCMANUS_PAGE, contenders: ['browser', 'getlist', 'getlist-revisit', 'chromium'] }] });
  }
  if (parts.includes('real') && ZOO_INFO[member].tls) {
    plans.push({ link: { name: 'real-100', rttMs: 100, capBitsPerSec: undefined }, cells: REAL_PAGE_NAMES.map((page) => ({ page, contenders: ['browser', 'getlist', 'getlist-link', 'getlist-revisit', 'h2', 'chromium'] })) });
  }
  return plans;
}

export const ZOO_PARTS = ['pm', 'mcmanus', 'real'] as const;
