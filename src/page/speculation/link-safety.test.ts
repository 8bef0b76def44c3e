import { templateKey } from '../hints/site-template';
import { linkRefusal, looksLikeAction, queryKeysOf, type LinkFacts, type LinkRefusal, type SiteFacts } from './link-safety';

const PAGE = 'https://shop.test/news/index.html';
const SITE: SiteFacts = { queryKeys: { 'https://shop.test/search': ['q'] }, noStore: ['https://shop.test/account.html'] };
const link = (href: string, more: Partial<LinkFacts> = {}): LinkFacts => ({ href, text: 'Read more', download: false, target: '', ...more });
const refusal = (l: LinkFacts) => linkRefusal(l, PAGE, SITE, templateKey);

describe('linkRefusal: every case refused, with its code', () => {
  const cases: Array<[string, LinkFacts, LinkRefusal]> = [
    ['a mailto: link', link('mailto:a@shop.test'), 'not-http'],
    ['an unparsable href', link('http://[bad'), 'not-http'],
    ['credentials in the URL', link('https://user:pw@shop.test/a.html'), 'credentials'],
    ['another origin', link('https://other.test/a.html'), 'cross-origin'],
    ['another port of the same host', link('https://shop.test:8443/a.html'), 'cross-origin'],
    ['http from an https page', link('http://shop.test/a.html'), 'cross-origin'],
    ['a download link', link('https://shop.test/a.html', { download: true }), 'download'],
    ['target=_blank', link('https://shop.test/a.html', { target: '_blank' }), 'other-window'],
    ['a named target', link('https://shop.test/a.html', { target: 'preview' }), 'other-window'],
    ['the page itself with a fragment', link(`${PAGE}#top`), 'same-page'],
    ['a PDF', link('https://shop.test/report.pdf'), 'not-document'],
    ['a zip', link('https://shop.test/files/a.ZIP'), 'not-document'],
    ['a sign-out path', link('https://shop.test/account/sign-out'), 'action'],
    ['a logout path', link('https://shop.test/logout'), 'action'],
    ['a camelCase delete path', link('https://shop.test/item/deleteItem'), 'action'],
    ['a delete query value', link('https://shop.test/search?q=delete'), 'action'],
    ['an unsubscribe path', link('https://shop.test/mail/unsubscribe.html'), 'action'],
    ['a cart path', link('https://shop.test/cart'), 'action'],
    ['a checkout path', link('https://shop.test/checkout/step1'), 'action'],
    ['a plain path whose text says Sign out', link('https://shop.test/session/end', { text: 'Sign out' }), 'action'],
    ['text saying Log off', link('https://shop.test/u/42', { text: 'Log off' }), 'action'],
    ['text saying Remove', link('https://shop.test/u/42', { text: 'Remove this item' }), 'action'],
    ['text saying Add to cart', link('https://shop.test/p/42', { text: 'Add to cart' }), 'action'],
    ['a query parameter never seen', link('https://shop.test/search?q=shoes&token=abc'), 'unknown-query'],
    ['a query on a template with none seen', link('https://shop.test/news/b.html?id=1'), 'unknown-query'],
    ['a page seen answering no-store', link('https://shop.test/account.html'), 'no-store'],
  ];
  test.each(cases)('%s', (_name, l, code) => {
    expect(refusal(l)).toBe(code);
  });

  test('a same-origin page link, a known query, _self and _top targets are allowed', () => {
    expect(refusal(link('https://shop.test/news/b.html'))).toBeUndefined();
    expect(refusal(link('https://shop.test/news/'))).toBeUndefined();
    expect(refusal(link('https://shop.test/search?q=shoes'))).toBeUndefined();
    expect(refusal(link('https://shop.test/a.html', { target: '_self' }))).toBeUndefined();
    expect(refusal(link('https://shop.test/a.html#part', { target: '_top' }))).toBeUndefined();
  });

  test('words that merely contain an action word are not actions', () => {
    expect(looksLikeAction('/cartography/maps')).toBe(false);
    expect(looksLikeAction('Payroll news')).toBe(false);
    expect(looksLikeAction('/blog/removal-of-snow')).toBe(false);
  });

  test('query keys are read as a form submits them', () => {
    expect(queryKeysOf('?a=1&b&a=2&c%20d=x&e+f=1')).toEqual(['a', 'b', 'c d', 'e f']);
    expect(queryKeysOf('')).toEqual([]);
  });
});
