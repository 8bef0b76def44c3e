import { mayLearn, pageRefusal, type PageEnvironment } from './page-gate';

const env = (more: Partial<PageEnvironment> = {}, settings: Partial<PageEnvironment['settings']> = {}): PageEnvironment => ({
  url: 'https://shop.test/a.html',
  settings: { speculation: true, excludedSites: [], speculationDisabledSites: [], ...settings },
  incognito: false,
  ...more,
});

describe('pageRefusal', () => {
  test('a normal page may speculate and learn', () => {
    expect(pageRefusal(env())).toBeUndefined();
    expect(mayLearn(env())).toBe(true);
  });
  test.each([
    ['a private window', env({ incognito: true }), 'private'],
    ['a tab whose window is not known', env({ incognito: undefined }), 'private'],
    ['an excluded site', env({}, { excludedSites: ['*.shop.test'] }), 'excluded'],
    ['speculation off', env({}, { speculation: false }), 'off'],
    ['the per-site switch off', env({}, { speculationDisabledSites: ['shop.test'] }), 'site-off'],
    ['Save-Data', env({ saveData: true }), 'save-data'],
    ['a page with its own speculation rules', env({ ownRules: true }), 'own-rules'],
  ] as const)('%s is refused', (_name, e, code) => {
    expect(pageRefusal(e)).toBe(code);
  });
  test('nothing is learned in a private window, on an excluded site or with speculation off', () => {
    expect(mayLearn(env({ incognito: true }))).toBe(false);
    expect(mayLearn(env({}, { excludedSites: ['shop.test'] }))).toBe(false);
    expect(mayLearn(env({}, { speculation: false }))).toBe(false);
  });
});
