/**
 * windows-1252's bytes 0x80–0x9F (WHATWG Encoding index). Needed because Node 20's `TextDecoder`
 * decodes the `windows-1252` label (which also covers `latin1` and `iso-8859-1`) as ISO-8859-1,
 * turning `€` (0x80) or `–` (0x96) into C1 controls, where browsers do not.
 */
const HIGH: readonly number[] = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/** Decodes windows-1252 bytes as browsers do (single-byte: no state between chunks). */
export function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += String.fromCharCode(b >= 0x80 && b <= 0x9f ? (HIGH[b - 0x80] as number) : b);
  return out;
}

/** The 256 characters of windows-1252, by byte. */
export function windows1252Chars(): string {
  return decodeWindows1252(Uint8Array.from({ length: 256 }, (_, i) => i));
}
