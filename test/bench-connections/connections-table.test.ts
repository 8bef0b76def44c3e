import { connectionsSection, disagreements, type ConnectionLoad } from '../../bench/connections/connections-table';

function load(o: { browser?: string; everyConnect?: boolean; server?: Partial<ConnectionLoad['server']>; popup?: Partial<ConnectionLoad['popup']>; harConnections?: number }): ConnectionLoad {
  return {
    browser: o.browser ?? 'firefox', protocol: 'http/1.1', page: 'queued.html', load: 1, capture: 'lean', nextHopProtocol: 'http/1.1',
    server: { connections: 6, requests: 19, accepted: 7, ...o.server },
    popup: { opened: 6, usedAtLeast: 6, connectionsMin: 6, connections: 6, requests: 19, bound: 'exact', text: '6 used', ...o.popup },
    harConnections: o.harConnections ?? 6,
    everyConnect: o.everyConnect ?? true,
  };
}

describe('connections bench verdicts', () => {
  test('a load whose figures match the servers agrees', () => {
    expect(disagreements(load({}))).toEqual([]);
  });

  test('a bound, range or HAR above the servers\' count disagrees, naming each', () => {
    expect(disagreements(load({ popup: { usedAtLeast: 10, connectionsMin: 7 }, harConnections: 8 }))).toEqual([
      "bound ≥ 10 > servers' 6", "range low 7 > servers' 6", "HAR names 8 > servers' 6",
    ]);
  });

  test('"opened" must equal the servers\' count where every connect shows (Firefox), and may only fall short elsewhere (Chromium)', () => {
    expect(disagreements(load({ popup: { opened: 5 } }))).toEqual(["opened 5 ≠ servers' 6"]);
    expect(disagreements(load({ browser: 'chromium', everyConnect: false, popup: { opened: 4 } }))).toEqual([]);
    expect(disagreements(load({ browser: 'chromium', everyConnect: false, popup: { opened: 7 } }))).toEqual(["opened 7 > servers' 6"]);
  });

  test('the section counts loads and disagreements per browser, protocol and page', () => {
    const { body } = connectionsSection({ bench: 'connections', at: 't', loads: [load({}), load({ popup: { usedAtLeast: 7 } })] });
    expect(body).toContain('| firefox | http/1.1 | queued.html | 2 | 6 | 7 | 6 | 6–7 | 6–6 | 1 |');
  });
});
