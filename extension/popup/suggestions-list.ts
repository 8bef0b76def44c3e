/**
 * The suggestions under "where the time went": each with the saving the model predicts, a button
 * that applies it to the page's next visits (through the hint engine), and, for one applied before
 * this visit started, the saving this visit measured beside the prediction.
 */
import { documentSentMs, measuredSavingMs, type AppliedSuggestion } from '../../src/page/diagnosis/applied-suggestion';
import type { Diagnosis } from '../../src/page/diagnosis/diagnose';
import { shortName } from '../../src/page/diagnosis/path-strip';
import { suggestionsFor, type Suggestion } from '../../src/page/diagnosis/suggestions';
import type { PageRecord } from '../../src/page/model/page-record';
import { h, ms } from '../ui/dom';
import { ask } from '../ui/ui-client';

export function suggestionsList(page: PageRecord, d: Diagnosis): HTMLElement {
  const list = h('ul', { class: 'tw-suggestions', 'data-testid': 'suggestions' });
  const suggested = suggestionsFor(d, page.discoveries);
  const render = (applied: readonly AppliedSuggestion[]) => {
    const appliedHrefs = new Set(applied.map((a) => a.suggestion.href));
    list.replaceChildren(
      ...applied.map((a) => appliedRow(a, measuredSavingMs(a, page.startedAt, d.endMs, documentSentMs(d)), d.endMs)),
      ...suggested.filter((s) => !appliedHrefs.has(s.href)).map((s) => suggestionRow(page.tabId, s, () => void load())),
    );
    if (list.childElementCount === 0) list.append(h('li', { class: 'muted' }, 'Nothing to suggest: no hint would move this page’s end.'));
  };
  const load = async () => {
    const reply = await ask({ type: 'get-suggestions', tabId: page.tabId });
    render(reply.type === 'get-suggestions' ? reply.applied : []);
  };
  render([]);
  void load();
  return h('div', {}, h('h3', {}, 'Suggestions'), list);
}

/** A saving as the popup writes it: `−12 ms`, or `+3 ms` for a visit that took longer. */
function saving(x: number): string {
  return x >= 0 ? `−${ms(x)}` : `+${ms(-x)}`;
}

function describe(s: Suggestion): string {
  switch (s.kind) {
    case 'preload':
      return `Preload ${shortName(s.href)} (${s.as})`;
    case 'preconnect':
      return `Preconnect ${shortName(s.href)}`;
    case 'fetchpriority':
      return `fetchpriority=high for ${shortName(s.href)} (the LCP image)`;
  }
}

function suggestionRow(tabId: number, s: Suggestion, onApplied: () => void): HTMLElement {
  const button = h('button', { type: 'button', 'data-testid': 'apply-suggestion' }, 'Apply to next visits');
  const note = h('small', { class: 'muted' });
  button.addEventListener('click', async () => {
    button.disabled = true;
    const reply = await ask({ type: 'apply-suggestion', tabId, href: s.href });
    if (reply.type === 'error') note.textContent = ` Could not apply: ${reply.message} (${reply.code})`;
    else if (reply.applied === null) note.textContent = ' The page changed: this suggestion no longer holds.';
    else onApplied();
  });
  return h('li', { 'data-testid': 'suggestion', 'data-kind': s.kind, 'data-href': s.href, title: s.href },
    `${describe(s)}: predicted `, h('strong', { 'data-testid': 'predicted-saving', 'data-ms': String(s.predictedSavingMs) }, saving(s.predictedSavingMs)), ' ', button, note);
}

function appliedRow(a: AppliedSuggestion, measured: number | undefined, endMs: number): HTMLElement {
  return h('li', { 'data-testid': 'applied-suggestion', 'data-kind': a.suggestion.kind, 'data-href': a.suggestion.href, title: a.suggestion.href },
    `${describe(a.suggestion)} (applied): predicted `, h('strong', { 'data-testid': 'predicted-saving', 'data-ms': String(a.suggestion.predictedSavingMs) }, saving(a.suggestion.predictedSavingMs)),
    measured === undefined
      ? h('small', { class: 'muted' }, ' — measured on the next visit')
      : h('span', {}, ', measured ', h('strong', { 'data-testid': 'measured-saving', 'data-ms': String(measured) }, saving(measured)), h('small', { class: 'muted' }, ` (page end ${ms(a.baselineEndMs)} → ${ms(endMs)}, each from its document’s request)`)));
}
