/**
 * Does Chromium hold its first paint for a preloaded font? The evidence behind CHROMIUM_HINT_LIMITS
 * (src/page/hints/hint-types.ts: in Chromium a font is preloaded only where it arrives before the paint,
 * src/page/hints/paint-slack.ts). A loopback page whose render-blocking
 * sheet arrives at ~100 ms and whose `font-display: swap` font arrives at `--font-ms` (default 600),
 * loaded bare, with a `Link` preload of the font, with the same preload at `fetchpriority=low`,
 * and with a `Link` preload of an image that arrives as late (the control: not held), `--runs`
 * times each, in turn (a first cold load is left out). Prints each load's FCP beside the sheet's and the font's response end
 * (Resource and Paint Timing). `node dist/bench/font-paint-hold.js [--font-ms 600] [--runs 3]`; no
 * lock needed (loopback, no link emulation), but quote `uptime`. What it showed is in
 * bench/README.md, "Hints in the browser".
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import puppeteer from 'puppeteer-core';
import { intValue, type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { runMain } from '../cli/run-main';
import { CHROMIUM_PATH } from '../run/chromium-contender';

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/font-paint-hold.js [--font-ms MS] [--runs N]',
  notes: ['Whether Chromium holds its first paint for a preloaded web font (loopback, no link emulation).'],
  options: {
    'font-ms': { type: 'string', value: 'MS', help: 'when the font (and the control image) arrives', default: '600' },
    runs: { type: 'string', value: 'N', help: 'loads of each kind', default: '3' },
  },
};

const LINKS: Readonly<Record<string, string>> = {
  bare: '',
  font: '</f.woff2>; rel=preload; as=font; type="font/woff2"; crossorigin=anonymous',
  'font-low': '</f.woff2>; rel=preload; as=font; type="font/woff2"; crossorigin=anonymous; fetchpriority=low',
  image: '</b.gif>; rel=preload; as=image',
  // The same font preload as a `<link>` opening the document's head, not a header.
  'font-html': '',
};
/** Loads whose preload is markup in the head rather than a `Link` header. */
const HEAD: Readonly<Record<string, string>> = { 'font-html': '<link rel=preload href="/f.woff2" as=font type="font/woff2" crossorigin>' };
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

function send(res: ServerResponse, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...extra });
  res.end(body);
}

async function main(argv: readonly string[]): Promise<number> {
  const args = benchCommandLine(argv, COMMAND);
  if (!args) return 0;
  const FONT_MS = intValue(args.values['font-ms'], 'font-ms', 600, 0, 60_000, benchUsage);
  const RUNS = intValue(args.values.runs, 'runs', 3, 1, 1000, benchUsage);
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/') {
      const hint = u.searchParams.get('hint') ?? 'bare';
      const link = LINKS[hint];
      send(res, 'text/html', `<!doctype html><html><head>${HEAD[hint] ?? ''}<link rel=stylesheet href="/s.css"></head><body><h1>Hello</h1><p class=f>text in the web font</p><div class=bg></div></body></html>`, link ? { link } : {});
    } else if (u.pathname === '/s.css') {
      setTimeout(() => send(res, 'text/css', '@font-face{font-family:F;src:url(/f.woff2) format("woff2");font-display:swap}.f{font-family:F,serif}.bg{background:url(/b.gif);height:20px}'), 100);
    } else if (u.pathname === '/f.woff2') {
      setTimeout(() => send(res, 'font/woff2', Buffer.alloc(20_000, 1), { 'access-control-allow-origin': '*' }), FONT_MS);
    } else if (u.pathname === '/b.gif') {
      setTimeout(() => send(res, 'image/gif', GIF), FONT_MS);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    console.log(`Chromium ${await browser.version()}, sheet at ~100 ms, font and image at ${FONT_MS} ms; ms from navigation start`);
    console.log('| load | FCP | sheet end | font end |\n|---|---|---|---|');
    const warm = await browser.newPage();
    await warm.goto(`http://127.0.0.1:${port}/?hint=bare&run=warm`, { waitUntil: 'load' });
    await warm.close();
    for (let run = 0; run < RUNS; run++) {
      for (const hint of Object.keys(LINKS)) {
        const page = await browser.newPage();
        await page.setCacheEnabled(false);
        await page.goto(`http://127.0.0.1:${port}/?hint=${hint}&run=${run}`, { waitUntil: 'load' });
        // The font may end after `load` (bare: it is requested once the sheet is applied).
        await new Promise((r) => setTimeout(r, FONT_MS + 300));
        const m = await page.evaluate(() => {
          const end = (suffix: string) => performance.getEntriesByType('resource').find((e) => e.name.endsWith(suffix)) as { responseEnd: number } | undefined;
          return { fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime, sheet: end('/s.css')?.responseEnd, font: end('/f.woff2')?.responseEnd };
        });
        const ms = (x: number | undefined) => (x === undefined ? '—' : String(Math.round(x)));
        console.log(`| ${hint} | ${ms(m.fcp)} | ${ms(m.sheet)} | ${ms(m.font)} |`);
        await page.close();
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  return 0;
}

runMain('font-paint-hold', () => main(process.argv.slice(2)));
