import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { judgeRun, type JudgedStep } from '../../bench/navigate/nav-judge';
import { parseNavLog, readRunLogs, type NavLogEntry } from '../../bench/navigate/nav-log';
import { renderNavNginxConfig } from '../../bench/navigate/nav-nginx';
import { followLinks, INDEX_PATH, LIVE_PATH, NAV_ORIGINS, NEVER_LINKS, navSiteFiles, SITE_PAGES } from '../../bench/navigate/nav-site';
import { summarize, type NavCell, type NavRun } from '../../bench/navigate/nav-cell';
import { navTable } from '../../bench/navigate/nav-table';
import { navSectionBody } from '../../bench/navigate/nav-section';
import { parseNavArgs } from '../../bench/navigate/nav-args';
import { NAV_CONTENDERS, prerenders, settingsFor, usesExtension } from '../../bench/navigate/nav-contenders';
import { parseSettingsPatch } from '../../src/page/messages/settings';
import { userPath } from '../../bench/navigate/user-path';
import type { StepResult } from '../../bench/navigate/walk';
import { replaceSection } from '../../bench/cli/markdown-section';

const www = NAV_ORIGINS.www;
const cdn = NAV_ORIGINS.cdn;
/** A log line as nav-nginx.ts NAV_LOG_FORMAT writes it. */
const line = (sec: number, host: string, uri: string, bytes: number, purpose = '-', xMoz = '-') => `${sec.toFixed(3)} ${host} 200 ${bytes} 0.010 "${uri}" "${purpose}" "${xMoz}"`;

describe('the scripted user\'s path', () => {
  it('is the same for a seed, different for another, and follows the site\'s links', () => {
    const path = userPath(7, 24);
    expect(userPath(7, 24)).toEqual(path);
    expect(userPath(8, 24)).not.toEqual(path);
    expect(path).toHaveLength(24);
    expect(path[0]).toMatchObject({ from: INDEX_PATH, click: LIVE_PATH });
    for (const [i, step] of path.entries()) {
      expect(followLinks(step.from)).toContain(step.click);
      expect(step.hovers.length).toBeGreaterThanOrEqual(1);
      expect(step.hovers.length).toBeLessThanOrEqual(2);
      expect(step.hovers).not.toContain(step.click);
      if (i > 0) expect(step.from).toBe(path[i - 1]?.click);
    }
  });

  it('hovers every never link over a run of 24, and clicks none but the no-store page it visits first', () => {
    const path = userPath(1, 24);
    const hovered = new Set(path.flatMap((s) => s.hovers));
    for (const l of NEVER_LINKS) expect(hovered).toContain(l.href);
    const clicked = new Set(path.map((s) => s.click));
    for (const l of NEVER_LINKS.filter((n) => n.href !== LIVE_PATH)) expect(clicked).not.toContain(l.href);
  });
});

describe('the site', () => {
  const files = navSiteFiles();
  it('serves every page on the first party, with the never links and an LCP image on the CDN', () => {
    for (const page of SITE_PAGES) {
      const html = files.find((f) => f.origin === www && f.path === page)?.body.toString() ?? '';
      for (const l of NEVER_LINKS) expect(html).toContain(`href="${l.href}"`);
      expect(html).toMatch(new RegExp(`https://${cdn.replace(/\./g, '\\.')}/img/[^"]+-hero\\.gif`));
      for (const href of followLinks(page)) expect(html).toContain(`href="${href}"`);
    }
    // Every never link's target exists (a fetch of one would be a 200 in the log, not a 404).
    for (const l of NEVER_LINKS) {
      const path = l.uri.replace(/\?.*$/, '');
      expect(files.some((f) => f.origin === www && (f.path === path || f.path === `${path}index.html`))).toBe(true);
    }
  });

  it('nginx caches by class: documents revalidated, CDN immutable, the ticker and account pages no-store, one log per origin', () => {
    const conf = renderNavNginxConfig('/w', { [www]: '198.19.0.1', [cdn]: '198.19.0.2', [NAV_ORIGINS.third]: '198.19.0.3' }, files, { certPath: '/c', keyPath: '/k' });
    expect(conf).toContain(`location = ${LIVE_PATH} { add_header Cache-Control "no-store" always;`);
    expect(conf).toContain('location = /account/sign-out { add_header Cache-Control "no-store"');
    expect(conf).toContain('location = /members/ { add_header Cache-Control "no-store"');
    expect(conf).toContain('add_header Cache-Control "public, max-age=31536000, immutable" always;');
    for (const o of Object.values(NAV_ORIGINS)) expect(conf).toContain(`access_log /w/${o}.log nav;`);
  });
});

