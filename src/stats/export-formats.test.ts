import { mulberry32 } from '../core/prng';
import type { SourcedHandshake } from './handshake-stats';
import { ALL_KEY, EXACT_THRESHOLDS_MS, aggregateHandshakes } from './handshake-stats';
import { CSV_HEADER, PROM_LE, PROM_METRIC, escapeLabelValue, exportCsv, exportJson, exportPrometheus, exportStats, isExportFormat } from './export-formats';
import { Histogram } from './histogram';

// Origins a test server could never have, to exercise quoting and escaping.
const NASTY = 'https://q"uo,te\\back\nslash.test';
const ORIGINS = ['https://a.test', 'http://b.test:8080', NASTY];

/** Stored sources: the browser's own records (resumption not exposed), the host's and the CLI's. */
const SOURCES = ['browser', 'measure', 'cli', 'replay'] as const;

function records(seed: number, n: number): SourcedHandshake[] {
  const rand = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => {
    const origin = ORIGINS[i % ORIGINS.length] as string;
    const https = origin.startsWith('https:');
    // A few values sit exactly on `le` boundaries: Prometheus counts them (v ≤ le).
    const pick = () => (rand() < 0.1 ? (EXACT_THRESHOLDS_MS[Math.floor(rand() * EXACT_THRESHOLDS_MS.length)] as number) : 10 ** (-1 + rand() * 5));
    const dnsMs = rand() < 0.3 ? 0 : pick();
    const tcpMs = pick();
    const tlsMs = https ? pick() : 0;
    const source = SOURCES[Math.floor(i / 3) % SOURCES.length] as string;
    return {
      connectionId: i, origin, startedAt: 1_700_000_000_000 + i, dnsMs, tcpMs, tlsMs, totalMs: dnsMs + tcpMs + tlsMs,
      remoteAddress: undefined, remotePort: undefined, localPort: undefined,
      protocol: https && i % 2 === 0 ? 'h2' : 'http/1.1', tlsVersion: https ? 'TLSv1.3' : undefined,
      resumed: source === 'browser' ? undefined : https && i % 3 === 0, source,
    };
  });
}

const tlsOf = (r: SourcedHandshake) => (r.origin.startsWith('https:') ? (r.resumed === undefined ? 'unknown' : r.resumed ? 'resumed' : 'full') : 'none');
const sourceOf = (r: SourcedHandshake) => (r.source === 'measure' || r.source === 'replay' ? 'host' : r.source);
const inSeries = (r: SourcedHandshake, l: Record<string, string>) => r.origin === l.origin && r.protocol === l.protocol && tlsOf(r) === l.tls && sourceOf(r) === l.source;

/** RFC 4180 reader: CRLF records, quoted fields with doubled quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"' && field === '') {
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) throw new Error('unterminated quote');
        field += text.slice(j, q);
        if (text[q + 1] === '"') {
          field += '"';
          j = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
    } else if (c === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else if (c === '\n' || c === '\r' || c === '"') {
      throw new Error(`bare ${JSON.stringify(c)} at ${i}`);
    } else {
      field += c;
      i++;
    }
  }
  if (field !== '' || row.length > 0) throw new Error('last record not terminated by CRLF');
  return rows;
}

interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Reader for the text exposition format 0.0.4 (the subset a histogram uses). */
function parseProm(text: string): { samples: PromSample[]; help: string[]; type: string[] } {
  const samples: PromSample[] = [];
  const help: string[] = [];
  const type: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ')) help.push(line);
    else if (line.startsWith('# TYPE ')) type.push(line);
    else if (line.startsWith('#')) continue;
    else {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} (\S+)$/.exec(line);
      if (!m) throw new Error(`bad sample line: ${line}`);
      const labels: Record<string, string> = {};
      const body = m[2] as string;
      let i = 0;
      while (i < body.length) {
        const lm = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(body.slice(i));
        if (!lm) throw new Error(`bad label at ${i} in ${line}`);
        i += lm[0].length;
        let v = '';
        for (;;) {
          const c = body[i++];
          if (c === undefined) throw new Error(`unterminated label value in ${line}`);
          if (c === '"') break;
          if (c === '\\') {
            const e = body[i++];
            v += e === 'n' ? '\n' : e === '\\' ? '\\' : e === '"' ? '"' : `\\${e}`;
          } else if (c === '\n') throw new Error('raw newline in a label value');
          else v += c;
        }
        labels[lm[1] as string] = v;
        if (body[i] === ',') i++;
      }
      const raw = m[3] as string;
      samples.push({ name: m[1] as string, labels, value: raw === '+Inf' ? Infinity : Number(raw) });
    }
  }
  return { samples, help, type };
}

