import { windows1252Chars } from './windows-1252';

/** Byte of each character in a single-byte legacy encoding, built once per encoding. */
const tables = new Map<string, Map<string, number> | undefined>();

function tableFor(encoding: string): Map<string, number> | undefined {
  if (tables.has(encoding)) return tables.get(encoding);
  let table: Map<string, number> | undefined;
  try {
    const bytes = new Uint8Array(256);
    for (let i = 0; i < 256; i++) bytes[i] = i;
    const text = encoding === 'windows-1252' ? windows1252Chars() : new TextDecoder(encoding).decode(bytes);
    // Only single-byte encodings decode 256 bytes to 256 characters.
    if (text.length === 256) {
      table = new Map();
      for (let i = 255; i >= 0; i--) table.set(text[i] as string, i);
    }
  } catch {
    table = undefined;
  }
  tables.set(encoding, table);
  return table;
}

/**
 * Rewrites a URL's query as the URL parser does for a document in a legacy encoding (URL
 * Standard, "encoding override"): non-ASCII characters become their bytes in that encoding,
 * percent-encoded; characters it cannot represent become `&#N;` (percent-encoded), as browsers
 * send them. Only the query is affected — paths are always UTF-8.
 *
 * @returns the raw URL with its query rewritten, or `raw` unchanged for UTF-8, ASCII-only queries,
 *          and multi-byte encodings (not supported: their query stays UTF-8)
 */
export function withLegacyQuery(raw: string, encoding: string): string {
  if (encoding === 'utf-8') return raw;
  const q = raw.indexOf('?');
  if (q < 0) return raw;
  const hash = raw.indexOf('#', q);
  const query = raw.slice(q + 1, hash < 0 ? undefined : hash);
  if (![...query].some((ch) => ch.charCodeAt(0) > 0x7f)) return raw;
  const table = tableFor(encoding);
  if (table === undefined) return raw;
  let out = '';
  for (const ch of query) {
    if (ch.charCodeAt(0) < 0x80) {
      out += ch;
      continue;
    }
    const byte = table.get(ch);
    out += byte !== undefined ? `%${byte.toString(16).toUpperCase().padStart(2, '0')}` : encodeURIComponent(`&#${ch.codePointAt(0)};`);
  }
  return `${raw.slice(0, q + 1)}${out}${hash < 0 ? '' : raw.slice(hash)}`;
}
