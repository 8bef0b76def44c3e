import { scanHtml } from '.';
test('x', () => {
  const html = `<!doctype html><html><head><link rel=icon href=/i16.png sizes=16x16><link rel=icon href=/i32.png sizes=32x32><link rel=apple-touch-icon href=/apple.png>
  <style>.hero{background:url(/hero.jpg)} .nomatch{background:url(/no.jpg)} @media (max-width:600px){.hero{background:url(/small.jpg)}}
  @font-face{font-family:Inter;src:url(/inter.woff2) format("woff2"),url(/inter.woff) format("woff");unicode-range:U+0000-00FF}
  @font-face{font-family:Inter;src:url(/inter-cyr.woff2) format("woff2");unicode-range:U+0400-04FF}
  @font-face{font-family:Inter;font-weight:700;src:url(/inter-bold.woff2) format("woff2")}
  body{font-family:Inter,sans-serif} .late{background-image:image-set(url(/l1.png) 1x, url(/l2.png) 2x)}</style></head>
  <body><div class=hero>Hello</div><img src=a.jpg srcset="a-320.jpg 320w, a-640.jpg 640w, a-1280.jpg 1280w, a-2560.jpg 2560w" sizes="(max-width: 600px) 100vw, 50vw">
  <picture><source type=image/jxl srcset=p.jxl><source media="(max-width: 500px)" srcset=p-small.webp><source type=image/webp srcset="p.webp 1x, p2.webp 2x"><img src=p.jpg></picture>
  <p class=late>x</p><svg><image href=svgimg.png /><use href="sprite.svg#a"/><use href="#local"/></svg>
  <img loading=lazy src=lazy1.jpg width=100 height=100>
  <div style="height:1px"><img src=tall.jpg width=1000 height=5000></div><img loading=lazy src=lazy2.jpg width=10 height=10>
  <img src="http://ext.example/mixed.png"><script src="http://ext.example/mixed.js"></script>
  </body></html>`;
  console.log(scanHtml(html, 'https://example.test/p/').map((r) => `${r.url} ${r.kind} ${r.tag} ${r.attribute} ${r.deferred ? 'deferred' : ''} ${r.mixedContent ?? ''}`).join('\n'));
});
