import { mayFillIn } from '../../src/page/hints/host-fill-in';
import type { PageRecord } from '../../src/page/model/page-record';
import { withoutFragment } from '../../src/page/model/site-rules';
import type { HintsService } from './hints-service';
import type { HostPort } from './native-port';
import type { SettingsStore } from './settings-store';

export interface HostFillInDeps {
  port: Pick<HostPort, 'request'>;
  hints: Pick<HintsService, 'pageVisits' | 'mergeDiscovered'>;
  settings: Pick<SettingsStore, 'get'>;
  warn?: (message: string) => void;
}

/**
 * After a visit was learned from (so after its `load`, off its critical path), asks the native host
 * to discover the page the way a browser would — its document and style sheets, without cookies
 * (`discover`, native-host/run/discover-page.ts) — and merges what the page's own timeline could
 * not show into its learned state. Only for a page visited at least twice that needs no cookie
 * (src/page/hints/host-fill-in.ts `mayFillIn`), once per page URL while the background runs.
 * A host that is missing or fails costs nothing but the fill-in.
 */
export class HostFillIn {
  private readonly asked = new Set<string>();
  private readonly warn: (message: string) => void;

  constructor(private readonly deps: HostFillInDeps) {
    this.warn = deps.warn ?? ((m) => console.debug(`getlist: ${m}`));
  }

  /** HintsService `onLearned`: resolves when the fill-in (if any) is merged. */
  async visitLearned(page: PageRecord): Promise<void> {
    if (!mayFillIn(page, this.deps.hints.pageVisits(page.url))) return;
    const url = withoutFragment(page.url);
    if (this.asked.has(url)) return;
    this.asked.add(url);
    try {
      const settings = await this.deps.settings.get();
      const reply = await this.deps.port.request({ type: 'discover', url, allowPrivateNetwork: settings.allowPrivateNetwork });
      await this.deps.hints.mergeDiscovered(page, reply.resources);
    } catch (err) {
      this.warn(`the host's discovery of ${url} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
