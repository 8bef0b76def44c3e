import { Prng } from '../core/prng';
import { modelStylesheet, type ModelOptions, type SheetModel } from './css-model';
import { parseCss } from './css-parser';

const OPTIONS: ModelOptions = { baseUrl: 'https://example.test/css/site.css', dpr: 1 };

/** The same model built with every block parsed: css-model loaded against a parseCss that ignores `keepBlock`. */
function fullModel(css: string): SheetModel {
  let model: typeof modelStylesheet | undefined;
  jest.isolateModules(() => {
    const actual = jest.requireActual<typeof import('./css-parser')>('./css-parser');
    jest.doMock('./css-parser', () => ({ ...actual, parseCss: (text: string) => actual.parseCss(text) }));
    model = (jest.requireActual<typeof import('./css-model')>('./css-model') as { modelStylesheet: typeof modelStylesheet }).modelStylesheet;
  });
  jest.dontMock('./css-parser');
  return (model as typeof modelStylesheet)(css, OPTIONS);
}

const SELECTORS = ['.a', 'div p', 'a:hover', 'p::before', 'li::after', '&', '.x:not(.y', '.b[x', 'x\\{', '#id > .c', '*'];
const NAMES = ['color', 'padding', 'margin', 'font-size', 'background', 'BACKGROUND-IMAGE', 'background-color', 'list-style', 'content', 'cursor',
  'mask', '-webkit-mask-image', 'border-image', 'border-image-width', 'font', 'Font-Family', 'font-weight', 'font-style', 'src', 'unicode-range', '--v', 'x'];
const VALUES = ['red', '12px', '12px/1.5 serif', 'url(a.png)', 'URL(b.png)', 'url("c.png")', "url('d.png')", 'rgba(1,2,3,.5)', 'calc(1px + (2px))',
  'image-set("e.png" 1x, "f.png" 2x)', '-webkit-image-set(url(g.png) 1x)', '"str}"', 'calc(1px', '1px)', '[x', 'x]', '\\75rl(h.png)', 'none',
  'red !important', 'var(--v)', 'bold italic 12px F', 'u\\rl(i.png)', 'src(j.png)', 'U+0-7F', '"F", serif', 'a b', '#fff'];
const PIECES: Array<(r: Prng, depth: number) => string> = [
  (r, d) => `${r.pick(SELECTORS)}{${declarations(r, d)}}`,
  (r, d) => `${r.pick(SELECTORS)} { ${declarations(r, d)} ${d < 2 ? piece(r, d + 1) : ''} }`,
  (r, d) => `@media screen and (min-width: 1px){${d < 2 ? piece(r, d + 1) + piece(r, d + 1) : declarations(r, d)}}`,
  (r, d) => `@supports (display: grid) { ${d < 2 ? piece(r, d + 1) : ''} ${declarations(r, d)} }`,
  () => '@font-face{font-family:F;src:url(f.woff2) format("woff2")}',
  (r) => `@font-face{font-weight:${r.int(1, 9)}00;font-style:normal}`,
  (r) => `@page{margin:${r.int(1, 3)}cm}`,
  () => '@import url(imp.css);',
  () => '/* a { background: url(no.png) } */',
  () => '<!-- -->',
  () => '}',
  () => ';',
  (r) => `.k{${r.pick(VALUES)}}`,
];

function declarations(r: Prng, depth: number): string {
  const n = r.int(0, 4);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`${r.pick(NAMES)}${r.pick([':', ' :', ': '])}${r.pick(VALUES)}`);
  return out.join(r.pick([';', '; ', ';\n'])) + (depth > 0 && r.int(0, 1) === 1 ? ';' : '');
}

function piece(r: Prng, depth: number): string {
  return r.pick(PIECES)(r, depth);
}

function sheet(seed: number): string {
  const r = new Prng(seed);
  const parts = Array.from({ length: r.int(1, 12) }, () => piece(r, 0));
  // Now and then a sheet that ends inside a block.
  return parts.join(r.pick(['', '\n', ' '])) + (r.int(0, 9) === 0 ? '.end{background:url(end.png)' : '');
}

describe('the model skips blocks that fetch nothing without changing what it finds', () => {
  test('parseCss leaves a declined block empty, untokenized, and asks only of blocks that read as they tokenize', () => {
    const asked: string[] = [];
    const css = '.a{color:red} .b{background:url(x.png)} .c{content:"}"} .d{width:calc(1px} .e{margin:0}';
    const rules = parseCss(css, { keepBlock: (text) => (asked.push(text), text.includes('url(')) });
    expect(asked).toEqual(['color:red', 'background:url(x.png)', 'margin:0']);
    const byRule = rules.map((r) => [r.type === 'style' ? r.selector : r.name, r.declarations.map((d) => d.name)]);
    // `.d`'s unclosed bracket swallows the `}` and `.e`, as a full parse does.
    expect(byRule).toEqual([['.a', []], ['.b', ['background']], ['.c', ['content']], ['.d', ['width']]]);
    expect(parseCss(css).map((r) => r.declarations.length)).toEqual([1, 1, 1, 1]);
  });

  test('on 3,000 generated sheets (strings, comments, escapes, nesting, unclosed brackets) the model equals the fully parsed one', () => {
    let skippedSome = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const css = sheet(seed);
      expect({ seed, model: modelStylesheet(css, OPTIONS) }).toEqual({ seed, model: fullModel(css) });
      if (parseCss(css, { keepBlock: () => false }).some((r) => r.declarations.length === 0)) skippedSome++;
    }
    // The generator does reach the skipped path.
    expect(skippedSome).toBeGreaterThan(1000);
  });

  test('what the model finds in a sheet whose blocks are mostly skipped', () => {
    const css = `.a{padding:1px;margin:2px} .b{color:red;font-size:3px} .c{background:url(c.png)} .d{font-family:F}
      @font-face{font-family:F;src:url(f.woff2)} .e{width:calc(1px + (2px))} .f{cursor:url(cur.png),auto}`;
    const m = modelStylesheet(css, OPTIONS);
    expect(m.imageRules.map((r) => [r.selector, r.declarations])).toEqual([
      ['.c', [{ group: 'background-image', urls: ['https://example.test/css/c.png'] }]],
      ['.f', [{ group: 'cursor', urls: ['https://example.test/css/cur.png'] }]],
    ]);
    expect(m.fontRules.map((r) => [r.selectors, r.families])).toEqual([[['.d'], ['f']]]);
    expect(m.fontFaces.map((f) => [f.family, f.url])).toEqual([['f', 'https://example.test/css/f.woff2']]);
    expect(m).toEqual(fullModel(css));
  });
});
