import { insertHintLinks } from '../../extension/content/hint-links';
import type { HintList } from '../../src/page/hints/hint-types';

const URL_A = 'https://site.test/a';
const LIST: HintList = {
  url: URL_A,
  keys: [URL_A],
  preconnects: [{ rel: 'preconnect', href: 'https://fonts.test', crossorigin: 'anonymous' }],
  preloads: [{ rel: 'preload', href: 'https://fonts.test/f.woff2', as: 'font', crossorigin: 'anonymous', type: 'font/woff2' }],
};

/** Just enough of a document for the function: elements are plain objects, parents record what they got. */
class FakeElement {
  children: FakeElement[] = [];
  dataset: Record<string, string | undefined> = {};
  attributes: Record<string, string> = {};
  rel = '';
  href = '';
  crossOrigin: string | null = null;
  as = '';
  type = '';
  append(...nodes: FakeElement[]): void {
    this.children.push(...nodes);
  }
  setAttribute(name: string, value: string): void {
    this.attributes[name] = value;
  }
}

class FakeDocument {
  contentType = 'text/html';
  head: FakeElement | null = null;
  body: FakeElement | null = null;
  documentElement: FakeElement | null = null;
  createElement(): FakeElement {
    return new FakeElement();
  }
}

/** A MutationObserver whose callbacks the test fires by hand (`mutate`). */
class FakeObserver {
  static live = new Set<FakeObserver>();
  constructor(private readonly callback: () => void) {}
  observe(): void {
    FakeObserver.live.add(this);
  }
  disconnect(): void {
    FakeObserver.live.delete(this);
  }
  static mutate(): void {
    for (const o of [...FakeObserver.live]) o.callback();
  }
}

const g = globalThis as unknown as Record<string, unknown>;
const saved = { document: g.document, location: g.location, MutationObserver: g.MutationObserver };
let doc: FakeDocument;

beforeEach(() => {
  doc = new FakeDocument();
  FakeObserver.live.clear();
  Object.assign(g, { document: doc, location: { href: URL_A }, MutationObserver: FakeObserver });
});
afterAll(() => Object.assign(g, saved));

const hrefs = (el: FakeElement | null) => (el?.children ?? []).map((c) => `${c.rel} ${c.href}`);

describe('insertHintLinks', () => {
  test('into the head when there is one, each link in the form its request takes', () => {
    doc.documentElement = new FakeElement();
    doc.head = new FakeElement();
    expect(insertHintLinks(LIST, `${URL_A}#top`)).toBe(2);
    expect(hrefs(doc.head)).toEqual(['preconnect https://fonts.test', 'preload https://fonts.test/f.woff2']);
    expect(doc.head.children[1]).toMatchObject({ as: 'font', type: 'font/woff2', crossOrigin: 'anonymous', dataset: { getlistHint: '' } });
    expect(FakeObserver.live.size).toBe(0);
  });

  test('committed before the parser made any element (Firefox): the links go in as soon as it does, once', () => {
    expect(insertHintLinks(LIST, URL_A)).toBe(2);
    expect(FakeObserver.live.size).toBe(1);
    // A mutation with still no element (a doctype, a comment): nothing yet, still watching.
    FakeObserver.mutate();
    expect(FakeObserver.live.size).toBe(1);
    doc.documentElement = new FakeElement();
    FakeObserver.mutate();
    expect(hrefs(doc.documentElement)).toEqual(['preconnect https://fonts.test', 'preload https://fonts.test/f.woff2']);
    expect(FakeObserver.live.size).toBe(0);
    // Later mutations add nothing more.
    FakeObserver.mutate();
    expect(doc.documentElement.children).toHaveLength(2);
  });

  test('a font preload meant for after the body (Chromium) waits for the body; the rest go in at once', () => {
    const list: HintList = { ...LIST, preloads: [{ ...LIST.preloads[0]!, afterBody: true }, { rel: 'preload', href: 'https://site.test/bg.png', as: 'image' }] };
    doc.documentElement = new FakeElement();
    doc.head = new FakeElement();
    expect(insertHintLinks(list, URL_A)).toBe(3);
    expect(hrefs(doc.head)).toEqual(['preconnect https://fonts.test', 'preload https://site.test/bg.png']);
    FakeObserver.mutate();
    expect(hrefs(doc.head)).toHaveLength(2);
    doc.body = new FakeElement();
    FakeObserver.mutate();
    expect(hrefs(doc.head)).toEqual(['preconnect https://fonts.test', 'preload https://site.test/bg.png', 'preload https://fonts.test/f.woff2']);
    expect(FakeObserver.live.size).toBe(0);
  });

  test('another document (the tab navigated on) or one that is not HTML gets nothing', () => {
    doc.head = new FakeElement();
    expect(insertHintLinks(LIST, 'https://site.test/b')).toBe(0);
    doc.contentType = 'image/png';
    expect(insertHintLinks(LIST, URL_A)).toBe(0);
    expect(doc.head.children).toEqual([]);
    expect(FakeObserver.live.size).toBe(0);
  });
});
