import type { DiscoveredResource } from '../../src/discovery';
import type { DiscoveredAs, DiscoveredItem } from '../../src/protocol/replies';
import { MAX_DISCOVERED } from '../../src/protocol/version';
import { strategy as strategyPreset } from '../../src/scheduler';
import { PageDiscovery } from './page-discovery';
import { runPage, type PageRunOptions } from './page-run';

export type DiscoverPageOptions = Pick<PageRunOptions, 'url' | 'transport' | 'timeoutMs' | 'signal' | 'now'>;

export interface DiscoveredPage {
  /** The document's URL after redirects. */
  url: string;
  resources: DiscoveredItem[];
}

/**
 * What a page names, found as a browser finds it but fetching only what naming needs: the document
 * (redirects followed) and its style sheets, `@import`s included; the CSS rules are matched to its
 * elements and the fonts to the text set in them (src/discovery). Images, fonts and scripts are
 * named and never fetched. Runs on fresh connections through the transport's connection gate (bad
 * ports, and the `addressCheck` the caller gives for Private Network Access); sends no cookie or
 * credential (the host keeps none). For the extension's fill-in of what a page's own timeline
 * hides (docs/native-host.md, "What the host fetches for the browser").
 * @throws LoadError when the document could not be loaded (its status, not HTML, a timeout…).
 */
export async function discoverPage(options: DiscoverPageOptions): Promise<DiscoveredPage> {
  const discovery = new PageDiscovery({ url: options.url, maxRedirects: 5, maxCssBytes: 2 * 1024 * 1024, lazy: 'skip', sheetsOnly: true });
  await runPage(
    { ...options, strategy: strategyPreset('browser') },
    {
      kind: 'load',
      start: (scheduler) => discovery.start(scheduler),
      hooks: discovery.hooks,
      check: (results) => discovery.checkDocument(results),
    },
  );
  const resources = discovery.found.filter((r) => r.mixedContent !== 'blocked').slice(0, MAX_DISCOVERED).map(toItem);
  return { url: discovery.documentUrl, resources };
}

function toItem(r: DiscoveredResource): DiscoveredItem {
  return { url: r.url, as: asOf(r.kind), via: r.tag === 'css' ? 'css' : 'html' };
}

function asOf(kind: DiscoveredResource['kind']): DiscoveredAs {
  if (kind === 'font' || kind === 'image' || kind === 'script') return kind;
  return kind === 'stylesheet' ? 'style' : 'other';
}
