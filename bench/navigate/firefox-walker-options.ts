import type { NavStep } from './user-path';

/** What the Firefox driver (firefox-walker.ts) is given, as one JSON argument. */
export interface FirefoxWalkerOptions {
  origin: string;
  steps: readonly NavStep[];
  withExtension: boolean;
  extensionDir: string;
  /** The profile lives here; `$HOME` too (the native host's manifest). */
  dir: string;
  cacheOn: boolean;
  hoverMs: number;
  timeoutMs: number;
  settleMs: number;
}
