import type { PageRecord } from '../../model/page-record';
import { navigationMilestones } from '../../model/page-summary';
import { replayVerdicts } from '../../model/replay-verdict';
import { groupByConnection, inferConnections, type ConnectionLane } from './connections';
import { observedRows, replayRows, type ReplayResultLike, type WaterfallRow } from './rows';

/** One load drawn on the shared axis: the browser's, or one replayed strategy's. */
export interface WaterfallSource {
  /** `observed` or the strategy's name. */
  id: string;
  title: string;
  /** What 0 ms is for this source. */
  origin: 'navigation start' | 'replay start';
  rows: WaterfallRow[];
  lanes: ConnectionLane[];
  /** false for a replay with failed requests (its times do not measure the page). */
  valid: boolean;
}

export interface WaterfallModel {
  sources: WaterfallSource[];
  /** Navigation milestones of the observed load (ms from navigation start). */
  markers: { domContentLoadedMs: number | null; loadMs: number | null };
  /** The latest time any source reaches (the axis must cover it). */
  lastMs: number;
}

/**
 * Everything the waterfall draws for a page: the observed load (connections inferred from
 * Resource Timing) and each replayed strategy (the host's own connections), all on one axis whose
 * 0 is each load's own start.
 */
export function buildWaterfallModel(page: PageRecord): WaterfallModel {
  const observed = inferConnections(observedRows(page));
  const sources: WaterfallSource[] = [{ id: 'observed', title: 'browser (observed)', origin: 'navigation start', rows: observed, lanes: groupByConnection(observed), valid: true }];
  const verdicts = new Map(replayVerdicts(page).map((v) => [v.strategy, v.valid]));
  for (const result of page.replay?.results ?? []) {
    const rows = replayRows(result as ReplayResultLike, page.url);
    sources.push({ id: result.strategy, title: `${result.strategy} (replay)`, origin: 'replay start', rows, lanes: groupByConnection(rows), valid: verdicts.get(result.strategy) ?? true });
  }
  const nav = navigationMilestones(page);
  const markers = { domContentLoadedMs: nav.domContentLoadedMs ?? null, loadMs: nav.loadMs ?? null };
  const ends = sources.flatMap((s) => s.rows.map((r) => Math.max(r.endMs ?? r.startMs, ...r.phases.map((p) => p.endMs))));
  const lastMs = Math.max(1, ...ends, markers.domContentLoadedMs ?? 0, markers.loadMs ?? 0);
  return { sources, markers, lastMs };
}

/** A line of the connection view: a source's heading, or one of its connections. */
export type ConnectionViewItem = { kind: 'heading'; source: WaterfallSource } | { kind: 'lane'; source: WaterfallSource; lane: ConnectionLane };

/** The connection view as one list (for the virtual window): each source's heading, then its lanes. */
export function connectionViewItems(model: WaterfallModel): ConnectionViewItem[] {
  return model.sources.flatMap((source) => [{ kind: 'heading', source } as const, ...source.lanes.map((lane) => ({ kind: 'lane', source, lane }) as const)]);
}
