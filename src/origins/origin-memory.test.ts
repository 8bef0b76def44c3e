import { InMemoryOriginMemory, MAX_FINGERPRINTS } from './origin-memory';

describe('InMemoryOriginMemory', () => {
  test('put merges facts and stamps lastSeen from the memory clock', () => {
    let now = 1_000;
    const m = new InMemoryOriginMemory({ now: () => now });
    m.put({ origin: 'http://a.test', protocol: 'http/1.1', rttMs: 50 });
    now = 2_000;
    m.put({ origin: 'http://a.test', pipelining: 'good' });
    expect(m.get('http://a.test')).toEqual({ origin: 'http://a.test', protocol: 'http/1.1', rttMs: 50, pipelining: 'good', lastSeen: 2_000 });
  });

  test('recent facts: every origin written within the window, any page\'s, never past maxAgeMs', () => {
    let now = 0;
    const m = new InMemoryOriginMemory({ now: () => now, maxAgeMs: 10_000 });
    m.put({ origin: 'https://old.test', peakBytesPerMs: 500, peakHeld: true });
    now = 5_000;
    m.put({ origin: 'https://new.test', peakBytesPerMs: 2_000, peakHeld: false });
    now = 6_000;
    expect(m.recentFacts(1_000).map((f) => f.origin)).toEqual(['https://new.test']);
    expect(m.recentFacts(6_000).map((f) => f.origin).sort()).toEqual(['https://new.test', 'https://old.test']);
    now = 12_000;
    expect(m.recentFacts(60_000).map((f) => f.origin)).toEqual(['https://new.test']);
  });

  test('facts older than maxAgeMs expire, and so does a page list', () => {
    let now = 0;
    const m = new InMemoryOriginMemory({ now: () => now, maxAgeMs: 100 });
    m.put({ origin: 'http://a.test', pipelining: 'good' });
    m.putPageOrigins('http://a.test/', [{ origin: 'http://a.test', requests: 3 }]);
    now = 100;
    expect(m.get('http://a.test')?.pipelining).toBe('good');
    expect(m.pageOrigins('http://a.test/')).toHaveLength(1);
    now = 101;
    expect(m.get('http://a.test')).toBeUndefined();
    expect(m.pageOrigins('http://a.test/')).toEqual([]);
  });

  test('a remembered pipelining failure lasts demoteMs, then the origin is unknown again', () => {
    let now = 0;
    const m = new InMemoryOriginMemory({ now: () => now, demoteMs: 50 });
    m.put({ origin: 'http://a.test', pipelining: 'bad', protocol: 'http/1.1' });
    expect(m.get('http://a.test')?.pipelining).toBe('bad');
    now = 51;
    expect(m.get('http://a.test')).toEqual({ origin: 'http://a.test', protocol: 'http/1.1', lastSeen: 0 });
  });

  test('page origins come back busiest first', () => {
    const m = new InMemoryOriginMemory();
    m.putPageOrigins('http://p.test/', [{ origin: 'http://a.test', requests: 1 }, { origin: 'http://b.test', requests: 9 }]);
    expect(m.pageOrigins('http://p.test/').map((o) => o.origin)).toEqual(['http://b.test', 'http://a.test']);
  });

  test('JSON round trip; malformed records are skipped, not trusted', () => {
    const now = 5;
    const m = new InMemoryOriginMemory({ now: () => now });
    m.put({ origin: 'https://a.test', protocol: 'h2', rateBytesPerMs: null, connectionCap: 3 });
    m.putPageOrigins('https://a.test/', [{ origin: 'https://a.test', requests: 4 }]);
    const back = InMemoryOriginMemory.fromJSON(JSON.parse(JSON.stringify(m.toJSON())), { now: () => now });
    expect(back.toJSON()).toEqual(m.toJSON());
    const bad = InMemoryOriginMemory.fromJSON({
      version: 1,
      origins: [{ origin: 'http://x.test', lastSeen: 1, protocol: 'h3' }, { origin: 'http://y.test', lastSeen: 1, rttMs: -1 }, { origin: 'http://z.test', lastSeen: 1, rttMs: 20 }],
      pages: [{ url: 'http://x.test/', lastSeen: 1, origins: [{ origin: 'http://x.test', requests: 0 }, { origin: 'http://z.test', requests: 2 }] }],
    }, { now: () => now });
    expect(bad.toJSON().origins.map((o) => o.origin)).toEqual(['http://z.test']);
    expect(bad.pageOrigins('http://x.test/')).toEqual([{ origin: 'http://z.test', requests: 2 }]);
    expect(InMemoryOriginMemory.fromJSON({ version: 2, origins: [] }).toJSON().origins).toEqual([]);
  });

  test('fingerprints: per URL, expire with the facts, bounded (oldest written dropped first), kept across a JSON round trip; malformed entries skipped', () => {
    let now = 1_000;
    const m = new InMemoryOriginMemory({ now: () => now, maxAgeMs: 100 });
    m.putFingerprint('http://a.test/1.gif', '10:x');
    m.putFingerprint('http://a.test/2.gif', '10:y');
    expect([m.fingerprint('http://a.test/1.gif'), m.fingerprint('http://a.test/2.gif'), m.fingerprint('http://a.test/3.gif')]).toEqual(['10:x', '10:y', undefined]);
    const back = InMemoryOriginMemory.fromJSON(JSON.parse(JSON.stringify(m.toJSON())), { now: () => now, maxAgeMs: 100 });
    expect(back.fingerprint('http://a.test/2.gif')).toBe('10:y');
    now += 101;
    expect(m.fingerprint('http://a.test/1.gif')).toBeUndefined();
    const big = new InMemoryOriginMemory();
    for (let i = 0; i <= MAX_FINGERPRINTS; i++) big.putFingerprint(`http://a.test/${i}`, `1:${i}`);
    expect([big.fingerprint('http://a.test/0'), big.fingerprint('http://a.test/1'), big.fingerprint(`http://a.test/${MAX_FINGERPRINTS}`)]).toEqual([undefined, '1:1', `1:${MAX_FINGERPRINTS}`]);
    const bad = InMemoryOriginMemory.fromJSON({ version: 1, origins: [], pages: [], fingerprints: [['http://a.test/1', 7, 1], ['http://a.test/2', '1:z', 'x'], 'no', ['http://a.test/3', '1:w', 1]] }, { now: () => 5 });
    expect([bad.fingerprint('http://a.test/1'), bad.fingerprint('http://a.test/2'), bad.fingerprint('http://a.test/3')]).toEqual([undefined, undefined, '1:w']);
  });
});
