import type { AnyNode, Document, Element } from 'domhandler';
import { isTag, isText } from 'domhandler';
import { modelStylesheet, type FontFace, type FontRule } from './css-model';
import { compileSelector } from './selector-match';

/** The font an element's text is set in, as far as the fetch decision goes. */
interface FontStyle {
  families: readonly string[];
  weight: number;
  italic: boolean;
}

/** A font rule in cascade order (sheets in document order, rules in sheet order). */
export interface OrderedFontRule {
  rule: FontRule;
  order: number;
}

/** Text set in one web font family at one weight and style. */
export interface FontUse {
  family: string;
  weight: number;
  italic: boolean;
  codePoints: Set<number>;
}

const ROOT_STYLE: FontStyle = { families: ['serif'], weight: 400, italic: false };
const BOLD = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'b', 'strong', 'th']);
const ITALIC = new Set(['i', 'em', 'cite', 'var', 'dfn', 'address']);
const MONOSPACE = new Set(['code', 'pre', 'kbd', 'samp', 'tt']);
/** Form controls do not inherit `font` (the UA sheet sets it); their text is not in page fonts unless a rule says so. */
const CONTROLS = new Set(['input', 'textarea', 'select', 'button']);
/** Elements whose text is never rendered with the page's fonts. */
const UNRENDERED = new Set(['head', 'script', 'style', 'template', 'noscript', 'title', 'textarea', 'option', 'iframe', 'noembed', 'noframes']);
/** Generic families and names a Linux browser always has (fontconfig aliases): the search stops there. */
const ALWAYS_AVAILABLE = new Set([
  'serif', 'sans-serif', 'monospace', 'cursive', 'fantasy', 'system-ui', 'ui-serif', 'ui-sans-serif', 'ui-monospace',
  'ui-rounded', 'math', 'emoji', 'fangsong', 'arial', 'helvetica', 'times', 'times new roman', 'courier', 'courier new',
]);

/**
 * Which web fonts the page's text needs, and for which characters (CSS Fonts 4 §5: a browser
 * downloads a face when text is laid out in its family and one of the text's characters is in the
 * face's `unicode-range`). Inheritance, the UA's bold/italic/monospace defaults and
 * `::before`/`::after` text are followed; specificity is approximated by cascade order.
 *
 * @param webFamilies lower-cased families some `@font-face` declares
 */
export function fontUses(root: Document, rules: readonly OrderedFontRule[], webFamilies: ReadonlySet<string>): FontUse[] {
  const own = new Map<Element, Partial<FontStyle>>();
  const pseudo = new Map<Element, Array<{ style: Partial<FontStyle>; content: string }>>();
  for (const { rule } of [...rules].sort((a, b) => a.order - b.order)) {
    const matched = matchAll(rule.selectors, root);
    for (const el of matched) {
      const part: Partial<FontStyle> = {};
      if (rule.families) part.families = rule.families;
      if (rule.weight !== undefined) part.weight = rule.weight;
      if (rule.italic !== undefined) part.italic = rule.italic;
      if (rule.pseudo) {
        const list = pseudo.get(el) ?? [];
        const last = list[list.length - 1];
        if (rule.content !== undefined) list.push({ style: part, content: rule.content });
        else if (last) Object.assign(last.style, part);
        pseudo.set(el, list);
      } else {
        own.set(el, { ...own.get(el), ...part });
      }
    }
  }
  const uses = new Map<string, FontUse>();
  const record = (style: FontStyle, text: string): void => {
    const family = pickFamily(style.families, webFamilies);
    if (family === undefined) return;
    const key = `${family}|${style.weight}|${style.italic}`;
    let use = uses.get(key);
    if (!use) {
      use = { family, weight: style.weight, italic: style.italic, codePoints: new Set() };
      uses.set(key, use);
    }
    for (const ch of text) if (!/\s/.test(ch)) use.codePoints.add(ch.codePointAt(0) as number);
  };
  const walk = (nodes: readonly AnyNode[], inherited: FontStyle): void => {
    for (const node of nodes) {
      if (isText(node)) {
        if (/\S/.test(node.data)) record(inherited, node.data);
      } else if (isTag(node)) {
        if (UNRENDERED.has(node.name) || node.attribs['hidden'] !== undefined) continue;
        const style = elementStyle(node, inherited, own.get(node));
        for (const p of pseudo.get(node) ?? []) record({ ...style, ...p.style }, p.content);
        walk(node.children, style);
      }
    }
  };
  walk(root.children, ROOT_STYLE);
  return [...uses.values()];
}