describe('prom', () => {
  const recs = records(42, 500);
  const text = exportPrometheus(aggregateHandshakes(recs));
  const { samples, help, type } = parseProm(text);
  const seriesKey = (l: Record<string, string>) => JSON.stringify([l.phase, l.origin, l.protocol, l.tls, l.source]);

  test('one HELP and one TYPE histogram line, then only the metric family', () => {
    expect(help).toEqual([expect.stringMatching(new RegExp(`^# HELP ${PROM_METRIC} `))]);
    expect(type).toEqual([`# TYPE ${PROM_METRIC} histogram`]);
    expect(new Set(samples.map((s) => s.name))).toEqual(new Set([`${PROM_METRIC}_bucket`, `${PROM_METRIC}_sum`, `${PROM_METRIC}_count`]));
    expect(PROM_LE).toEqual(['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf']);
  });

  test('buckets are cumulative, end at +Inf = _count, and _count over phase="total" is the number of records', () => {
    const bySeries = new Map<string, PromSample[]>();
    for (const s of samples) bySeries.set(seriesKey(s.labels), [...(bySeries.get(seriesKey(s.labels)) ?? []), s]);
    let totalCount = 0;
    for (const [, ss] of bySeries) {
      const buckets = ss.filter((s) => s.name.endsWith('_bucket'));
      expect(buckets.map((b) => b.labels.le)).toEqual(PROM_LE);
      for (let i = 1; i < buckets.length; i++) expect((buckets[i] as PromSample).value).toBeGreaterThanOrEqual((buckets[i - 1] as PromSample).value);
      const count = ss.find((s) => s.name.endsWith('_count'))?.value;
      expect(buckets.at(-1)?.value).toBe(count);
      if (ss[0]?.labels.phase === 'total') totalCount += count as number;
    }
    expect(totalCount).toBe(recs.length);
    expect(samples.filter((s) => s.name.endsWith('_count') && s.labels.phase === 'tls').reduce((a, s) => a + s.value, 0)).toBe(recs.filter((r) => r.origin.startsWith('https:')).length);
  });

  test('bucket counts are exact: the number of raw values ≤ le, values on the boundary included', () => {
    const phaseOf = { dns: (r: SourcedHandshake) => r.dnsMs, tcp: (r: SourcedHandshake) => r.tcpMs, tls: (r: SourcedHandshake) => r.tlsMs, total: (r: SourcedHandshake) => r.totalMs };
    let onBoundary = 0;
    for (const s of samples) {
      if (!s.name.endsWith('_bucket') || s.labels.le === '+Inf') continue;
      const leMs = Number(s.labels.le) * 1000;
      const mine = recs.filter((r) => inSeries(r, s.labels));
      const values = mine.map(phaseOf[s.labels.phase as keyof typeof phaseOf]);
      onBoundary += values.filter((v) => v === leMs).length;
      expect(s.value).toBe(values.filter((v) => v <= leMs).length);
    }
    expect(onBoundary).toBeGreaterThan(0); // The check above did meet boundary values.
  });

  test('_sum is the sum of the values in seconds (each rounded to 1 µs)', () => {
    for (const s of samples.filter((x) => x.name.endsWith('_sum') && x.labels.phase === 'total')) {
      const mine = recs.filter((r) => inSeries(r, s.labels));
      expect(s.value).toBe(mine.reduce((a, r) => a + Math.round(r.totalMs * 1000), 0) / 1000 / 1000);
    }
  });

  test('label values escape backslash, double quote and newline, and read back unchanged', () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
    expect(text.split('\n').some((l) => l.includes('\\n'))).toBe(true);
    expect(samples.filter((s) => s.labels.origin === NASTY).length).toBeGreaterThan(0);
    expect(new Set(samples.map((s) => s.labels.origin))).toEqual(new Set(ORIGINS));
  });

  test("every series names its source; the browser's https series keep resumption unknown", () => {
    expect(new Set(samples.map((s) => s.labels.source))).toEqual(new Set(['browser', 'host', 'cli']));
    expect(new Set(samples.filter((s) => s.labels.source === 'browser' && (s.labels.origin ?? '').startsWith('https:')).map((s) => s.labels.tls))).toEqual(new Set(['unknown']));
  });

  test('no records: just the HELP and TYPE lines', () => {
    expect(parseProm(exportPrometheus(aggregateHandshakes([])))).toEqual({ samples: [], help: [expect.any(String)], type: [expect.any(String)] });
  });
});

