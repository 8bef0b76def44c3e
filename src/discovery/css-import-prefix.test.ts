import { importPrefix } from './css-import-prefix';

describe('importPrefix: the @imports of a sheet\'s first bytes that are already final', () => {
  it.each([
    ['@import "a.css";', '@import "a.css";', false],
    ['@charset "utf-8";\n@import url(a.css);\n@import "b.css" screen', '@charset "utf-8";\n@import url(a.css);', false],
    ['@import "a.css"; @layer base; @import "b.css"; body{color:red}', '@import "a.css"; @layer base; @import "b.css";', true],
    // A `;` inside a string, a url() or parentheses does not end the statement.
    ['@import "a;b.css', '', false],
    ['@import url(a;b.css', '', false],
    ['@import "x.css" supports(display: grid; color: red)', '', false],
    ['@import "x.css" supports(display: grid; color: red);', '@import "x.css" supports(display: grid; color: red);', false],
    // A token at the very end may still grow: `@imp` could be `@import` in the next chunk.
    ['@import "a.css"; @imp', '@import "a.css";', false],
    // Anything else than @charset / @import / @layer statements ends the section.
    ['.x{background:url(i.gif)} @import "late.css";', '', true],
    ['@layer base { .x{} } @import "late.css";', '', true],
    ['@media print { } @import "late.css";', '', true],
    ['', '', false],
  ])('%j → %j (done: %s)', (css, prefix, done) => {
    expect(importPrefix(css)).toEqual({ prefix, done });
  });

  it('every chunking of a sheet gives prefixes of the whole sheet\'s prefix, ending at a statement', () => {
    const sheet = '@charset "utf-8";\n@import url("a.css") screen;\n@import \'b;c.css\';\n.r{x:url(d.gif)}\n';
    const whole = importPrefix(sheet);
    expect(whole).toEqual({ prefix: '@charset "utf-8";\n@import url("a.css") screen;\n@import \'b;c.css\';', done: true });
    for (let i = 0; i <= sheet.length; i++) {
      const p = importPrefix(sheet.slice(0, i)).prefix;
      expect(whole.prefix.startsWith(p)).toBe(true);
      expect(p === '' || p.endsWith(';')).toBe(true);
    }
  });
});

describe('importPrefix at chunk ends', () => {
  it.each([
    ['@import "a.css"; @', '@import "a.css";', false],
    ['@import "a.css"; /', '@import "a.css";', false],
    ['@import "a.css"; {', '@import "a.css";', true],
  ])('%j → %j (done: %s)', (css, prefix, done) => {
    expect(importPrefix(css)).toEqual({ prefix, done });
  });
});
