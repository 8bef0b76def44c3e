/**
 * The suggestions the user applied from the popup's "where the time went" (one click each), kept
 * in `storage.local` and handed to the hint engine for the page's next visits (hints-service.ts
 * merges them into the page's list). Applying re-diagnoses the tab's own record here in the
 * background, so what is stored is what the model predicted for the visit the user looked at.
 */
import { appliedFor, appliedFromJson, documentSentMs, headerHintsOf, hintOf, withApplied, type AppliedSuggestion } from '../../src/page/diagnosis/applied-suggestion';
import { diagnose } from '../../src/page/diagnosis/diagnose';
import { suggestionsFor } from '../../src/page/diagnosis/suggestions';
import type { Hint, HintLimits } from '../../src/page/hints/hint-types';
import { pageKey } from '../../src/page/hints/site-template';
import type { PageRecord } from '../../src/page/model/page-record';
import type { LocalStorageLike } from './settings-store';

const KEY = 'getlist.suggestions.v1';

export class SuggestionsStore {
  readonly ready: Promise<void>;
  private applied: AppliedSuggestion[] = [];

  constructor(private readonly local: LocalStorageLike, private readonly now: () => number = Date.now) {
    this.ready = local.get(KEY).then((items) => {
      this.applied = appliedFromJson(items[KEY]);
    }, () => undefined);
  }

  /** Applies the suggestion for `href` that the model makes for `page`; undefined when it makes none. */
  async apply(page: PageRecord, href: string): Promise<AppliedSuggestion | undefined> {
    await this.ready;
    const d = diagnose(page);
    const key = pageKey(page.url);
    if (d.status !== 'ok' || key === undefined) return undefined;
    const suggestion = suggestionsFor(d, page.discoveries).find((s) => s.href === href);
    if (suggestion === undefined) return undefined;
    const applied: AppliedSuggestion = { key, suggestion, appliedAt: this.now(), baselineEndMs: d.endMs, baselineDocumentSentMs: documentSentMs(d) };
    this.applied = withApplied(this.applied, applied);
    await this.local.set({ [KEY]: this.applied });
    return applied;
  }

  async forUrl(url: string): Promise<AppliedSuggestion[]> {
    await this.ready;
    return appliedFor(this.applied, url);
  }

  /** The hints `url`'s applied suggestions become. */
  async hints(url: string, limits: Pick<HintLimits, 'fontPreloads'>): Promise<Hint[]> {
    return (await this.forUrl(url)).map((a) => hintOf(a.suggestion, limits));
  }

  /** Every page's applied hints, by page key (the `Link` header rules, hints-service.ts `syncRules`). */
  async hintsByPage(limits: Pick<HintLimits, 'fontPreloads'>): Promise<Map<string, Hint[]>> {
    await this.ready;
    const out = new Map<string, Hint[]>();
    for (const a of this.applied) out.set(a.key, [...(out.get(a.key) ?? []), ...headerHintsOf(a.suggestion, limits)]);
    return out;
  }

  /** Forgets the suggestions applied to `origin`'s pages, or all. */
  async forget(origin?: string): Promise<void> {
    await this.ready;
    this.applied = origin === undefined ? [] : this.applied.filter((a) => !a.key.startsWith(`${origin}/`));
    await this.local.set({ [KEY]: this.applied });
  }
}
