import { mergePageList } from '../../src/origins/page-list';
import { pageOriginsKey } from './record-codec';
import { forgetOriginJudge, olderThanJudge } from './store-judges';

const list = (resourceUrl: string) => ({
  url: 'https://a.test/',
  lastSeen: 10,
  // Only the page's own origin kept (as when a list of origins was cut at its cap), while the request list names another.
  origins: [{ origin: 'https://a.test', requests: 2 }],
  loads: 1,
  resources: mergePageList(undefined, [{ url: resourceUrl, resourceType: 'image', priority: 'image', bytes: 1, order: 0 }]),
});

describe('store judges and request lists', () => {
  test('forget(origin) drops a page list whose request list names a URL on that origin, and keeps others', () => {
    const judge = forgetOriginJudge('https://cdn.test');
    expect(judge(pageOriginsKey('https://a.test/'), JSON.stringify(list('https://cdn.test/x.gif')))).toBe('drop');
    expect(judge(pageOriginsKey('https://a.test/'), JSON.stringify(list('https://a.test/x.gif')))).toBe('keep');
  });

  test('the retention sweep drops a page whose list is corrupt and tells the store, so it is counted', () => {
    let invalid = 0;
    const judge = olderThanJudge(5, () => invalid++);
    const bad = { ...list('https://a.test/x.gif'), resources: [{ url: 'https://a.test/x.gif', priority: 'nope' }] };
    expect(judge(pageOriginsKey('https://a.test/'), JSON.stringify(bad))).toBe('drop');
    expect(judge(pageOriginsKey('https://a.test/'), JSON.stringify(list('https://a.test/x.gif')))).toBe('keep');
    expect(invalid).toBe(1);
  });
});
