/**
 * The lower bound (bench/model/MODEL.md) that each contender of a results cell is compared with:
 * the cell's link, the run's TCP settings, the contender's scheme (https pays TLS), and the requests
 * the contender can make (no script engine ⇒ no script-inserted resources).
 */
import { lowerBound, type LowerBound, type TcpModel } from '../../src/bound/lower-bound';
import type { PageStructure } from '../../src/bound/page-structure';
import { pageStructure } from '../model/page-structure';
import type { BenchMeta, ContenderName, Scheme } from '../run/results-schema';
import type { CellSummary } from './results-summary';

/** Contenders that run the page's scripts (real Chromium); the others only parse HTML and CSS. */
const RUNS_SCRIPTS: ReadonlySet<ContenderName> = new Set<ContenderName>(['chromium-h1', 'chromium-h2']);

/** TCP as the run's link used it, from `meta.link` (MSS = MTU − 52: IPv4 + TCP with timestamps). */
export function tcpOf(meta: Pick<BenchMeta, 'link'>): Partial<TcpModel> {
  const link = meta.link;
  if (link === undefined) return {};
  return { initCwnd: link.initCwnd, ...(link.mtu > 52 ? { mss: link.mtu - 52 } : {}) };
}

export interface BoundKey {
  scheme: Scheme;
  scriptInserted: boolean;
}

export function boundKeyOf(contender: ContenderName, scheme: Scheme): BoundKey {
  return { scheme, scriptInserted: RUNS_SCRIPTS.has(contender) };
}

/** Bounds for one cell, memoised per (scheme, script engine); undefined for a page the corpus lacks. */
export class CellBounds {
  private readonly memo = new Map<string, LowerBound | undefined>();

  constructor(private readonly cell: CellSummary, private readonly tcp: Partial<TcpModel>) {}

  of(key: BoundKey): LowerBound | undefined {
    const k = `${key.scheme}/${key.scriptInserted}`;
    if (!this.memo.has(k)) this.memo.set(k, this.compute(key));
    return this.memo.get(k);
  }

  forContender(contender: ContenderName, scheme: Scheme): LowerBound | undefined {
    return this.of(boundKeyOf(contender, scheme));
  }

  private compute(key: BoundKey): LowerBound | undefined {
    let structure: PageStructure;
    try {
      structure = pageStructure(this.cell.page, { scriptInserted: key.scriptInserted });
    } catch (err) {
      if ((err as { code?: unknown }).code === 'E_BENCH_UNKNOWN_PAGE') return undefined;
      throw err;
    }
    return lowerBound(structure, this.cell.linkParams, { tls: key.scheme === 'https', tcp: this.tcp });
  }
}