describe('the judge over the servers\' log', () => {
  const steps: JudgedStep[] = [
    { step: 0, target: '/articles/a1.html', hoverAt: 10_000 },
    { step: 1, target: '/articles/a2.html', hoverAt: 20_000 },
  ];
  const log: NavLogEntry[] = parseNavLog([
    line(5, www, INDEX_PATH, 30_000),
    line(5.1, cdn, '/css/site.css', 25_000),
    // Step 0: a hovered link fetched ahead and not clicked, the clicked one fetched ahead and used.
    line(10.2, www, '/articles/a3.html', 20_000, 'prefetch'),
    line(10.5, www, '/articles/a1.html', 21_000, 'prefetch'),
    line(10.9, cdn, '/img/articles-a1-hero.gif', 140_000),
    // Step 1: a never link fetched ahead; the clicked page fetched twice.
    line(20.1, www, '/cart', 900, 'prefetch'),
    line(20.6, www, '/articles/a2.html', 20_000),
    line(20.9, www, '/articles/a2.html', 20_000),
    line(21, www, '/favicon.ico', 200),
    line(21.5, www, '/favicon.ico', 200),
  ].join('\n'));

  it('parses every line', () => {
    expect(log).toHaveLength(10);
    expect(log[2]).toMatchObject({ host: www, uri: '/articles/a3.html', bytes: 20_000, secPurpose: 'prefetch', xMoz: '' });
  });

  it('counts bytes, speculation used and unused, never requests and duplicates per step', () => {
    const j = judgeRun(log, steps);
    expect(j.requests).toBe(10);
    expect(j.speculative).toEqual({ requests: 3, bytes: 41_900, unusedBytes: 20_900 });
    expect(j.speculatedSteps).toEqual([0]);
    expect(j.speculativeSteps).toEqual([0, 1]);
    expect(j.neverRequests).toBe(1);
    expect(j.never.find((n) => n.kind === 'cart')?.requests).toBe(1);
    // The favicon is the browser's own, whatever the cache holds.
    expect(j.duplicates).toEqual([{ step: 1, url: `${www}/articles/a2.html`, count: 2 }]);
  });

  it('counts a prerender’s images against the page they belong to: the clicked page’s are used, the other page’s are not', () => {
    const pr = 'prefetch;prerender';
    const j = judgeRun(parseNavLog([
      line(10.1, www, '/articles/a3.html', 20_000, pr),
      line(10.2, cdn, '/img/articles-a3-hero.gif', 140_000, pr),
      line(10.3, www, '/articles/a1.html', 21_000, pr),
      line(10.4, cdn, '/img/articles-a1-hero.gif', 140_000, pr),
      line(10.5, cdn, '/css/site.css', 25_000, pr),
    ].join('\n')), steps);
    expect(j.speculative.unusedBytes).toBe(160_000);
  });

  it('takes a range pair for a body resumed from the cache, not for a duplicate; two whole fetches stay a duplicate', () => {
    const hero = (sec: number, range: string, status = 206, purpose = 'prefetch;prerender', page = 'a4') => `${sec.toFixed(3)} ${cdn} ${status} 212 0.010 "/img/articles-${page}-hero.gif" "${purpose}" "-" "image" "no-cors" 11 "https://${www}/" "${range}"`;
    const j = judgeRun(parseNavLog([hero(20.1, 'bytes=90085-90085'), hero(20.2, 'bytes=90085-139999')].join('\n')), steps);
    expect(j.duplicates).toEqual([]);
    expect(j.resumed).toEqual([{ step: 1, url: `${cdn}/img/articles-a4-hero.gif`, count: 2 }]);
    // The clicked page's (a2's) image, prerendered, then fetched again by its own load.
    const twice = judgeRun(parseNavLog([hero(20.1, '-', 200, 'prefetch;prerender', 'a2'), hero(20.2, '-', 200, '-', 'a2')].join('\n')), steps);
    expect(twice.duplicates).toEqual([{ step: 1, url: `${cdn}/img/articles-a2-hero.gif`, count: 2 }]);
    expect(twice.resumed).toEqual([]);
  });

  it('reads the lines a run wrote with --logs, gzipped or not, and names a bad line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nav-logs-'));
    const lines = [{ browser: 'chromium', link: '100 ms, 20 Mbit/s', cache: 'on', contender: 'getlist', step: 0, ...(log[0] as NavLogEntry) }];
    const text = lines.map((l) => JSON.stringify(l)).join('\n');
    writeFileSync(join(dir, 'a.jsonl.gz'), gzipSync(text));
    writeFileSync(join(dir, 'b.jsonl'), `${text}\nnot json\n`);
    const fail = (m: string) => new Error(m);
    expect(readRunLogs(join(dir, 'a.jsonl.gz'), fail)).toEqual(lines);
    expect(() => readRunLogs(join(dir, 'b.jsonl'), fail)).toThrow(/line 2 is not JSON/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes one file fetched ahead by two prerendered pages (the cache off) for bytes ahead, not for a duplicate', () => {
    const pr = 'prefetch;prerender';
    const j = judgeRun(parseNavLog([
      line(20.1, www, '/articles/a3.html', 20_000, pr),
      line(20.2, cdn, '/css/site.css', 25_000, pr),
      line(20.4, www, '/articles/a2.html', 21_000, pr),
      line(20.5, cdn, '/css/site.css', 25_000, pr),
    ].join('\n')), steps);
    expect(j.duplicates).toEqual([]);
    expect(j.speculative.unusedBytes).toBe(20_000 + 25_000);
  });

  it('takes a shared file fetched ahead for a hovered page, then by the click’s own load, for that page’s unused bytes', () => {
    const j = judgeRun(parseNavLog([
      line(20.1, www, '/articles/a3.html', 20_000, 'prefetch;prerender'),
      line(20.2, cdn, '/css/site.css', 25_000, 'prefetch;prerender'),
      line(20.6, www, '/articles/a2.html', 21_000),
      line(20.7, cdn, '/css/site.css', 25_000),
    ].join('\n')), steps);
    expect(j.duplicates).toEqual([]);
    expect(j.speculative.unusedBytes).toBe(45_000);
    // Had the clicked page been fetched ahead too, the sheet fetched again by its load is a duplicate.
    const again = judgeRun(parseNavLog([
      line(20.1, www, '/articles/a2.html', 21_000, 'prefetch;prerender'),
      line(20.2, cdn, '/css/site.css', 25_000, 'prefetch;prerender'),
      line(20.7, cdn, '/css/site.css', 25_000),
    ].join('\n')), steps);
    expect(again.duplicates).toEqual([{ step: 1, url: `${cdn}/css/site.css`, count: 2 }]);
  });

  it('lets the user\'s own click on the no-store page through, but not a fetch ahead of it', () => {
    const live: JudgedStep[] = [{ step: 0, target: LIVE_PATH, hoverAt: 10_000 }];
    expect(judgeRun(parseNavLog(line(10.5, www, LIVE_PATH, 5000)), live).neverRequests).toBe(0);
    expect(judgeRun(parseNavLog([line(10.2, www, LIVE_PATH, 5000, 'prefetch'), line(10.5, www, LIVE_PATH, 5000)].join('\n')), live).neverRequests).toBe(1);
    // Its first answer is what says no-store: a fetch ahead of it that the click used is first sight, counted apart; one after it counts.
    const used = judgeRun(parseNavLog(line(10.2, www, LIVE_PATH, 5000, 'prefetch')), live);
    expect([used.neverRequests, used.neverFirstSight]).toEqual([0, 1]);
    const again = judgeRun(parseNavLog([line(10.2, www, LIVE_PATH, 5000, 'prefetch'), line(12.2, www, LIVE_PATH, 5000, 'prefetch')].join('\n')), [...live, { step: 1, target: '/index.html', hoverAt: 12_000 }]);
    expect([again.neverRequests, again.neverFirstSight]).toEqual([1, 1]);
    // Firefox's link prefetch marks its requests with X-Moz.
    expect(judgeRun(parseNavLog(line(10.2, www, '/checkout', 900, '-', 'prefetch')), live).neverRequests).toBe(1);
  });
});

