import type { Viewport } from './viewport';

/** Font size of the root element and of media queries when no style says otherwise (CSS px). */
export const DEFAULT_FONT_SIZE_PX = 16;

/** Absolute and viewport-relative length units, in CSS px per unit. */
function unitPx(unit: string, viewport: Viewport): number | undefined {
  switch (unit) {
    case 'px':
      return 1;
    case 'em':
    case 'rem':
      return DEFAULT_FONT_SIZE_PX;
    case 'ex':
    case 'ch':
      return DEFAULT_FONT_SIZE_PX / 2;
    case 'vw':
    case 'svw':
    case 'lvw':
    case 'dvw':
      return viewport.width / 100;
    case 'vh':
    case 'svh':
    case 'lvh':
    case 'dvh':
      return viewport.height / 100;
    case 'vmin':
      return Math.min(viewport.width, viewport.height) / 100;
    case 'vmax':
      return Math.max(viewport.width, viewport.height) / 100;
    case 'in':
      return 96;
    case 'cm':
      return 96 / 2.54;
    case 'mm':
      return 96 / 25.4;
    case 'q':
      return 96 / 101.6;
    case 'pt':
      return 96 / 72;
    case 'pc':
      return 16;
    default:
      return undefined;
  }
}

/**
 * A CSS `<length>` in px: a dimension (`50vw`, `2.5em`), `0`, or `calc()` / `min()` / `max()` /
 * `clamp()` over those. `undefined` for anything else (percentages, unknown units, junk): callers
 * treat that as "invalid", as a browser would.
 */
export function evaluateLength(text: string, viewport: Viewport): number | undefined {
  const parser = new LengthParser(text.trim().toLowerCase(), viewport);
  const value = parser.expression();
  return parser.atEnd() && value !== undefined && Number.isFinite(value) ? value : undefined;
}

/** Recursive descent over `calc()` grammar: sum → product → factor. Numbers without unit are scalars. */
class LengthParser {
  private pos = 0;

  constructor(
    private readonly s: string,
    private readonly viewport: Viewport,
  ) {}

  atEnd(): boolean {
    this.skip();
    return this.pos >= this.s.length;
  }

  expression(): number | undefined {
    let left = this.product();
    for (;;) {
      this.skip();
      const c = this.s[this.pos];
      if (c !== '+' && c !== '-' || left === undefined) return left;
      this.pos++;
      const right = this.product();
      if (right === undefined) return undefined;
      left = c === '+' ? left + right : left - right;
    }
  }

  private product(): number | undefined {
    let left = this.factor();
    for (;;) {
      this.skip();
      const c = this.s[this.pos];
      if (c !== '*' && c !== '/' || left === undefined) return left;
      this.pos++;
      const right = this.factor();
      if (right === undefined || (c === '/' && right === 0)) return undefined;
      left = c === '*' ? left * right : left / right;
    }
  }

  private factor(): number | undefined {
    this.skip();
    const fn = /^(calc|min|max|clamp)?\(/.exec(this.s.slice(this.pos));
    if (fn) {
      this.pos += fn[0].length;
      const args: number[] = [];
      for (;;) {
        const v = this.expression();
        if (v === undefined) return undefined;
        args.push(v);
        this.skip();
        const c = this.s[this.pos++];
        if (c === ')') break;
        if (c !== ',') return undefined;
      }
      switch (fn[1]) {
        case 'min':
          return Math.min(...args);
        case 'max':
          return Math.max(...args);
        case 'clamp':
          return args.length === 3 ? Math.max(args[0] as number, Math.min(args[1] as number, args[2] as number)) : undefined;
        default:
          return args.length === 1 ? args[0] : undefined;
      }
    }
    const m = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)([a-z]*)/.exec(this.s.slice(this.pos));
    if (!m) return undefined;
    this.pos += m[0].length;
    const n = Number(m[1]);
    const unit = m[2] ?? '';
    if (unit === '') return n;
    const px = unitPx(unit, this.viewport);
    return px === undefined ? undefined : n * px;
  }

  private skip(): void {
    while (this.pos < this.s.length && /\s/.test(this.s[this.pos] as string)) this.pos++;
  }
}