describe('csv', () => {
  const recs = records(3, 200);
  const stats = aggregateHandshakes(recs);
  const rows = parseCsv(exportCsv(stats));

  test('header, then one row per CDF point of every group and phase', () => {
    expect(rows[0]).toEqual([...CSV_HEADER]);
    const expected = stats.groups().reduce((a, g) => a + [...g.phases.values()].reduce((b, p) => b + p.histogram.cdf().length, 0), 0);
    expect(rows.length - 1).toBe(expected);
    for (const r of rows.slice(1)) {
      expect(r).toHaveLength(6);
      expect(['all', 'origin', 'protocol', 'tls', 'source']).toContain(r[0]);
      expect(Number.isFinite(Number(r[3])) && Number(r[4]) > 0 && Number(r[4]) <= 1 && Number.isInteger(Number(r[5]))).toBe(true);
    }
  });

  test('RFC 4180 quoting carries an origin with comma, quote and newline intact', () => {
    expect(rows.some((r) => r[0] === 'origin' && r[1] === NASTY)).toBe(true);
    expect(exportCsv(stats)).toContain('"https://q""uo,te\\back\nslash.test"');
  });

  test("the source group counts each source's records: the browser's own, the host's (measure and replay) and the CLI's", () => {
    for (const source of ['browser', 'host', 'cli']) {
      const last = rows.filter((r) => r[0] === 'source' && r[1] === source && r[2] === 'tcp').at(-1);
      expect(last?.slice(4)).toEqual(['1', String(recs.filter((r) => sourceOf(r) === source).length)]);
    }
  });

  test('each phase CDF ends at 1 with the full count', () => {
    const lastTotal = rows.filter((r) => r[0] === 'all' && r[1] === ALL_KEY && r[2] === 'total').at(-1);
    expect(lastTotal?.slice(4)).toEqual(['1', String(recs.length)]);
  });
});

describe('json', () => {
  test('the aggregation, mergeable histograms and the page summaries', () => {
    const recs = records(9, 120);
    const pages = [{ pageId: 'p1', url: 'https://a.test/', totalMs: 12 }];
    const doc = JSON.parse(exportJson(aggregateHandshakes(recs), pages, { exportedAt: '2025-01-01T00:00:00.000Z' }));
    expect(doc).toMatchObject({ format: 'getlist-handshake-stats', version: 1, exportedAt: '2025-01-01T00:00:00.000Z', count: 120, pages });
    const origins = doc.groups.filter((g: { group: string }) => g.group === 'origin');
    const merged = new Histogram();
    for (const g of origins) merged.merge(Histogram.fromJSON(g.phases.total.histogram));
    const all = doc.groups.find((g: { group: string }) => g.group === 'all');
    expect(merged.toJSON()).toEqual(all.phases.total.histogram);
    expect(Object.keys(all.phases.total)).toEqual(['count', 'min', 'max', 'mean', 'p50', 'p75', 'p90', 'p95', 'p99', 'cdf', 'histogram']);
  });

  test('exportStats dispatches on the format name', () => {
    const s = aggregateHandshakes(records(1, 10));
    expect(exportStats('csv', s)).toBe(exportCsv(s));
    expect(exportStats('prom', s)).toBe(exportPrometheus(s));
    expect(['csv', 'json', 'prom', 'xml'].map(isExportFormat)).toEqual([true, true, true, false]);
  });
});
