import { parseUiRequest } from './parse-ui-request';

describe('parseUiRequest', () => {
  test('forget is one origin or all: true; a bare forget, or one naming both, is refused', () => {
    expect(parseUiRequest({ type: 'forget', all: true })).toEqual({ channel: 'ui', type: 'forget', all: true });
    expect(parseUiRequest({ type: 'forget', origin: 'https://a.test' })).toEqual({ channel: 'ui', type: 'forget', origin: 'https://a.test' });
    for (const bad of [{ type: 'forget' }, { type: 'forget', all: false }, { type: 'forget', all: 1 }, { type: 'forget', all: true, origin: 'https://a.test' }, { type: 'forget', origin: 3 }]) {
      expect(() => parseUiRequest(bad)).toThrow(expect.objectContaining({ code: 'E_INVALID_FIELD', message: expect.stringMatching(/^origin: expected an origin string, or all: true/) }));
    }
  });

  test('stats and export name a source (browser, host or cli) or none; another is refused', () => {
    expect(parseUiRequest({ type: 'stats', source: 'browser', since: 5 })).toEqual({ channel: 'ui', type: 'stats', source: 'browser', since: 5 });
    expect(parseUiRequest({ type: 'export', format: 'prom', source: 'host' })).toEqual({ channel: 'ui', type: 'export', format: 'prom', source: 'host' });
    expect(() => parseUiRequest({ type: 'stats', source: 'replay' })).toThrow(expect.objectContaining({ code: 'E_INVALID_FIELD', message: expect.stringMatching(/^source: expected browser, host, cli/) }));
  });
});
