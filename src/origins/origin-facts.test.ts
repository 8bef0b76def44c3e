import { checkOriginFacts, mergeOriginFacts, type OriginFacts } from './origin-facts';

const full: OriginFacts = {
  origin: 'https://a.test:8443', lastSeenAt: 1_700_000_000_000, pipelining: { state: 'bad', demotedUntil: 1_700_000_600_000, lastDemotion: 'http10' },
  requestsPerConnection: 100, h2: false, pathRttMs: 42.5, pathBdpBytes: 53_125,
};

test('a complete record passes unchanged; unknown fields and nulls are dropped', () => {
  expect(checkOriginFacts(full)).toEqual({ value: full });
  expect(checkOriginFacts({ ...full, extra: 1, h2: null })).toEqual({ value: { ...full, h2: undefined } });
  expect(checkOriginFacts({ origin: 'http://b.test', lastSeenAt: 0 })).toEqual({ value: { origin: 'http://b.test', lastSeenAt: 0 } });
});

test.each([
  [{ ...full, origin: 'https://a.test/path' }, /^origin: expected an http\(s\) origin/],
  [{ ...full, origin: 'ftp://a.test' }, /^origin: /],
  [{ ...full, origin: 'HTTPS://A.test' }, /^origin: /], // Not in new URL(x).origin form.
  [{ ...full, lastSeenAt: -1 }, /^lastSeenAt: expected epoch ms/],
  [{ ...full, pipelining: { state: 'great' } }, /^pipelining\.state: expected one of unknown, probing, good, bad, got "great"/],
  [{ ...full, pipelining: { state: 'bad', lastDemotion: 'rude' } }, /^pipelining\.lastDemotion: /],
  [{ ...full, requestsPerConnection: 0 }, /^requestsPerConnection: expected an integer ≥ 1, got 0/],
  [{ ...full, pathRttMs: 0 }, /^pathRttMs: /],
  [{ ...full, pathBdpBytes: 1.5 }, /^pathBdpBytes: /],
  [{ ...full, h2: 'yes' }, /^h2: expected a boolean, got "yes"/],
  [[full], /^expected an object, got an array/],
])('%j is refused saying what was expected', (x, problem) => {
  const r = checkOriginFacts(x);
  expect('problem' in r && r.problem).toMatch(problem);
});

test('merge: what is newly learned wins, the rest is kept, lastSeenAt never goes back', () => {
  const next: OriginFacts = { origin: full.origin, lastSeenAt: full.lastSeenAt - 5, h2: true, pathRttMs: 40 };
  expect(mergeOriginFacts(full, next)).toEqual({ ...full, h2: true, pathRttMs: 40, lastSeenAt: full.lastSeenAt });
  expect(mergeOriginFacts(undefined, next)).toBe(next);
  expect(mergeOriginFacts({ ...full, origin: 'https://other.test' }, next)).toBe(next);
});
