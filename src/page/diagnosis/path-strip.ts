/**
 * The critical path as the popup draws it: one cell per request, its time from the earliest the
 * browser could have known of it to its last byte cut into what it spent, in order; and the gap to
 * the bound as labelled rows. Plain data, so the layout is tested without a DOM. Pure.
 */
import type { GapParts } from '../../bound/gap-parts';
import type { Diagnosis, PathLink } from './diagnose';

export type SpentOn = 'discovery' | 'queued' | 'handshake' | 'round-trip' | 'server' | 'transfer';

export interface StripSegment {
  spentOn: SpentOn;
  ms: number;
}

export interface StripCell {
  url: string;
  /** The last path segment of the URL, or its host for `/`. */
  label: string;
  /** `found by a.css 48 ms late` / `the document` */
  foundBy: string;
  segments: StripSegment[];
  /** Sum of the segments. */
  totalMs: number;
  /** When it was sent, and its request-to-first-byte time, ms. */
  sentMs: number;
  roundTripMs: number;
}

export const SPENT_ON_LABELS: Readonly<Record<SpentOn, string>> = {
  discovery: 'waiting to be found',
  queued: 'queued',
  handshake: 'handshake',
  'round-trip': 'round trip',
  server: 'server',
  transfer: 'transfer',
};

export function stripCells(d: Diagnosis): StripCell[] {
  return d.criticalPath.map((l) => {
    const roundTrip = Math.min(l.roundTripMs, d.rttMs);
    const segments: StripSegment[] = [
      { spentOn: 'discovery', ms: l.discoveryWaitMs },
      { spentOn: 'queued', ms: l.queuedMs },
      { spentOn: 'handshake', ms: l.handshakeMs },
      { spentOn: 'round-trip', ms: roundTrip },
      { spentOn: 'server', ms: l.serverMs },
      { spentOn: 'transfer', ms: l.transferMs },
    ].filter((s) => s.ms > 0) as StripSegment[];
    return { url: l.url, label: shortName(l.url), foundBy: foundByText(l), segments, totalMs: segments.reduce((s, x) => s + x.ms, 0), sentMs: l.sentMs, roundTripMs: l.roundTripMs };
  });
}

function foundByText(l: PathLink): string {
  if (l.foundByUrl === undefined) return 'the document';
  const how = l.foundBy === 'script' ? 'inserted by' : 'named in';
  const late = l.discoveryLateMs >= 0.5 ? `, ${Math.round(l.discoveryLateMs)} ms after the bound finds it` : '';
  return `${how} ${shortName(l.foundByUrl)}${late}`;
}

export function shortName(url: string): string {
  try {
    const u = new URL(url);
    const last = u.pathname.split('/').filter((s) => s !== '').pop();
    return last === undefined ? u.host : decodeURIComponent(last);
  } catch {
    return url;
  }
}

export type GapCause = Exclude<keyof GapParts, 'gapMs'>;

export const GAP_CAUSE_LABELS: Readonly<Record<GapCause, string>> = {
  discoveryMs: 'found late (discovery)',
  handshakesMs: 'handshakes',
  queueingMs: 'queued for a connection',
  serverMs: 'server time',
  bandwidthMs: 'transfer, bandwidth and slow start',
};

/** The gap's causes, largest first, without those under half a millisecond. */
export function gapRows(gap: GapParts): { cause: GapCause; label: string; ms: number }[] {
  return (Object.keys(GAP_CAUSE_LABELS) as GapCause[])
    .map((cause) => ({ cause, label: GAP_CAUSE_LABELS[cause], ms: gap[cause] }))
    .filter((r) => Math.abs(r.ms) >= 0.5)
    .sort((a, b) => b.ms - a.ms);
}
