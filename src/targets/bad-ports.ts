/**
 * The Fetch standard's "bad ports" (https://fetch.spec.whatwg.org/#port-blocking): ports of
 * services that speak line-based text protocols (SMTP, IRC, …) and could be fooled into acting on
 * an HTTP request's lines. Chromium and Firefox refuse to connect to them for http(s) URLs, so a
 * page can never make a browser fetch from them — and getlist must not either.
 */
const BAD_PORTS: ReadonlySet<number> = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103,
  104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513,
  514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720,
  1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Whether the Fetch standard blocks `port`. */
export function isBadPort(port: number): boolean {
  return BAD_PORTS.has(port);
}

/**
 * The port an http(s) URL connects to: its explicit port, else the scheme's default. `URL`
 * normalises a default port away (`http://a:80/` has `port === ''`), so this is never ambiguous.
 */
export function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}
