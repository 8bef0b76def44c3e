import { CssTokenizer, type CssToken } from './css-tokenizer';

/** A declaration (`name: value`), `!important` removed from the value tokens. */
export interface CssDeclaration {
  /** Lower-cased, except custom properties (`--x`), which keep their case. */
  name: string;
  value: CssToken[];
}

/** A rule: a style rule (`selector { … }`) or an at-rule (`@media … { … }`, `@import …;`). */
export type CssRule =
  | { type: 'style'; selector: string; start: number; declarations: CssDeclaration[]; rules: CssRule[] }
  | { type: 'at'; name: string; prelude: CssToken[]; start: number; block: boolean; declarations: CssDeclaration[]; rules: CssRule[] };

type Significant = Exclude<CssToken, { type: 'whitespace' }>;

/**
 * Parses a style sheet into rules (CSS Syntax 3 §5 "consume a list of rules" and §5.4.4 "consume a
 * block's contents", with CSS Nesting: a block may hold declarations and nested rules). Error
 * recovery follows the standard's shape — a bad declaration is dropped up to its `;`, an
 * unterminated block ends at the end of the sheet — so what survives is what a browser keeps.
 * Never throws.
 */
export function parseCss(css: string): CssRule[] {
  const tokens: CssToken[] = [];
  const tokenizer = new CssTokenizer(css);
  for (let t = tokenizer.next(); t !== undefined; t = tokenizer.next()) {
    if (t.type !== 'cdo' && t.type !== 'cdc') tokens.push(t);
  }
  return new RuleParser(css, tokens).topLevel();
}

/** The text of `tokens` with runs of whitespace collapsed to one space, trimmed. */
export function tokensText(css: string, tokens: readonly CssToken[]): string {
  let out = '';
  for (const t of tokens) out += t.type === 'whitespace' ? ' ' : css.slice(t.start, t.end);
  return out.replace(/\s+/g, ' ').trim();
}

class RuleParser {
  private pos = 0;
  /** The stop `until` consumed last (`''` when it ran into `}` or the end). */
  private stoppedAt = '';

  constructor(
    readonly css: string,
    private readonly tokens: readonly CssToken[],
  ) {}

  topLevel(): CssRule[] {
    const rules: CssRule[] = [];
    while (this.pos < this.tokens.length) {
      const t = this.tokens[this.pos] as CssToken;
      if (t.type === 'whitespace' || isDelim(t, ';') || isDelim(t, '}')) {
        this.pos++;
      } else if (t.type === 'at-keyword') {
        rules.push(this.atRule());
      } else {
        const rule = this.styleRule();
        if (rule) rules.push(rule);
      }
    }
    return rules;
  }

  /** After `{`: declarations and nested rules up to the matching `}` (consumed). */
  private blockContents(): { declarations: CssDeclaration[]; rules: CssRule[] } {
    const declarations: CssDeclaration[] = [];
    const rules: CssRule[] = [];
    while (this.pos < this.tokens.length) {
      const t = this.tokens[this.pos] as CssToken;
      if (isDelim(t, '}')) {
        this.pos++;
        break;
      }
      if (t.type === 'whitespace' || isDelim(t, ';')) {
        this.pos++;
      } else if (t.type === 'at-keyword') {
        rules.push(this.atRule());
      } else if (t.type === 'ident' && this.endsWith() !== '{') {
        const d = this.declaration();
        if (d) declarations.push(d);
      } else {
        const rule = this.styleRule();
        if (rule) rules.push(rule);
      }
    }
    return { declarations, rules };
  }

  /** Which of `;`, `{`, `}` (or end) comes first at depth 0 from here. */
  private endsWith(): string {
    let depth = 0;
    for (let i = this.pos; i < this.tokens.length; i++) {
      const t = this.tokens[i] as CssToken;
      if (t.type === 'function' || isDelim(t, '(') || isDelim(t, '[')) depth++;
      else if (isDelim(t, ')') || isDelim(t, ']')) depth = Math.max(0, depth - 1);
      else if (depth === 0 && t.type === 'delim' && (t.value === ';' || t.value === '{' || t.value === '}')) return t.value;
    }
    return '';
  }

  private declaration(): CssDeclaration | undefined {
    const nameToken = this.tokens[this.pos] as Significant & { value: string };
    this.pos++;
    const value = this.until(';', false);
    const colon = value.findIndex((t) => t.type !== 'whitespace');
    if (colon < 0 || !isDelim(value[colon] as CssToken, ':')) return undefined;
    let rest = value.slice(colon + 1);
    // Drop `! important` at the end.
    const significant = rest.map((t, i) => [t, i] as const).filter(([t]) => t.type !== 'whitespace');
    const last = significant[significant.length - 1];
    const bang = significant[significant.length - 2];
    if (last && bang && last[0].type === 'ident' && last[0].value.toLowerCase() === 'important' && isDelim(bang[0], '!')) rest = rest.slice(0, bang[1]);
    const name = nameToken.value.startsWith('--') ? nameToken.value : nameToken.value.toLowerCase();
    return { name, value: rest };
  }

  private styleRule(): CssRule | undefined {
    const start = (this.tokens[this.pos] as CssToken).start;
    const prelude = this.until('{', true);
    if (this.stoppedAt !== '{') return undefined; // no block: not a rule
    const { declarations, rules } = this.blockContents();
    return { type: 'style', selector: tokensText(this.css, prelude), start, declarations, rules };
  }

  private atRule(): CssRule {
    const at = this.tokens[this.pos] as Significant & { value: string };
    this.pos++;
    const prelude = this.until(';{', true);
    const block = this.stoppedAt === '{';
    const contents = block ? this.blockContents() : { declarations: [], rules: [] };
    return { type: 'at', name: at.value.toLowerCase(), prelude, start: at.start, block, ...contents };
  }

  /**
   * Tokens up to (not including) the first of `stops` at depth 0, which is consumed; a `}` at
   * depth 0 ends the run without being consumed (it closes the enclosing block).
   */
  private until(stops: string, stopAtBrace: boolean): CssToken[] {
    const out: CssToken[] = [];
    let depth = 0;
    this.stoppedAt = '';
    while (this.pos < this.tokens.length) {
      const t = this.tokens[this.pos] as CssToken;
      if (depth === 0 && t.type === 'delim') {
        if (stops.includes(t.value) && (t.value !== '{' || stopAtBrace)) {
          this.pos++;
          this.stoppedAt = t.value;
          return out;
        }
        if (t.value === '}') return out;
      }
      if (t.type === 'function' || isDelim(t, '(') || isDelim(t, '[')) depth++;
      else if (isDelim(t, ')') || isDelim(t, ']')) depth = Math.max(0, depth - 1);
      out.push(t);
      this.pos++;
    }
    return out;
  }
}

export function isDelim(t: CssToken, value: string): boolean {
  return t.type === 'delim' && t.value === value;
}
