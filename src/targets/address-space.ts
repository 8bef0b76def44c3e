/**
 * The address spaces of Private Network Access (https://wicg.github.io/private-network-access/):
 * `local` (loopback) is more private than `private` (RFC 1918, unique-local, link-local, CGNAT,
 * …), which is more private than `public`. A page may only make requests to a space at most as
 * private as its own; getlist's host applies the same rule to the lists pages send it.
 *
 * Pure: parses textual IPv4 / IPv6 addresses (as `net.Socket#remoteAddress` and `dns.lookup`
 * report them), no name resolution.
 */
export type AddressSpace = 'local' | 'private' | 'public';

const RANK: Record<AddressSpace, number> = { public: 0, private: 1, local: 2 };

/** True when a page in `from` may not reach `to` (the target is more private). */
export function isMorePrivate(to: AddressSpace, from: AddressSpace): boolean {
  return RANK[to] > RANK[from];
}

/** The space of a textual IP address; `undefined` when `address` is not an IP literal. */
export function addressSpaceOf(address: string): AddressSpace | undefined {
  const a = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const v4 = parseIpv4(a);
  if (v4) return ipv4Space(v4);
  const v6 = parseIpv6(a);
  if (!v6) return undefined;
  // ::ffff:a.b.c.d (IPv4-mapped) is the IPv4 address.
  if (v6.slice(0, 5).every((x) => x === 0) && v6[5] === 0xffff) {
    const hi = v6[6] as number;
    const lo = v6[7] as number;
    return ipv4Space([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  }
  if (v6.slice(0, 7).every((x) => x === 0) && (v6[7] === 1 || v6[7] === 0)) return 'local'; // ::1, ::
  const first = v6[0] as number;
  if ((first & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return 'private'; // fe80::/10 link-local
  if ((first & 0xffc0) === 0xfec0) return 'private'; // fec0::/10 site-local (deprecated)
  return 'public';
}

function ipv4Space([a, b]: number[]): AddressSpace {
  if (a === 127 || a === 0) return 'local'; // 127/8 loopback; 0/8 reaches this host on Linux
  if (a === 10) return 'private';
  if (a === 172 && (b as number) >= 16 && (b as number) <= 31) return 'private';
  if (a === 192 && b === 168) return 'private';
  if (a === 169 && b === 254) return 'private'; // link-local
  if (a === 100 && (b as number) >= 64 && (b as number) <= 127) return 'private'; // CGNAT shared space
  if (a === 198 && (b === 18 || b === 19)) return 'private'; // benchmarking (RFC 2544)
  return 'public';
}

function parseIpv4(s: string): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

/** Eight 16-bit groups, or undefined. Accepts `::` compression and a trailing dotted IPv4. */
function parseIpv6(s: string): number[] | undefined {
  const zone = s.indexOf('%');
  const text = zone >= 0 ? s.slice(0, zone) : s;
  if (!text.includes(':')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    const parts = h.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i] as string;
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseIpv4(p);
        if (!v4) return undefined;
        out.push(((v4[0] as number) << 8) | (v4[1] as number), ((v4[2] as number) << 8) | (v4[3] as number));
      } else if (/^[0-9a-fA-F]{1,4}$/.test(p)) {
        out.push(parseInt(p, 16));
      } else {
        return undefined;
      }
    }
    return out;
  };
  const head = groups(halves[0] as string);
  const tail = halves.length === 2 ? groups(halves[1] as string) : [];
  if (!head || !tail) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const fill = 8 - head.length - tail.length;
  if (fill < 1) return undefined;
  return [...head, ...new Array<number>(fill).fill(0), ...tail];
}
