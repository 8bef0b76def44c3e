/** Tiny DOM builders for the extension pages (no framework; CSP forbids inline scripts anyway). */

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el: Element, attrs: Attrs): void {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(el: Element, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'number' ? String(c) : c);
  }
}

/**
 * Puts a download link for `data` into `container` (replacing the previous one with the same
 * test id) and clicks it. The link stays, so the user can click it again.
 */
export function offerDownload(container: Element, testId: string, fileName: string, data: string, mimeType: string): HTMLAnchorElement {
  const old = container.querySelector(`a[data-testid="${testId}"]`);
  if (old instanceof HTMLAnchorElement) {
    URL.revokeObjectURL(old.href);
    old.remove();
  }
  const href = URL.createObjectURL(new Blob([data], { type: mimeType }));
  const a = h('a', { 'data-testid': testId, download: fileName, href, class: 'download-link' }, `Download ${fileName}`);
  container.append(a);
  a.click();
  return a;
}

/** `12 ms`, `1 234 ms`; one decimal under 10 ms. */
export function ms(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  return `${value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US')} ms`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(2)} MiB`;
}
