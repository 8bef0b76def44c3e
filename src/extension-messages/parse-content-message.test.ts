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