describe('a cell\'s summary and table', () => {
  const step = (i: number, lcpMs: number, extra: Partial<StepResult> = {}): StepResult => ({ step: i, target: `/articles/a${i + 1}.html`, hoverAt: 0, clickAt: 0, settledAt: 0, pointerEvents: 2, lcpMs, deliveryType: '', activationStart: 0, ...extra });
  const judgement = (bytes: number, unusedBytes = 0) => ({ requests: 1, bytes, speculative: { requests: 0, bytes: 0, unusedBytes }, never: [], neverRequests: 0, duplicates: [], speculatedSteps: [], speculativeSteps: [0, 1] });
  const run = (contender: NavRun['contender'], steps: StepResult[], bytes: number, unused = 0): NavRun => ({ contender, startedAt: 0, endedAt: 1, steps, judgement: judgement(bytes, unused) });
  const cell: NavCell = {
    browser: 'chromium', link: '100 ms, 20 Mbit/s', cache: 'on',
    runs: [
      run('alone', [step(0, 600, { ttfbMs: 110 }), step(1, 620, { ttfbMs: 120 }), step(2, 580, { ttfbMs: 100 })], 1_000_000),
      run('getlist', [step(0, 200, { deliveryType: 'navigational-prefetch' }), step(1, 250, { deliveryType: 'navigational-prefetch' }), step(2, 590)], 1_100_000, 50_000),
    ],
  };

  it('medians over followed links, the share served by speculation, bytes ahead against the run alone', () => {
    expect(summarize(cell, 'getlist')).toEqual({
      // Per link: 200/600, 250/620 and 590/580, whose median is 0.403.
      followed: 3, paint: 'lcp', aloneMedianMs: 600, getlistMedianMs: 250, ratio: 0.417, linkRatio: 0.403, speculated: 2, prerendered: 0,
      unusedShare: 0.05, extraShare: 0.1, neverRequests: 0, neverFirstSight: 0, duplicates: 0, resumed: 0, quietSteps: 1, quietRatio: 1.017, pointerSteps: 3,
      // Alone spent 490, 500 and 480 ms after the document's first byte: a prefetch leaves those.
      floor: { kind: 'document', ratio: 0.817, linkRatio: 0.817 },
      byVisit: { first: { steps: 3, ratio: 0.417, linkRatio: 0.403 }, repeat: { steps: 0, ratio: null, linkRatio: null } },
    });
  });

  it('splits the ratio between a page’s first visit in the walk and its repeats', () => {
    const again = (i: number, lcpMs: number, extra: Partial<StepResult> = {}) => ({ ...step(i, lcpMs, extra), target: '/articles/a1.html' });
    const c: NavCell = { ...cell, runs: [
      run('alone', [step(0, 600), step(1, 620), again(2, 160)], 1_000_000),
      run('getlist', [step(0, 450), step(1, 470), again(2, 80)], 1_000_000),
    ] };
    expect(summarize(c, 'getlist')?.byVisit).toEqual({ first: { steps: 2, ratio: 0.754, linkRatio: 0.754 }, repeat: { steps: 1, ratio: 0.5, linkRatio: 0.5 } });
  });

  it('counts a step back to the index, loaded before the walk’s first step, as a repeat visit', () => {
    const home = (i: number, lcpMs: number) => ({ ...step(i, lcpMs), target: '/index.html' });
    const c: NavCell = { ...cell, runs: [
      run('alone', [step(0, 600), home(1, 170)], 1_000_000),
      run('getlist', [step(0, 450), home(1, 85)], 1_000_000),
    ] };
    expect(summarize(c, 'getlist')?.byVisit).toEqual({ first: { steps: 1, ratio: 0.75, linkRatio: 0.75 }, repeat: { steps: 1, ratio: 0.5, linkRatio: 0.5 } });
  });

  it('judges the goal per link: with half the links first visits, the ratio of medians is one of the repeat visits\' slowest tails', () => {
    const again = (i: number, lcpMs: number) => ({ ...step(i, lcpMs), target: '/articles/a1.html' });
    // Two first visits (slow in both) and two repeats, the slower repeat slow in the contender's run only.
    const c: NavCell = { ...cell, runs: [
      run('alone', [step(0, 400), step(1, 420), again(2, 120), again(3, 130)], 1_000_000),
      run('getlist', [step(0, 340), step(1, 360), again(2, 60), again(3, 300)], 1_000_000),
    ] };
    const s = summarize(c, 'getlist');
    // Medians 265 and 320: a 1.21 set by the one slow repeat; per link 0.5, 0.85, 0.857 and 2.31.
    expect([s?.ratio, s?.linkRatio]).toEqual([1.208, 0.854]);
    expect(navTable([{ ...c, summaries: { getlist: s } }])).toContain('| 1.21 | 0.85 |');
  });

  it('puts a prerender against the paint of the steps it had wholly loaded before the click', () => {
    const prerender = run('getlist-prerender', [
      step(0, 90, { activationStart: 120, heroEndMs: 0 }),
      step(1, 130, { activationStart: 110, heroEndMs: 0 }),
      step(2, 300, { activationStart: 100, heroEndMs: 250 }),
    ], 1_200_000);
    const s = summarize({ ...cell, runs: [...cell.runs, prerender] }, 'getlist-prerender');
    // Per link: 90/600 and 130/620.
    expect(s?.floor).toEqual({ kind: 'ready', steps: 2, ratio: 0.183, linkRatio: 0.18 });
    const table = navTable([{ ...cell, runs: [cell.runs[0] as NavRun, prerender], summaries: { 'getlist-prerender': s } }]);
    expect(table).toContain('| 0.22 | 0.21 | 0.21 (3) / – (0) | 0.18 [0.18] (ready, 2 steps) | 3/3 | 3 |');
    expect(table).toContain('LCP ≤ 0.25 × alone: met;');
  });

  it('says when a goal is below its floor', () => {
    const slow = run('getlist', [step(0, 560, { deliveryType: 'navigational-prefetch' }), step(1, 570, { deliveryType: 'navigational-prefetch' }), step(2, 550, { deliveryType: 'navigational-prefetch' })], 1_000_000);
    const c = { ...cell, runs: [cell.runs[0] as NavRun, slow] };
    expect(navTable([{ ...c, summaries: { getlist: summarize(c, 'getlist') } }])).toContain('LCP ≤ 0.5 × alone: NOT met (its floor 0.82 is above the goal)');
  });

  it('judges the headline goals on Chromium, cache on, 100 ms', () => {
    const table = navTable([{ ...cell, summaries: { getlist: summarize(cell, 'getlist') } }]);
    expect(table).toContain('| chromium | 100 ms, 20 Mbit/s | on | getlist | 3 | LCP | 600 | 250 | 0.42 | 0.40 | 0.40 (3) / – (0) | 0.82 [0.82] (document only) | 2/3 |');
    expect(table).toContain('LCP ≤ 0.5 × alone: met; ≥ 60 % speculated: met; extra bytes ≤ 15 %: met; 0 never: met; 0 duplicates: met');
  });

  it('pools the walks of a cell walked several times: medians over every walk\'s pairs, first visits per walk, bytes and counts summed; one row', () => {
    const again = (i: number, lcpMs: number) => ({ ...step(i, lcpMs), target: '/articles/a1.html' });
    const walk = (w: number, alone: StepResult[], ext: StepResult[], unused: number): NavRun[] => [
      { ...run('alone', alone, 1_000_000), walk: w },
      { ...run('getlist', ext, 1_100_000, unused), walk: w, judgement: { ...judgement(1_100_000, unused), duplicates: w === 2 ? [{ step: 1, url: '/x', count: 2 }] : [] } },
    ];
    const c: NavCell = { ...cell, runs: [
      ...walk(1, [step(0, 600), again(1, 200)], [step(0, 480), again(1, 90)], 10_000),
      // Each walk starts from a fresh profile: its first step opens a page for the first time again.
      ...walk(2, [step(0, 640), again(1, 180)], [step(0, 500), again(1, 110)], 30_000),
    ] };
    const s = summarize(c, 'getlist');
    expect(s).toMatchObject({
      followed: 4, walks: 2, aloneMedianMs: 400, getlistMedianMs: 295, ratio: 0.738,
      byVisit: { first: { steps: 2, ratio: 0.79 }, repeat: { steps: 2, ratio: 0.526 } },
      unusedShare: 0.02, extraShare: 0.1, duplicates: 1, pointerSteps: 4,
    });
    const table = navTable([{ ...c, summaries: { getlist: s } }]);
    expect(table.split('\n').filter((l) => l.startsWith('| chromium'))).toEqual([expect.stringContaining('| getlist | 4 (2 walks) | LCP | 400 | 295 | 0.74 |')]);
    // A walk whose alone run failed is left out, not paired with another walk's.
    const broken: NavCell = { ...c, runs: c.runs.map((r) => (r.walk === 2 && r.contender === 'alone' ? { ...r, error: 'browser crashed' } : r)) };
    expect(summarize(broken, 'getlist')).toMatchObject({ followed: 2, aloneMedianMs: 400, getlistMedianMs: 285 });
    expect(summarize(broken, 'getlist')?.walks).toBeUndefined();
  });

  it('reports a cell walked again in a later file in place of the earlier one, each row one walk', () => {
    const summed = (c: NavCell): NavCell => ({ ...c, summaries: { getlist: summarize(c, 'getlist') } });
    const firefox = summed({ ...cell, browser: 'firefox' });
    const again = summed({ ...cell, runs: [cell.runs[0] as NavRun, run('getlist', [step(0, 300), step(1, 300), step(2, 300)], 1_000_000)] });
    const body = navSectionBody([{ file: 'a.json', cells: [summed(cell), firefox] }, { file: 'b.json', cells: [again] }]);
    const rows = body.split('\n').filter((l) => l.startsWith('| chromium') || l.startsWith('| firefox'));
    expect(rows.map((r) => r.split(' | ').slice(0, 9).join(' | '))).toEqual([
      '| chromium | 100 ms, 20 Mbit/s | on | getlist | 3 | LCP | 600 | 300 | 0.50',
      '| firefox | 100 ms, 20 Mbit/s | on | getlist | 3 | LCP | 600 | 250 | 0.42',
    ]);
    expect(body).toContain('every step in `a.json`');
    expect(body).toContain('every step in `b.json`');
  });
});

