import { parseContentMessage } from './parse-content-message';

const ENTRY = { name: 'https://a.test/x.png', initiatorType: 'img', startTime: 5, domainLookupStart: 0, domainLookupEnd: 0, connectStart: 0, secureConnectionStart: 0, connectEnd: 0, requestStart: 1, responseStart: 2, responseEnd: 9, transferSize: 300, encodedBodySize: 0, nextHopProtocol: 'h2', restricted: false };

describe('parseContentMessage: timings', () => {
  test('bufferFull is kept when true, dropped when false or absent', () => {
    expect(parseContentMessage({ channel: 'content', type: 'timings', entries: [ENTRY], bufferFull: true })).toEqual({ channel: 'content', type: 'timings', entries: [ENTRY], bufferFull: true });
    expect(parseContentMessage({ channel: 'content', type: 'timings', entries: [ENTRY], bufferFull: false })).toEqual({ channel: 'content', type: 'timings', entries: [ENTRY] });
    expect(parseContentMessage({ channel: 'content', type: 'timings', entries: [] })).toEqual({ channel: 'content', type: 'timings', entries: [] });
  });

  test('a bufferFull that is not a boolean is refused with the field named', () => {
    expect(() => parseContentMessage({ channel: 'content', type: 'timings', entries: [], bufferFull: 'yes' })).toThrow(/bufferFull/);
  });
});

describe('parseContentMessage: the navigation timing', () => {
  const NAV = { responseStart: 310, domContentLoadedEventEnd: 700, loadEventEnd: 1200, nextHopProtocol: 'h2' };

  test('the first contentful paint is kept when sent, and a message without it is still valid', () => {
    const withPaint = parseContentMessage({ channel: 'content', type: 'timings', entries: [], navigation: { ...NAV, firstContentfulPaint: 896.4 } });
    expect(withPaint).toEqual({ channel: 'content', type: 'timings', entries: [], navigation: { ...NAV, firstContentfulPaint: 896.4 } });
    expect(parseContentMessage({ channel: 'content', type: 'timings', entries: [], navigation: NAV })).toEqual({ channel: 'content', type: 'timings', entries: [], navigation: NAV });
  });

  test('a paint that is not a finite number is refused with the field named', () => {
    for (const bad of ['896', null, Number.NaN, Infinity]) {
      expect(() => parseContentMessage({ channel: 'content', type: 'timings', entries: [], navigation: { ...NAV, firstContentfulPaint: bad } })).toThrow(/navigation\.firstContentfulPaint/);
    }
  });
});

describe('parseContentMessage: speculation reports', () => {
  const SERVED = { deliveryType: 'navigational-prefetch', prerendered: false, navigationType: 'navigate', responseStartMs: 4.9, encodedBodySize: 731 };

  test('each kind is kept as sent', () => {
    const ready = { channel: 'content', type: 'speculation-ready', served: SERVED, saveData: false, ownRules: true };
    expect(parseContentMessage(ready)).toEqual(ready);
    const kept = { channel: 'content', type: 'speculation-kept', kept: false };
    expect(parseContentMessage(kept)).toEqual(kept);
    const links = { channel: 'content', type: 'speculation-links', candidates: 2, refused: { action: 6, download: 1 } };
    expect(parseContentMessage(links)).toEqual(links);
    const asked = { channel: 'content', type: 'speculated', url: 'https://a.test/next.html', action: 'prefetch' };
    expect(parseContentMessage(asked)).toEqual(asked);
  });

  test('a field out of its kind is refused with the field named', () => {
    expect(() => parseContentMessage({ channel: 'content', type: 'speculated', url: 'https://a.test/', action: 'fetch' })).toThrow(/action/);
    expect(() => parseContentMessage({ channel: 'content', type: 'speculation-links', candidates: 1, refused: { whatever: 1 } })).toThrow(/refused\.whatever/);
    expect(() => parseContentMessage({ channel: 'content', type: 'speculation-links', candidates: -1, refused: {} })).toThrow(/candidates/);
    expect(() => parseContentMessage({ channel: 'content', type: 'speculation-ready', served: { ...SERVED, responseStartMs: -3 }, saveData: false, ownRules: false })).toThrow(/served\.responseStartMs/);
    expect(() => parseContentMessage({ channel: 'content', type: 'speculation-ready', served: SERVED, saveData: 'no', ownRules: false })).toThrow(/saveData/);
    expect(() => parseContentMessage({ channel: 'content', type: 'speculation-kept', kept: 'yes' })).toThrow(/kept/);
  });
});
