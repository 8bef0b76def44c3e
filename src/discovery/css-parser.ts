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

export interface ParseOptions {
  /**
   * Asked, for a block about to be parsed, with the text between its braces when that text holds
   * nothing that tokenizes differently from how it reads (no brace, quote, slash, backslash, and
   * brackets only in balanced pairs): `false` leaves the block empty (no declarations, no nested
   * rules) without tokenizing it. A caller that needs only some properties skips the rest of a
   * sheet at the speed of a regular expression. @default every block is parsed
   */
  keepBlock?: (text: string) => boolean;
}

/**
 * Parses a style sheet into rules (CSS Syntax 3 §5 "consume a list of rules" and §5.4.4 "consume a
 * block's contents", with CSS Nesting: a block may hold declarations and nested rules). Error
 * recovery follows the standard's shape — a bad declaration is dropped up to its `;`, an
 * unterminated block ends at the end of the sheet — so what survives is what a browser keeps.
 * Never throws.
 */
export function parseCss(css: string, options: ParseOptions = {}): CssRule[] {
  const skips = options.keepBlock ? skippableBlocks(css, options.keepBlock) : new Map<number, number>();
  return new RuleParser(css, new CssTokenizer(css), skips).topLevel();
}

/** Blocks with no brace, quote, slash (a comment, a URL path) or backslash (an escape) inside. */
const SIMPLE_BLOCK = /\{([^{}"'\\/]*)\}/g;
const BRACKET = /[()[\]]/;
const BRACKET_PAIR = /\([^()[\]]*\)|\[[^()[\]]*\]/g;

/**
 * Where each block `keep` declines starts (just after its `{`) → where it ends (its `}`). Only
 * blocks whose text tokenizes as it reads qualify: there a `}` closes the block and nothing else
 * (a `}` inside an unclosed bracket belongs to the bracket: CSS Syntax 3, "consume a simple block").
 */
function skippableBlocks(css: string, keep: (text: string) => boolean): Map<number, number> {
  const skips = new Map<number, number>();
  for (const m of css.matchAll(SIMPLE_BLOCK)) {
    const text = m[1] as string;
    if (!balanced(text) || keep(text)) continue;
    const start = (m.index as number) + 1;
    skips.set(start, start + text.length);
  }
  return skips;
}

/** Every bracket closed in order, with no stray closer (the parser's depth never goes below 0). */
function balanced(text: string): boolean {
  let rest = text;
  while (BRACKET.test(rest)) {
    const inner = rest.replace(BRACKET_PAIR, '');
    if (inner === rest) return false;
    rest = inner;
  }
  return true;
}

/** The text of `tokens` with runs of whitespace collapsed to one space, trimmed. */
export function tokensText(css: string, tokens: readonly CssToken[]): string {
  let out = '';
  for (const t of tokens) out += t.type === 'whitespace' ? ' ' : css.slice(t.start, t.end);
  return out.replace(/\s+/g, ' ').trim();
}

/** The parser over a token list filled from the tokenizer as it reads (so a declined block is never tokenized). */
class RuleParser {
  private pos = 0;
  /** The stop `until` consumed last (`''` when it ran into `}` or the end). */
  private stoppedAt = '';
  private readonly tokens: CssToken[] = [];

  constructor(
    readonly css: string,
    private readonly tokenizer: CssTokenizer,
    private readonly skips: ReadonlyMap<number, number>,
  ) {}

  /** Token `i`, read from the tokenizer if not yet (`<!--` and `-->` dropped); undefined past the end. */
  private at(i: number): CssToken | undefined {
    while (this.tokens.length <= i) {
      const t = this.tokenizer.next();
      if (t === undefined) return undefined;
      if (t.type !== 'cdo' && t.type !== 'cdc') this.tokens.push(t);
    }
    return this.tokens[i];
  }

  topLevel(): CssRule[] {
    const rules: CssRule[] = [];
    for (let t = this.at(this.pos); t !== undefined; t = this.at(this.pos)) {
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
    // Nothing after the `{` is read yet: a declined block is stepped over to its `}`.
    const skipTo = this.tokens.length === this.pos ? this.skips.get(this.tokenizer.position) : undefined;
    if (skipTo !== undefined) this.tokenizer.skipTo(skipTo);
    for (let t = this.at(this.pos); t !== undefined; t = this.at(this.pos)) {
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
    for (let i = this.pos, t = this.at(i); t !== undefined; t = this.at(++i)) {
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
    for (let t = this.at(this.pos); t !== undefined; t = this.at(this.pos)) {
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
