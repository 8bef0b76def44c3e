import { checkOriginFacts, checkPageOrigins, mergeOriginFacts, type OriginFacts } from './origin-facts';

const full: OriginFacts = {
  origin: 'https://a.test:8443', lastSeen: 1_700_000_000_000, pipelining: 'bad', pipeliningBadUntil: 1_700_000_600_000,
  protocol: 'http/1.1', requestBudget: 100, maxConcurrentStreams: 8, rttMs: 42.5, rateBytesPerMs: 1250, connectionCap: 4, peakBytesPerMs: 2400.5, peakHeld: false,
};

test('a complete record passes unchanged; unknown fields and nulls are dropped, but a null rate means "too fast to cap"', () => {
  expect(checkOriginFacts(full)).toEqual({ value: full });
  expect(checkOriginFacts({ ...full, extra: 1, protocol: null })).toEqual({ value: { ...full, protocol: undefined } });
  expect(checkOriginFacts({ origin: 'http://b.test', lastSeen: 0 })).toEqual({ value: { origin: 'http://b.test', lastSeen: 0 } });
  expect(checkOriginFacts({ origin: 'http://b.test', lastSeen: 0, rateBytesPerMs: null })).toEqual({ value: { origin: 'http://b.test', lastSeen: 0, rateBytesPerMs: null } });
});

test('a legacy record (protocol "h1", written before the ALPN ids) reads as http/1.1 and is written back in the new form', () => {
  const legacy = JSON.parse('{"origin":"http://old.test","lastSeen":5,"protocol":"h1","pipelining":"good"}') as unknown;
  const read = checkOriginFacts(legacy);
  expect(read).toEqual({ value: { origin: 'http://old.test', lastSeen: 5, protocol: 'http/1.1', pipelining: 'good' } });
  const again = 'value' in read ? checkOriginFacts(JSON.parse(JSON.stringify(read.value))) : read;
  expect(again).toEqual(read);
  expect(JSON.stringify('value' in read && read.value)).toContain('"protocol":"http/1.1"');
});

test.each([
  [{ ...full, origin: 'https://a.test/path' }, /^origin: expected an http\(s\) origin/],
  [{ ...full, origin: 'ftp://a.test' }, /^origin: /],
  [{ ...full, origin: 'HTTPS://A.test' }, /^origin: /], // Not in new URL(x).origin form.
  [{ ...full, lastSeen: -1 }, /^lastSeen: expected epoch ms/],
  [{ ...full, pipelining: 'great' }, /^pipelining: expected "good" or "bad", got "great"/],
  [{ ...full, pipeliningBadUntil: -5 }, /^pipeliningBadUntil: /],
  [{ ...full, protocol: 'h3' }, /^protocol: expected "http\/1\.1" or "h2", got "h3"/],
  [{ ...full, requestBudget: 0 }, /^requestBudget: expected an integer ≥ 1, got 0/],
  [{ ...full, maxConcurrentStreams: 0 }, /^maxConcurrentStreams: expected an integer in \[1, 2\^32 - 1\], got 0/],
  [{ ...full, maxConcurrentStreams: 2 ** 32 }, /^maxConcurrentStreams: /],
  [{ ...full, pipeliningProofs: 0 }, /^pipeliningProofs: expected an integer in \[1, 1000\], got 0/],
  [{ ...full, rttMs: -1 }, /^rttMs: /],
  [{ ...full, connectionCap: 1.5 }, /^connectionCap: /],
  [{ ...full, rateBytesPerMs: 0 }, /^rateBytesPerMs: expected a number > 0 or null, got 0/],
  [{ ...full, peakBytesPerMs: 0 }, /^peakBytesPerMs: expected a number > 0, got 0/],
  [{ ...full, peakBytesPerMs: Infinity }, /^peakBytesPerMs: /],
  [{ ...full, peakHeld: 'yes' }, /^peakHeld: expected true or false, got "yes"/],
  [[full], /^expected an object, got an array/],
])('%j is refused saying what was expected', (x, problem) => {
  const r = checkOriginFacts(x);
  expect('problem' in r && r.problem).toMatch(problem);
});

test('merge: what is newly learned wins, the rest is kept, lastSeen never goes back; good pipelining ends a demotion', () => {
  const next: OriginFacts = { origin: full.origin, lastSeen: full.lastSeen - 5, protocol: 'h2', rttMs: 40 };
  expect(mergeOriginFacts(full, next)).toEqual({ ...full, protocol: 'h2', rttMs: 40, lastSeen: full.lastSeen });
  expect(mergeOriginFacts(undefined, next)).toBe(next);
  expect(mergeOriginFacts({ ...full, origin: 'https://other.test' }, next)).toBe(next);
  const { pipeliningBadUntil: _u, ...good } = { ...full, pipelining: 'good' as const, lastSeen: full.lastSeen + 1 };
  expect(mergeOriginFacts(full, { origin: full.origin, lastSeen: full.lastSeen + 1, pipelining: 'good' })).toEqual(good);
});

test('merge: the probe\'s proofs grow until a verdict, which drops them (spent by good, void after bad)', () => {
  const o = { origin: 'http://p.test', lastSeen: 1 };
  const one = mergeOriginFacts(undefined, { ...o, pipeliningProofs: 1 });
  expect(checkOriginFacts(one)).toEqual({ value: { ...o, pipeliningProofs: 1 } });
  expect(mergeOriginFacts(one, { ...o, pipelining: 'good' })).toEqual({ ...o, pipelining: 'good' });
  expect(mergeOriginFacts(one, { ...o, pipelining: 'bad' })).toEqual({ ...o, pipelining: 'bad' });
  expect(mergeOriginFacts(one, { ...o, rttMs: 5 })).toEqual({ ...o, pipeliningProofs: 1, rttMs: 5 });
});

test('page origin lists: the record is checked, a malformed entry is left out', () => {
  const page = { url: 'https://a.test/p?q=1', lastSeen: 5, origins: [{ origin: 'https://a.test', requests: 3 }, { origin: 'https://a.test/x', requests: 1 }, { origin: 'https://b.test', requests: 0 }] };
  expect(checkPageOrigins(page)).toEqual({ value: { ...page, origins: [{ origin: 'https://a.test', requests: 3 }] } });
  expect(checkPageOrigins({ ...page, url: 'file:///etc/passwd' })).toEqual({ problem: expect.stringMatching(/^url: expected an http\(s\) URL/) });
  expect(checkPageOrigins({ ...page, origins: 'x' })).toEqual({ problem: expect.stringMatching(/^origins: /) });
});
