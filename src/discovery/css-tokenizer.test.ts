import { CssTokenizer, type CssToken } from './css-tokenizer';

function tokens(css: string): CssToken[] {
  const tokenizer = new CssTokenizer(css);
  const out: CssToken[] = [];
  for (let t = tokenizer.next(); t !== undefined; t = tokenizer.next()) out.push(t);
  return out;
}

/** Compact `type:value` view for assertions. */
function view(css: string): string[] {
  return tokens(css).map((t) => ('value' in t ? `${t.type}:${t.value}${'bad' in t && t.bad ? '!' : ''}` : t.type));
}

describe('CssTokenizer', () => {
  it('covers the input exactly, token after token', () => {
    const css = 'a{b:url(x.png) "s" 12px #id @m /* c */ <!-- --> \\41 -x}';
    const all = tokens(css);
    let at = 0;
    for (const t of all) {
      expect(t.start).toBe(at);
      expect(t.end).toBeGreaterThan(t.start);
      at = t.end;
    }
    expect(at).toBe(css.length);
  });

  it('produces url tokens for unquoted url() and function + string for quoted', () => {
    expect(view('url(a.png)')).toEqual(['url:a.png']);
    expect(view('url(  a.png  )')).toEqual(['url:a.png']);
    expect(view('url("a.png")')).toEqual(['function:url', 'string:a.png', 'delim:)']);
    expect(view("url( 'a.png' )")).toEqual(['function:url', 'whitespace', 'string:a.png', 'whitespace', 'delim:)']);
  });

  it('marks bad urls and swallows them up to the closing paren', () => {
    expect(view('url(a b) x')).toEqual(['url:a!', 'whitespace', 'ident:x']);
    expect(view('url(a"b) x')).toEqual(['url:a!', 'whitespace', 'ident:x']);
    expect(view('url(a(b) x')).toEqual(['url:a!', 'whitespace', 'ident:x']);
    expect(view('url(a\\)b c) x')).toEqual(['url:a)b!', 'whitespace', 'ident:x']);
  });

  it('decodes escapes in urls, strings and idents', () => {
    expect(view('url(a\\(b\\).png)')).toEqual(['url:a(b).png']);
    expect(view('url(hex\\2e png)')).toEqual(['url:hex.png']);
    expect(view('"q\\"d" \'\\41 B\'')).toEqual(['string:q"d', 'whitespace', 'string:AB']);
    expect(view('\\75 rl(x)')).toEqual(['url:x']); // an escaped `u` still spells url
    expect(view('"\\0"')).toEqual(['string:\ufffd']);
    expect(view('"\\1F600"')).toEqual(['string:😀']);
  });

  it('continues strings over an escaped newline and breaks them at a raw one', () => {
    expect(view('"a\\\nb"')).toEqual(['string:ab']);
    expect(view('"a\\\r\nb"')).toEqual(['string:ab']);
    expect(view('"a\nb"')).toEqual(['string:a!', 'whitespace', 'ident:b', 'string:']);
  });

  it('does not read url( inside other idents, numbers or strings', () => {
    expect(view('foourl(x)')).toEqual(['function:foourl', 'ident:x', 'delim:)']);
    expect(view('12url(x)')).toEqual(['number', 'delim:(', 'ident:x', 'delim:)']);
    expect(view('"url(x)"')).toEqual(['string:url(x)']);
  });

  it('treats comments as whitespace, unclosed ones running to the end', () => {
    expect(view('a/* url(x) */b')).toEqual(['ident:a', 'whitespace', 'ident:b']);
    expect(view('a /* url(x)')).toEqual(['ident:a', 'whitespace']);
  });

  it('reads at-keywords, hashes, CDO/CDC and delims', () => {
    expect(view('@import @-x-y #a1 # <!-- --> ; {')).toEqual([
      'at-keyword:import', 'whitespace', 'at-keyword:-x-y', 'whitespace', 'hash:a1', 'whitespace', 'delim:#', 'whitespace',
      'cdo', 'whitespace', 'cdc', 'whitespace', 'delim:;', 'whitespace', 'delim:{',
    ]);
  });

  it('ends an unterminated url or string at EOF', () => {
    expect(view('url(a.png')).toEqual(['url:a.png']);
    expect(view('"abc')).toEqual(['string:abc']);
    expect(view('\\')).toEqual(['ident:\ufffd']); // spec: a backslash before EOF is a valid escape
    expect(view('\\\n')).toEqual(['delim:\\', 'whitespace']);
  });
});
