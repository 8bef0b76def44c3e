/**
 * "Where the time went": the page's end beside its lower bound on the path this load measured and
 * its ideal bound, the critical path as a strip of what each request spent, and the gap to the
 * bound by cause (src/page/diagnosis/), and the hints that would save time (suggestions-list.ts).
 * Computed here in the popup, never in the page.
 */
import { diagnose } from '../../src/page/diagnosis/diagnose';
import { gapRows, SPENT_ON_LABELS, stripCells, type StripCell } from '../../src/page/diagnosis/path-strip';
import type { PageRecord } from '../../src/page/model/page-record';
import { h, ms } from '../ui/dom';
import { suggestionsList } from './suggestions-list';

export function timeWentBlock(page: PageRecord): HTMLElement {
  const d = diagnose(page);
  const title = h('h2', {}, 'Where the time went');
  if (d.status !== 'ok') {
    return h('section', { class: 'block tw', 'data-testid': 'time-went' }, title, h('p', { class: 'muted', 'data-testid': 'time-went-unavailable', 'data-code': d.code }, `Not judged yet: ${d.message}.`));
  }
  const rate = d.downBitsPerSec > 0 ? `${(d.downBitsPerSec / 1e6).toFixed(1)} Mbit/s` : 'rate not measured (taken as unlimited)';
  const fact = (label: string, testId: string, value: number, hint: string) =>
    h('div', { class: 'metric', title: hint }, h('dt', {}, label), h('dd', { 'data-testid': testId, 'data-ms': String(value) }, ms(value)));
  const longest = Math.max(1, ...stripCells(d).map((c) => c.totalMs));
  return h(
    'section',
    { class: 'block tw', 'data-testid': 'time-went' },
    title,
    h(
      'dl',
      { class: 'metrics' },
      fact('Page end', 'tw-end', d.endMs, 'The last byte of the last request'),
      fact('Lower bound', 'tw-bound', d.boundMs, `No browser finding the resources by parsing could finish sooner on this path (${d.limitedBy}-limited)`),
      fact('Ideal', 'tw-ideal', d.idealMs, 'Nor one that knew every request at the start'),
    ),
    h('p', { class: 'muted', 'data-testid': 'tw-path', 'data-rtt': String(d.rttMs) }, `This load’s path: ${ms(d.rttMs)} round trip, ${rate}.`),
    h('ol', { class: 'tw-strip', 'data-testid': 'critical-path', 'aria-label': 'Critical path' }, ...stripCells(d).map((c) => cell(c, longest))),
    gapTable(d.gap),
    safely(() => suggestionsList(page, d)),
  );
}

function cell(c: StripCell, longest: number): HTMLElement {
  const spent = c.segments.map((s) => `${SPENT_ON_LABELS[s.spentOn]} ${ms(s.ms)}`).join(' · ');
  return h(
    'li',
    { class: 'tw-link', 'data-testid': 'critical-link', 'data-url': c.url, 'data-sent-ms': String(c.sentMs), 'data-round-trip-ms': String(c.roundTripMs), title: `${c.url}\n${c.foundBy}\n${spent}` },
    h('div', { class: 'tw-name' }, h('strong', {}, c.label), h('small', {}, ` ${c.foundBy}`)),
    h('div', { class: 'tw-bar', style: `width: ${Math.max(2, (100 * c.totalMs) / longest)}%` }, ...c.segments.map((s) => h('span', { class: `tw-seg tw-${s.spentOn}`, style: `flex-grow: ${s.ms}`, 'data-spent-on': s.spentOn, 'data-ms': String(s.ms) }))),
    h('small', { class: 'muted' }, spent),
  );
}

function gapTable(gap: Parameters<typeof gapRows>[0]): HTMLElement {
  const rows = gapRows(gap);
  return h(
    'table',
    { class: 'tw-gap', 'data-testid': 'tw-gap', 'data-ms': String(gap.gapMs) },
    h('thead', {}, h('tr', {}, h('th', {}, `Gap to the bound: ${ms(gap.gapMs)}`), h('th', { class: 'num' }, 'ms'))),
    h('tbody', {}, ...rows.map((r) => h('tr', { 'data-cause': r.cause }, h('td', {}, r.label), h('td', { class: 'num', 'data-ms': String(r.ms) }, ms(r.ms))))),
  );
}

/** A part of the block that failed says so in place, and the rest of the popup still renders. */
function safely(part: () => HTMLElement): HTMLElement {
  try {
    return part();
  } catch (err) {
    return h('p', { class: 'error-text', 'data-testid': 'time-went-error' }, `Could not work this out: ${err instanceof Error ? err.message : String(err)}`);
  }
}
