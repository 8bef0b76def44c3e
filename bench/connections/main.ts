/**
 * `node dist/bench/connections.js [--browsers chromium,firefox] [--protocols http/1.1,h2]
 * [--pages queued.html,connections.html] [--loads N] [--out FILE] [--results-md FILE]` — the popup's
 * connection figures against the servers' own log, load after load: real Chromium and Firefox ESR
 * with the built extension in lean capture (the default) load each page on a site of its own (every
 * connection new), and the popup's "opened", its lower bound on connections used and its range are
 * read beside what the site's servers saw (test/e2e/site/site-server.ts: the connections that
 * carried the browser's requests, and every connection accepted).
 *
 * A load disagrees when the popup's bound or the low end of its range exceeds the servers' count,
 * when its request count differs from theirs, when the HAR names more connections than they saw,
 * or when "opened" differs from their count where the browser shows every connect (Firefox; Chromium
 * hands requests the sockets it preconnected at navigation start without a connect phase, so there
 * "opened" may only fall short). Exit status 1 when any load disagrees.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Browser, Page } from 'puppeteer-core';
import { buildHar } from '../../src/page';
import { BenchRunError } from '../cli/bench-run-error';
import { intValue, listValue, type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { replaceSection } from '../cli/markdown-section';
import { runMain } from '../cli/run-main';
import { copyExtensionBuild } from '../../test/e2e/harness/extension-build';
import { openExtensionPage } from '../../test/e2e/harness/extension-pages';
import { launchChromium } from '../../test/e2e/harness/launch-chromium';
import { launchFirefox } from '../../test/e2e/harness/launch-firefox';
import { h2Certificate, observeConnections } from '../../test/e2e/harness/observed-checks';
import { registerHost } from '../../test/e2e/harness/register-host';
import { TempDirs } from '../../test/e2e/harness/temp-dirs';
import { startSite } from '../../test/e2e/site/site-server';
import { connectionsSection, disagreements, type ConnectionLoad, type ConnectionsResults } from './connections-table';

type BrowserName = 'chromium' | 'firefox';
type Protocol = 'http/1.1' | 'h2';

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/connections.js [--browsers chromium,firefox] [--protocols http/1.1,h2] [--pages queued.html,connections.html] [--loads N] [--out FILE] [--results-md FILE]',
  notes: ["The popup's connection figures (lean capture) against the servers' own log of connections, N loads per browser, protocol and page."],
  options: {
    browsers: { type: 'string', value: 'a,b', help: 'chromium and/or firefox', default: 'chromium,firefox' },
    protocols: { type: 'string', value: 'a,b', help: 'http/1.1 and/or h2', default: 'http/1.1,h2' },
    pages: { type: 'string', value: 'a,b', help: 'pages of test/e2e/site/pages', default: 'queued.html,connections.html' },
    loads: { type: 'string', value: 'N', help: 'loads per cell', default: '20' },
    out: { type: 'string', value: 'FILE', help: 'write every load as JSON to FILE' },
    merge: { type: 'string', value: 'FILE,…', help: 'earlier --out files whose loads join this run\'s in the table (a browser run apiece)' },
    'results-md': { type: 'string', value: 'FILE', help: 'replace the "Connections against the servers\' log" section of FILE (bench/RESULTS.md)' },
  },
};

interface Launched {
  browser: Browser;
  extensionOrigin: string;
  query: Page;
  close(): Promise<void>;
}

async function launch(name: BrowserName, dirs: TempDirs, spkiHash: string): Promise<Launched> {
  const extension = copyExtensionBuild(dirs);
  const home = dirs.make(`${name}-home`);
  const dataDir = dirs.make(`${name}-data`);
  let launched: { browser: Browser; extensionOrigin: string; close(): Promise<void> };
  if (name === 'chromium') {
    const userDataDir = dirs.make('chromium-profile');
    await registerHost({ browser: 'chromium', userDataDir, home, dataDir });
    const c = await launchChromium({ extensionDir: extension.dir, userDataDir, env: { HOME: home, GETLIST_DATA_DIR: dataDir }, spkiHashes: [spkiHash] });
    await c.serviceWorker();
    launched = c;
  } else {
    await registerHost({ browser: 'firefox', home, dataDir });
    launched = await launchFirefox({ extensionDir: extension.dir, home, profileDir: dirs.make('firefox-profile'), env: { GETLIST_DATA_DIR: dataDir } });
  }
  const query = (await openExtensionPage(launched.browser, `${launched.extensionOrigin}/${extension.queryPage}`)).page;
  return { ...launched, query };
}

async function runBrowser(name: BrowserName, protocols: readonly Protocol[], pages: readonly string[], loads: number): Promise<ConnectionLoad[]> {
  const dirs = new TempDirs();
  const out: ConnectionLoad[] = [];
  try {
    const tls = h2Certificate(dirs);
    const b = await launch(name, dirs, tls.spkiHash);
    try {
      for (const page of pages) {
        for (const protocol of protocols) {
          for (let i = 1; i <= loads; i++) {
            const site = await startSite(protocol === 'h2' ? { h2: tls } : {});
            try {
              const { server, popup, record } = await observeConnections(b.browser, b.query, b.extensionOrigin, site, `bench-${name}-${page}-${protocol.replace('/', '')}-${i}`, page);
              const harConnections = new Set(buildHar(record).log.entries.map((e) => e.connection).filter((id) => id !== undefined)).size;
              const load: ConnectionLoad = {
                browser: name, protocol, page, load: i, capture: record.capture ?? 'detailed', nextHopProtocol: record.navigation?.nextHopProtocol ?? '',
                server: { connections: server.connections, requests: server.requests, accepted: site.connections.length },
                popup: { opened: popup.opened, usedAtLeast: Number.isNaN(popup.usedAtLeast) ? null : popup.usedAtLeast, connectionsMin: popup.connectionsMin, connections: popup.connections, requests: popup.requests, bound: popup.bound, text: popup.text },
                harConnections,
                everyConnect: name === 'firefox',
              };
              const bad = disagreements(load);
              process.stderr.write(`[connections] ${name} ${protocol} ${page} ${i}/${loads}: servers ${server.connections} (accepted ${site.connections.length}); popup opened ${popup.opened}, ≥ ${popup.usedAtLeast}, range ${popup.connectionsMin}–${popup.connections}${bad.length ? `  DISAGREES: ${bad.join('; ')}` : ''}\n`);
              out.push(load);
            } finally {
              await site.close();
            }
          }
        }
      }
    } finally {
      await b.close();
    }
  } finally {
    dirs.removeAll();
  }
  return out;
}

async function main(argv: readonly string[]): Promise<number> {
  const args = benchCommandLine(argv, COMMAND);
  if (!args) return 0;
  const v = args.values;
  const browsers = (listValue(v.browsers) ?? ['chromium', 'firefox']).map((b) => (b === 'chromium' || b === 'firefox' ? b : (() => { throw benchUsage(`--browsers: expected chromium or firefox, got ${JSON.stringify(b)}`); })()));
  const protocols = (listValue(v.protocols) ?? ['http/1.1', 'h2']).map((p) => (p === 'http/1.1' || p === 'h2' ? p : (() => { throw benchUsage(`--protocols: expected http/1.1 or h2, got ${JSON.stringify(p)}`); })()));
  const pages = listValue(v.pages) ?? ['queued.html', 'connections.html'];
  const loads = intValue(v.loads, 'loads', 20, 1, 1000, benchUsage);
  const merged: ConnectionLoad[] = [];
  for (const file of listValue(v.merge) ?? []) {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Partial<ConnectionsResults>;
    if (doc.bench !== 'connections' || !Array.isArray(doc.loads)) throw new BenchRunError('E_BENCH_USAGE', `--merge: ${file} is not a connections.js results file`);
    merged.push(...doc.loads);
  }
  const fresh: ConnectionLoad[] = [];
  for (const name of browsers) fresh.push(...(await runBrowser(name, protocols, pages, loads)));
  const results: ConnectionsResults = { bench: 'connections', at: new Date().toISOString(), loads: [...merged, ...fresh] };
  if (typeof v.out === 'string') writeFileSync(v.out, `${JSON.stringify({ ...results, loads: fresh }, null, 1)}\n`);
  const section = connectionsSection(results);
  const md = v['results-md'];
  if (typeof md === 'string') writeFileSync(md, replaceSection(readFileSync(md, 'utf8'), section.heading, section.body));
  process.stdout.write(`${section.body}\n`);
  return results.loads.some((l) => disagreements(l).length > 0) ? 1 : 0;
}

runMain('connections', () => main(process.argv.slice(2)));