function elementStyle(el: Element, inherited: FontStyle, own: Partial<FontStyle> | undefined): FontStyle {
  let style = inherited;
  if (CONTROLS.has(el.name)) style = { families: ['system-ui'], weight: 400, italic: false };
  if (BOLD.has(el.name)) style = { ...style, weight: 700 };
  if (ITALIC.has(el.name)) style = { ...style, italic: true };
  if (MONOSPACE.has(el.name)) style = { ...style, families: ['monospace'] };
  if (own) style = { ...style, ...own };
  const inline = el.attribs['style'];
  if (inline !== undefined && /font/i.test(inline)) {
    // `style=""` wins over every rule (specificity of an inline declaration).
    for (const rule of modelStylesheet(`x{${inline}}`, { baseUrl: 'http://inline.invalid/', dpr: 1 }).fontRules) {
      if (rule.families) style = { ...style, families: rule.families };
      if (rule.weight !== undefined) style = { ...style, weight: rule.weight };
      if (rule.italic !== undefined) style = { ...style, italic: rule.italic };
    }
  }
  return style;
}

/** The first family in the list that is a web font, unless an always-available one comes first. */
function pickFamily(families: readonly string[], webFamilies: ReadonlySet<string>): string | undefined {
  for (const f of families) {
    if (webFamilies.has(f)) return f;
    if (ALWAYS_AVAILABLE.has(f)) return undefined;
  }
  return undefined;
}

/** Every element of `root` matching any of `selectors`, in document order. */
export function matchAll(selectors: readonly string[], root: Document): Element[] {
  const out: Element[] = [];
  const tests = selectors.map(compileSelector).filter((t) => t !== undefined);
  if (tests.length === 0) return out;
  const visit = (nodes: readonly AnyNode[]): void => {
    for (const n of nodes) {
      if (!isTag(n)) continue;
      if (tests.some((t) => t(n))) out.push(n);
      visit(n.children);
    }
  };
  visit(root.children);
  return out;
}

/**
 * The faces of `faces` (one family) a browser downloads for `use`: the style and weight picked by
 * the CSS Fonts 4 §5.2 matching algorithm, then every face of that weight and style whose
 * `unicode-range` holds one of the text's characters.
 */
export function facesFor(use: FontUse, faces: readonly FontFace[]): FontFace[] {
  const sameStyle = faces.filter((f) => f.italic === use.italic);
  const styled = sameStyle.length > 0 ? sameStyle : faces;
  const weight = matchWeight(use.weight, styled.map((f) => f.weight));
  if (weight === undefined) return [];
  return styled.filter((f) => f.weight[0] <= weight && weight <= f.weight[1]).filter((f) => f.ranges === undefined || [...use.codePoints].some((cp) => f.ranges?.some(([a, b]) => cp >= a && cp <= b)));
}

/** CSS Fonts 4 §5.2 step 4 (font-weight): the available weight used for `desired`. */
export function matchWeight(desired: number, ranges: ReadonlyArray<readonly [number, number]>): number | undefined {
  if (ranges.length === 0) return undefined;
  if (ranges.some(([a, b]) => a <= desired && desired <= b)) return desired;
  const below = ranges.filter(([, b]) => b < desired).map(([, b]) => b).sort((x, y) => y - x);
  const above = ranges.filter(([a]) => a > desired).map(([a]) => a).sort((x, y) => x - y);
  if (desired >= 400 && desired <= 500) {
    const upTo500 = above.filter((w) => w <= 500);
    if (upTo500.length > 0) return upTo500[0];
    if (below.length > 0) return below[0];
    return above[0];
  }
  if (desired < 400) return below[0] ?? above[0];
  return above[0] ?? below[0];
}