describe('the command line and the report section', () => {
  it('--quick is one browser, one link, cache on, six navigations', () => {
    expect(parseNavArgs(['--quick'])).toMatchObject({ browsers: ['chromium'], caches: ['on'], steps: 6 });
    expect(parseNavArgs([]).links.map((l) => l.name)).toEqual(['100 ms, 20 Mbit/s', '40 ms, 5 Mbit/s']);
    // Judging a run again needs the log lines it wrote.
    expect(() => parseNavArgs(['--rejudge', 'r.json'])).toThrow(/--rejudge needs --logs/);
    expect(parseNavArgs(['--rejudge', 'r.json', '--logs', 'l.jsonl'])).toMatchObject({ rejudge: 'r.json', logs: 'l.jsonl' });
    expect(() => parseNavArgs(['--browsers', 'safari'])).toThrow(/unknown "safari"/);
  });

  it('replaces its own section of RESULTS.md, or inserts it before the named one', () => {
    const md = '# R\n\n## A\n\na\n\n## Figures\n\nf\n';
    const once = replaceSection(md, 'Nav', 'table 1', 'Figures');
    expect(once).toBe('# R\n\n## A\n\na\n\n## Nav\n\ntable 1\n\n## Figures\n\nf\n');
    expect(replaceSection(once, 'Nav', 'table 2', 'Figures')).toBe('# R\n\n## A\n\na\n\n## Nav\n\ntable 2\n\n## Figures\n\nf\n');
  });
});

describe('the contenders', () => {
  test('each extension contender\'s settings are ones the extension takes, and name the prerender, eagerness and hints it walks with', () => {
    expect(NAV_CONTENDERS.filter(usesExtension)).toEqual(['getlist', 'getlist-prerender', 'getlist-prerender-eager', 'getlist-no-hints']);
    expect(NAV_CONTENDERS.filter(prerenders)).toEqual(['getlist-prerender', 'getlist-prerender-eager']);
    expect(settingsFor('getlist')).toBeUndefined();
    expect(parseSettingsPatch(settingsFor('getlist-prerender'))).toEqual({ prerender: true });
    expect(parseSettingsPatch(settingsFor('getlist-prerender-eager'))).toEqual({ prerender: true, eagerness: 'eager' });
    expect(parseSettingsPatch(settingsFor('getlist-no-hints'))).toEqual({ hints: false });
    // Walked only when named.
    expect(parseNavArgs([]).only).toBeUndefined();
    expect(parseNavArgs(['--only', 'alone,getlist-no-hints']).only).toEqual(['alone', 'getlist-no-hints']);
  });
});
