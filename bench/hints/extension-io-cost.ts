/**
 * What the extension's writes cost Chromium, by size: the round trip of one `storage.local.set` of
 * a value shaped like the speculation state (pages with up to 20 followed targets each), against
 * one item of it, and of one `declarativeNetRequest.updateSessionRules` replacing every session
 * rule with rules shaped like the hint rules (dnr-rules.ts: per page a header rule and an `allow`
 * rule, per template a regex rule), with the `getSessionRules` read before it. Chromium runs both
 * on its browser main thread (`storage_frontend.cc`, `rules_monitor_service.cc`), where a new page's
 * first frame waits: the evidence behind writing an item per entry, later than the commit
 * (docs/extension.md, "What is learned"). A throwaway extension in a headless Chromium, timed from
 * its service worker; `--runs` of each, medians. `node dist/bench/extension-io-cost.js [--runs 7]`;
 * no lock needed (no link emulation), but quote `uptime`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { intValue, type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { runMain } from '../cli/run-main';
import { CHROMIUM_PATH } from '../run/chromium-contender';
import { median } from '../../src/stats/median';

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/extension-io-cost.js [--runs N]',
  notes: ['What one storage.local.set and one DNR session-rule update cost Chromium, by size (a throwaway extension, headless).'],
  options: { runs: { type: 'string', value: 'N', help: 'calls of each kind and size', default: '7' } },
};

/** Stored state sizes (kB) and hint rule sets (pages, templates) measured. */
const STATE_KB = [50, 200, 600];
const RULE_SETS: ReadonlyArray<readonly [number, number]> = [[10, 5], [50, 20], [150, 50], [250, 150]];

/** The service worker: `measureStorage(kb, runs)` and `measureRules(pages, templates, runs)`, each resolving to ms per call. */
const WORKER = `
const LINK = '<https://cdn1.example/app/fonts/inter-var-latin.woff2>; rel=preload; as=font; type="font/woff2"; crossorigin=anonymous, <https://img.example/hero/large-image-1280.jpg>; rel=preload; as=image, <https://static.example>; rel=preconnect';
const time = async (f) => { const t = performance.now(); await f(); return performance.now() - t; };
self.measureStorage = async (kb, runs) => {
  const state = { pages: [] };
  for (let i = 0; JSON.stringify(state).length < kb * 1024; i++) {
    const follows = {};
    for (let j = 0; j < 20; j++) follows['https://www.site' + (i % 40) + '.example/section/2024/11/article-' + i + '-' + j + '.html'] = j + 1;
    state.pages.push(['https://www.site' + (i % 40) + '.example/section/2024/11/article-' + i + '.html', { visits: 5, follows }]);
  }
  const whole = [], item = [];
  for (let r = 0; r < runs; r++) {
    state.run = r;
    whole.push(await time(() => chrome.storage.local.set({ 'bench.state': state })));
  }
  // Apart from the whole value's writes: right after one, the next write waits for the store.
  for (let r = 0; r < runs; r++) item.push(await time(() => chrome.storage.local.set({ ['bench.item.' + r]: state.pages[r] })));
  return { bytes: JSON.stringify(state).length, whole, item };
};
self.measureRules = async (pages, templates, runs) => {
  const rules = [];
  const header = { type: 'modifyHeaders', responseHeaders: [{ header: 'link', operation: 'append', value: LINK }] };
  for (let i = 0; i < pages; i++) {
    const condition = { resourceTypes: ['main_frame'], urlFilter: '|https://site' + (i % 30) + '.example/news/2024/article-' + i + '.html|', isUrlFilterCaseSensitive: true };
    rules.push({ id: rules.length + 1, priority: 3, action: header, condition });
    rules.push({ id: rules.length + 1, priority: 2, action: { type: 'allow' }, condition });
  }
  for (let i = 0; i < templates; i++) {
    rules.push({ id: rules.length + 1, priority: 1, action: header, condition: { resourceTypes: ['main_frame'], regexFilter: '^https://site' + i + '\\\\.example/news/[0-9]+/[^/?#]+\\\\.html(\\\\?[^#]*)?$' } });
  }
  const read = [], update = [];
  for (let r = 0; r < runs; r++) {
    let old = [];
    read.push(await time(async () => { old = await chrome.declarativeNetRequest.getSessionRules(); }));
    update.push(await time(() => chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: old.map((x) => x.id), addRules: rules })));
  }
  return { rules: rules.length, read, update };
};
`;

const ms = (xs: readonly number[]): string => median(xs).toFixed(1);

async function main(argv: readonly string[]): Promise<number> {
  const args = benchCommandLine(argv, COMMAND);
  if (!args) return 0;
  const runs = intValue(args.values.runs, 'runs', 7, 1, 1000, benchUsage);
  const dir = mkdtempSync(join(tmpdir(), 'getlist-io-cost-'));
  const ext = join(dir, 'extension');
  mkdirSync(ext);
  writeFileSync(join(ext, 'manifest.json'), JSON.stringify({ manifest_version: 3, name: 'io-cost', version: '1', permissions: ['storage', 'declarativeNetRequestWithHostAccess'], host_permissions: ['<all_urls>'], background: { service_worker: 'sw.js' } }));
  writeFileSync(join(ext, 'sw.js'), WORKER);
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    userDataDir: join(dir, 'profile'),
    enableExtensions: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--disable-extensions-except=${ext}`, `--load-extension=${ext}`],
  });
  try {
    const worker = await (await browser.waitForTarget((t) => t.type() === 'service_worker')).worker();
    if (!worker) throw new Error('the throwaway extension has no service worker');
    console.log(`Chromium ${await browser.version()}, ${runs} calls each, median ms per call from the service worker`);
    console.log('\n| storage.local.set of | whole value | one item of it |\n|---|---:|---:|');
    for (const kb of STATE_KB) {
      const r = (await worker.evaluate(`self.measureStorage(${kb}, ${runs})`)) as { bytes: number; whole: number[]; item: number[] };
      console.log(`| ${r.bytes.toLocaleString('en-US')} B | ${ms(r.whole)} | ${ms(r.item)} |`);
    }
    console.log('\n| session rules (pages, templates) | getSessionRules | updateSessionRules (all replaced) |\n|---|---:|---:|');
    for (const [pages, templates] of RULE_SETS) {
      const r = (await worker.evaluate(`self.measureRules(${pages}, ${templates}, ${runs})`)) as { rules: number; read: number[]; update: number[] };
      console.log(`| ${r.rules} (${pages}, ${templates}) | ${ms(r.read)} | ${ms(r.update)} |`);
    }
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return 0;
}

runMain('extension-io-cost', () => main(process.argv.slice(2)));
