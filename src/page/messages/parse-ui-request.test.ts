import { parseUiRequest } from './parse-ui-request';

describe('parseUiRequest', () => {
  test('forget is one origin or all: true; a bare forget, or one naming both, is refused', () => {
    expect(parseUiRequest({ type: 'forget', all: true })).toEqual({ channel: 'ui', type: 'forget', all: true });
    expect(parseUiRequest({ type: 'forget', origin: 'https://a.test' })).toEqual({ channel: 'ui', type: 'forget', origin: 'https://a.test' });
    for (const bad of [{ type: 'forget' }, { type: 'forget', all: false }, { type: 'forget', all: 1 }, { type: 'forget', all: true, origin: 'https://a.test' }, { type: 'forget', origin: 3 }]) {
      expect(() => parseUiRequest(bad)).toThrow(expect.objectContaining({ code: 'E_INVALID_FIELD', message: expect.stringMatching(/^origin: expected an origin string, or all: true/) }));
    }
  });
});
