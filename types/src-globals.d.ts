// The only ambient globals src/ may use: web-platform APIs that exist, with the same behaviour,
// in Node >= 20 and in every browser we support. tsconfig.src.json compiles src/ against this file
// and no Node or DOM library, so anything else (process, Buffer, window, document…) fails to compile.
declare class URL {
  constructor(url: string, base?: string | URL);
  href: string;
  origin: string;
  protocol: string;
  username: string;
  password: string;
  host: string;
  hostname: string;
  port: string;
  pathname: string;
  search: string;
  hash: string;
  toString(): string;
  static canParse(url: string, base?: string): boolean;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  readonly encoding: string;
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(src: string, dest: Uint8Array): { read: number; written: number };
}
