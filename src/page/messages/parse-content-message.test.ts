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
