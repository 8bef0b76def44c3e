import { classifyCssReference, classifyElement, imagePriority, type ElementContext } from './classify';
import { classifyLink } from './classify-link';
import { classifyScript } from './classify-script';
import { isPrintOnly } from './media';

const NO_CONTEXT: ElementContext = { mediaParent: undefined, inViewportGuess: false };

describe('classifyScript', () => {
  it.each([
    [{ src: 's.js' }, 'sync', 'blocking'],
    [{ src: 's.js', async: '' }, 'async', 'script'],
    [{ src: 's.js', defer: '' }, 'defer', 'script'],
    [{ src: 's.js', async: '', defer: '' }, 'async', 'script'],
    [{ src: 's.js', type: 'module' }, 'module', 'script'],
    [{ src: 's.js', type: ' MODULE ', async: '' }, 'module', 'script'],
    [{ src: 's.js', type: 'text/javascript' }, 'sync', 'blocking'],
    [{ src: 's.js', type: 'Application/JavaScript' }, 'sync', 'blocking'],
    [{ src: 's.js', type: '' }, 'sync', 'blocking'],
    [{ src: 's.js', language: 'javascript' }, 'sync', 'blocking'],
    [{ src: 's.js', type: 'module', nomodule: '' }, 'module', 'script'],
  ])('%j → %s / %s', (attribs, mode, priority) => {
    expect(classifyScript(attribs)).toEqual([{ value: 's.js', kind: 'script', priority, attribute: 'src', scriptMode: mode }]);
  });

  it.each([
    [{}],
    [{ async: '' }],
    [{ src: 'x.json', type: 'application/ld+json' }],
    [{ src: 'x.js', type: 'text/javascript; charset=utf-8' }],
    [{ src: 'x.html', type: 'text/template' }],
    [{ src: 'x.json', type: 'importmap' }],
    [{ src: 'x.js', language: 'vbscript' }],
    [{ src: 'x.js', nomodule: '' }],
  ])('%j fetches nothing', (attribs) => {
    expect(classifyScript(attribs)).toEqual([]);
  });
});

describe('classifyLink', () => {
  const one = (attribs: Record<string, string>): unknown => {
    const refs = classifyLink(attribs);
    expect(refs.length).toBeLessThanOrEqual(1);
    const ref = refs[0];
    return ref === undefined ? undefined : [ref.kind, ref.priority, ref.scriptMode];
  };

  it.each<[Record<string, string>, unknown]>([
    [{ rel: 'stylesheet', href: 'a.css' }, ['stylesheet', 'blocking', undefined]],
    [{ rel: 'STYLESHEET', href: 'a.css', media: 'screen and (min-width: 1px)' }, ['stylesheet', 'blocking', undefined]],
    [{ rel: 'stylesheet', href: 'a.css', media: 'print' }, ['stylesheet', 'other', undefined]],
    [{ rel: 'alternate stylesheet', href: 'a.css', title: 't' }, ['stylesheet', 'prefetch', undefined]],
    [{ rel: 'stylesheet', href: 'a.css', disabled: '' }, undefined],
    [{ rel: 'stylesheet', href: 'a.less', type: 'text/less' }, undefined],
    [{ rel: 'stylesheet', href: 'a.css', type: 'TEXT/CSS' }, ['stylesheet', 'blocking', undefined]],
    [{ rel: 'preload', href: 'a', as: 'style' }, ['stylesheet', 'blocking', undefined]],
    [{ rel: 'preload', href: 'a', as: 'script' }, ['script', 'script', undefined]],
    [{ rel: 'preload', href: 'a', as: 'font', crossorigin: '' }, ['font', 'font', undefined]],
    [{ rel: 'preload', href: 'a', as: 'image' }, ['image', 'image', undefined]],
    [{ rel: 'preload', href: 'a', as: 'image', fetchpriority: 'high' }, ['image', 'visible-image', undefined]],
    [{ rel: 'preload', href: 'a', as: 'fetch' }, ['preload', 'other', undefined]],
    [{ rel: 'preload', href: 'a' }, ['preload', 'other', undefined]],
    [{ rel: 'preload', href: 'a', as: 'style', media: 'print' }, ['stylesheet', 'other', undefined]],
    [{ rel: 'modulepreload', href: 'a.mjs' }, ['script', 'script', 'module']],
    [{ rel: 'icon', href: 'i.png' }, ['icon', 'other', undefined]],
    [{ rel: 'shortcut icon', href: 'i.ico' }, ['icon', 'other', undefined]],
    [{ rel: 'apple-touch-icon', href: 'i.png' }, ['icon', 'other', undefined]],
    [{ rel: 'prefetch', href: 'n.html' }, ['other', 'prefetch', undefined]],
    [{ rel: 'prerender', href: 'n.html' }, ['other', 'prefetch', undefined]],
    [{ rel: 'preconnect', href: 'https://x.test' }, undefined],
    [{ rel: 'canonical', href: 'c.html' }, undefined],
    [{ rel: 'stylesheet' }, undefined],
    [{ href: 'a.css' }, undefined],
  ])('%j → %j', (attribs, expected) => {
    expect(one(attribs)).toEqual(expected);
  });

  it('reports every imagesrcset candidate of an image preload', () => {
    expect(classifyLink({ rel: 'preload', as: 'image', href: 'a.png', imagesrcset: 'a1.png 1x, a2.png 2x' }).map((r) => [r.value, r.attribute])).toEqual([
      ['a.png', 'href'],
      ['a1.png', 'imagesrcset'],
      ['a2.png', 'imagesrcset'],
    ]);
  });
});

