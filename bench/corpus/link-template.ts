/**
 * Text bodies with cross-origin links left open until serving time.
 *
 * A template names another origin as `{{host}}` followed by a root-relative path. Rendering swaps
 * each token for that origin's base URL and pads the text to its declared size, so a body is
 * byte-exact and identical for a given base-URL mapping, and its size never depends on it.
 * Invariant: a template's worst-case length (every token at {@link MAX_BASE_URL_LENGTH}) fits its
 * declared size; builders reserve that room before adding filler.
 */
import { Prng } from '../../src/core/prng';
import { SynthSizeError } from '../../native-host/demo/synth-bytes';
import { padWithComment } from '../../native-host/demo/synth-text';
import { BenchCorpusError, MAX_BASE_URL_LENGTH, type OriginBaseUrl } from './bench-page-types';

const TOKEN = /\{\{([a-z0-9.-]+)\}\}/g;

/** `{{origin}}path`: an absolute link to `path` on `origin`, filled in at render time. */
export function link(origin: string, path: string): string {
  return `{{${origin}}}${path}`;
}

/** Length of `template` once rendered with the longest base URL allowed. */
export function worstCaseLength(template: string): number {
  let length = template.length;
  for (const m of template.matchAll(TOKEN)) length += MAX_BASE_URL_LENGTH - m[0].length;
  return length;
}

export type PadStyle = 'html' | 'code';

/** Renders `template`'s links through `baseUrl` and pads to exactly `size` bytes (ASCII). */
export function renderTemplate(template: string, size: number, baseUrl: OriginBaseUrl, style: PadStyle, seed: string): string {
  const text = template.replace(TOKEN, (_, origin: string) => {
    const base = baseUrl(origin);
    if (base.length > MAX_BASE_URL_LENGTH || !/^https?:\/\/[\x21-\x7e]+$/.test(base) || base.endsWith('/')) {
      throw new BenchCorpusError('E_BENCH_BASE_URL',
        `base URL for ${origin} must be http(s)://host[:port], printable ASCII, no trailing slash, at most ${MAX_BASE_URL_LENGTH} chars; got ${JSON.stringify(base)}`);
    }
    return base;
  });
  const rng = new Prng(`pad:${seed}`);
  if (style === 'code') return padWithComment(text, size, rng);
  return padHtml(text, size, rng);
}

/** Pads an HTML document with a trailing `<!-- … -->` (comments may follow `</html>`). */
function padHtml(text: string, size: number, rng: Prng): string {
  const room = size - text.length;
  if (room < 0) throw new SynthSizeError(`document is ${text.length} bytes, over its ${size}-byte budget`);
  if (room < 8) return text + ' '.repeat(room);
  // padWithComment('', n) is "\n/*" + n-5 filler chars + "*/"; its filler (words and spaces) never
  // holds `--`, so it is a valid HTML comment body too.
  const filler = padWithComment('', room - 2, rng).slice(3, -2);
  return `${text}<!--${filler}-->`;
}
