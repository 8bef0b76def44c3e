/**
 * The character encoding of an HTML document as a browser determines it before parsing (HTML
 * "encoding sniffing", simplified): a byte order mark, then the `charset` of `Content-Type`, then
 * a `<meta charset>` / `<meta http-equiv=content-type>` in the first 1024 bytes, else UTF-8 (the
 * browser's last resort is locale-dependent; UTF-8 is the modern default). The label is
 * normalised by `TextDecoder`, so `latin1` and `iso-8859-1` both come back as `windows-1252`.
 */
export function sniffCharset(prefix: Uint8Array, contentType: string | undefined): string {
  if (prefix[0] === 0xef && prefix[1] === 0xbb && prefix[2] === 0xbf) return 'utf-8';
  if (prefix[0] === 0xfe && prefix[1] === 0xff) return 'utf-16be';
  if (prefix[0] === 0xff && prefix[1] === 0xfe) return 'utf-16le';
  const fromHeader = contentType === undefined ? undefined : /;\s*charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType)?.[1];
  const known = fromHeader === undefined ? undefined : normalize(fromHeader);
  if (known !== undefined) return known;
  let head = '';
  for (let i = 0; i < Math.min(prefix.length, 1024); i++) head += String.fromCharCode(prefix[i] as number);
  const meta = /<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.-]+)/i.exec(head)?.[1];
  const fromMeta = meta === undefined ? undefined : normalize(meta);
  // A meta declaring UTF-16 is read as UTF-8 (the bytes are ASCII-compatible if we could read it).
  if (fromMeta !== undefined) return fromMeta.startsWith('utf-16') ? 'utf-8' : fromMeta;
  return 'utf-8';
}

/** The WHATWG name of an encoding label, or `undefined` when the label is unknown. */
function normalize(label: string): string | undefined {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}