describe('isPrintOnly', () => {
  it.each<[string | undefined, boolean]>([
    [undefined, false],
    ['', false],
    ['all', false],
    ['screen', false],
    ['print', true],
    [' PRINT ', true],
    ['only print', true],
    ['print and (orientation: landscape)', true],
    ['print and(orientation: landscape)', true],
    ['print, screen', false],
    ['print, print and (color)', true],
    ['not print', false],
    ['(min-width: 500px)', false],
  ])('%j → %s', (media, expected) => {
    expect(isPrintOnly(media)).toBe(expected);
  });
});

describe('classifyElement', () => {
  it('reads <source> by its container', () => {
    const source = { src: 'v.mp4', srcset: 'p.webp' };
    expect(classifyElement('source', source, { mediaParent: 'picture', inViewportGuess: false }).map((r) => [r.value, r.kind, r.attribute])).toEqual([['p.webp', 'image', 'srcset']]);
    expect(classifyElement('source', source, { mediaParent: 'video', inViewportGuess: false }).map((r) => [r.value, r.kind, r.attribute])).toEqual([['v.mp4', 'media', 'src']]);
    expect(classifyElement('source', source, { mediaParent: 'audio', inViewportGuess: false }).map((r) => r.kind)).toEqual(['media']);
    expect(classifyElement('source', source, NO_CONTEXT)).toEqual([]);
    expect(classifyElement('source', source, { mediaParent: 'picture', inViewportGuess: true })[0]?.priority).toBe('visible-image');
  });

  it('classes input only for type=image', () => {
    expect(classifyElement('input', { type: 'IMAGE', src: 'go.png' }, NO_CONTEXT).map((r) => r.kind)).toEqual(['image']);
    expect(classifyElement('input', { type: 'text', src: 'go.png' }, NO_CONTEXT)).toEqual([]);
  });

  it('marks lazy images and iframes without changing their class', () => {
    expect(classifyElement('img', { src: 'a.png', loading: 'LAZY' }, NO_CONTEXT)).toEqual([{ value: 'a.png', kind: 'image', priority: 'image', attribute: 'src', lazy: true }]);
    expect(classifyElement('iframe', { src: 'f.html', loading: 'lazy' }, NO_CONTEXT)).toEqual([{ value: 'f.html', kind: 'iframe', priority: 'other', attribute: 'src', lazy: true }]);
  });
});

describe('imagePriority', () => {
  it.each<[Record<string, string>, boolean, string]>([
    [{}, false, 'image'],
    [{}, true, 'visible-image'],
    [{ fetchpriority: 'high' }, false, 'visible-image'],
    [{ fetchpriority: 'High', loading: 'lazy' }, false, 'visible-image'],
    [{ fetchpriority: 'low' }, true, 'image'],
    [{ loading: 'lazy' }, true, 'image'],
    [{ fetchpriority: 'auto' }, true, 'visible-image'],
  ])('%j, in viewport %s → %s', (attribs, guess, expected) => {
    expect(imagePriority(attribs, guess)).toBe(expected);
  });
});

describe('classifyCssReference', () => {
  const ref = { url: 'https://x.test/a', offset: 0, inFontFace: false };
  it('classes imports, fonts and other urls', () => {
    expect(classifyCssReference({ ...ref, kind: 'import' })).toEqual({ kind: 'stylesheet', priority: 'blocking', attribute: '@import' });
    expect(classifyCssReference({ ...ref, kind: 'import', media: 'print' })).toEqual({ kind: 'stylesheet', priority: 'other', attribute: '@import' });
    expect(classifyCssReference({ ...ref, kind: 'import' }, true).priority).toBe('other');
    expect(classifyCssReference({ ...ref, kind: 'url', inFontFace: true })).toEqual({ kind: 'font', priority: 'font', attribute: 'url()' });
    expect(classifyCssReference({ ...ref, kind: 'url' })).toEqual({ kind: 'image', priority: 'image', attribute: 'url()' });
  });
});
