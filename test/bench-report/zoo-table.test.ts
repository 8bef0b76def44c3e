import type { RealCellResult } from '../../bench/real/real-bench';
import { zooGoals, zooMarkdown, zooRow } from '../../bench/zoo/zoo-table';
import { zooPlan } from '../../bench/zoo/zoo-plan';
import { failedRequests } from '../../bench/run/getlist-contender';

function cell(page: string, link: string, rttMs: number, runs: Record<string, Array<number | null>>): RealCellResult {
  return {
    link, rttMs, capBitsPerSec: null, page, requests: 21, runs, errors: {}, traces: {},
    server: { getlist: [{ requests: 21, heads: 1, connections: 2, protocols: ['HTTP/1.1'] }] },
    pipelining: { getlist: [{ pipelined: 12, maxDepth: 9, orderProbes: 1 }, { pipelined: 14, maxDepth: 11, orderProbes: 1 }] },
  };
}

describe('the zoo tables', () => {
  const pm = cell('pm95-2544-20', 'pm-50', 50, { browser: [420, 400, 410], getlist: [270, 280, 275], 'getlist-revisit': [240, 250, 245], chromium: [500, 520, 510] });
  const mc = cell('mcmanus-159', 'mcmanus-100', 100, { browser: [3000, 3100, 2900], getlist: [1100, 1000, 1050], 'getlist-revisit': [700, 700, 700], chromium: [4000, 4000, 4000] });

  test('goals are judged on the medians: RTTs of getlist and its revisit, gains over browser', () => {
    expect(zooGoals({ member: 'nginx', cells: [pm, mc] }).map((g) => [g.measured, g.verdict])).toEqual([
      ['5.50 RTT', 'PASS'], ['4.90 RTT', 'PASS'], ['1.49 ×', 'PASS'], ['2.86 ×', 'MISS'],
    ]);
  });

  test('a member getlist does not pipeline is held to within 3 % of browser, and the section says why', () => {
    const flat = (c: RealCellResult, gl: number): RealCellResult => ({ ...c, runs: { ...c.runs, getlist: [gl, gl, gl] }, pipelining: { getlist: [{ pipelined: 3, maxDepth: 2, orderProbes: 0 }] } });
    const goals = zooGoals({ member: 'plain', cells: [flat(pm, 420), flat(mc, 3200)] });
    expect(goals.slice(2).map((g) => [g.goal.includes('not pipelined'), g.verdict])).toEqual([[true, 'PASS'], [true, 'MISS']]);
    expect(zooMarkdown([{ member: 'plain', cells: [flat(pm, 420)] }], 'x.json')).toContain('held to within 3 % of browser');
    // Pipelined on one page, not on the other: each page is judged by its own goal.
    expect(zooGoals({ member: 'lighttpd', cells: [flat(pm, 420), mc] }).slice(2).map((g) => [g.goal.includes('not pipelined'), g.verdict])).toEqual([[true, 'PASS'], [false, 'MISS']]);
  });

  test('a traced MISS carries its reason beside the verdict; a PASS, or a member with none traced, has none', () => {
    const slow = { ...pm, runs: { ...pm.runs, getlist: [300, 300, 300] } };
    const nginx = zooGoals({ member: 'nginx', cells: [slow, mc] });
    expect(nginx.map((g) => [g.verdict, g.why !== undefined])).toEqual([['MISS', true], ['PASS', false], ['MISS', true], ['MISS', false]]);
    expect(nginx[0]?.why).toContain('Nagle');
    expect(zooGoals({ member: 'apache', cells: [slow, mc] }).every((g) => g.why === undefined)).toBe(true);
    const md = zooMarkdown([{ member: 'nginx', cells: [slow] }, { member: 'apache', cells: [slow] }], 'x.json');
    const [nginxPart, apachePart] = md.split('### apache');
    expect(nginxPart).toContain('| goal | measured | verdict | why |');
    expect(apachePart).toContain('| goal | measured | verdict |\n');
  });

  test('a goal whose cell did not run says NOT RUN', () => {
    expect(zooGoals({ member: 'varnish', cells: [pm] }).map((g) => g.verdict)).toEqual(['PASS', 'PASS', 'PASS', 'NOT RUN']);
  });

  test('a row: medians, ratios to the bound and to browser, pipelining and the server\'s view', () => {
    const row = zooRow(pm, 'nginx');
    expect(row.slice(2, 8)).toEqual(['410', '275', '—', '245', '—', '510']);
    expect(row[9]).toBe('—');
    expect(row[12]).toBe((410 / 275).toFixed(2));
    expect(row[14]).toBe('13, 10, 1');
    expect(row[15]).toBe('2 conn, HTTP/1.1');
  });

  test('a first visit with the link known has its median and its ratio to the first visit\'s bound', () => {
    const real = cell('real-late', 'real-100', 100, { getlist: [620, 625, 630], 'getlist-link': [530, 525, 540] });
    const row = zooRow(real, 'nginx');
    expect(row.slice(3, 5)).toEqual(['625', '530']);
    expect(row[8]).toBe((625 / Number(row[1])).toFixed(2));
    expect(row[9]).toBe((530 / Number(row[1])).toFixed(2));
  });

  test('a burst tail the server held back a quarter of the round trip or more is named, from the revisit traces; a shorter one is not', () => {
    const req = (url: string, connection: number, sentMs: number, firstByteMs: number, doneMs: number) => ({ url, connection, discoveredMs: 0, sentMs, firstByteMs, doneMs });
    const traced = (tailMs: number): RealCellResult => ({
      ...pm,
      traces: { 'getlist-revisit': [{ connections: [], requests: [req('a', 1, 10, 60, 61), req('b', 1, 10, 61, 61 + tailMs)] }] },
    });
    expect(zooMarkdown([{ member: 'caddy', cells: [traced(45)] }], 'x.json')).toContain('the last response of a pipelined burst took a median 45.0 ms from its first byte to its last (1 bursts), every other response 1.0 ms');
    expect(zooMarkdown([{ member: 'caddy', cells: [traced(5)] }], 'x.json')).not.toContain('pipelined burst took');
  });

  test('a member that could not start says why instead of a table', () => {
    const md = zooMarkdown([{ member: 'h2o', cells: [], error: 'E_ZOO_FAILED: h2o: exited' }], 'x.json');
    expect(md).toContain('### h2o');
    expect(md).toContain('Not measured: E_ZOO_FAILED');
  });
});

describe('the zoo plan and its failures, named', () => {
  test('--pages keeps only those pages\' cells, and drops a link left with none', () => {
    const all = zooPlan('nginx', ['pm', 'real']);
    expect(all.map((p) => p.cells.length)).toEqual([1, 4]);
    const news = zooPlan('nginx', ['pm', 'real'], ['real-news']);
    expect(news.map((p) => [p.link.name, p.cells.map((c) => c.page)])).toEqual([['real-100', ['real-news']]]);
  });

  test('a run\'s failed requests are listed by host, path, code and time, not only counted', () => {
    const run = {
      requests: [
        { url: 'https://static.example.test/real-news/js/j0.js', error: { code: 'E_RESPONSE_FAILED', message: 'stalled' }, doneMs: 15620.1 },
        { url: 'https://static.example.test/real-news/js/j1.js', error: null, doneMs: 621 },
      ],
    };
    expect(failedRequests(run)).toEqual(['static.example.test/real-news/js/j0.js E_RESPONSE_FAILED (after 15620 ms)']);
    expect(failedRequests({})).toEqual([]);
  });
});
