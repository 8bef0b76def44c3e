import { isIP } from 'node:net';

/** `address:port`, with an IPv6 address in brackets. */
export function listenAddress(address: string, port: number): string {
  return `${isIP(address) === 6 ? `[${address}]` : address}:${port}`;
}
