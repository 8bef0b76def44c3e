/**
 * Which pieces (bench-pieces.ts) this build has switched off: the one module that reads the
 * `GETLIST_BENCH_OFF` define. scripts/build.mjs sets it from the environment variable of that name,
 * '' in `npm run build` and `npm run package`; only bench/overhead/ builds variants with pieces off.
 *
 * With '' every constant below is `false` at build time: esbuild (minifySyntax) inlines it where it
 * is used and drops the branch it guards, so the shipped bundles carry no switch and nothing can turn
 * a piece off. That folding needs each constant to be a plain expression of the define, and this
 * module to hold nothing else that runs: keep it so.
 */
import type { BenchPiece } from './bench-pieces';

declare const GETLIST_BENCH_OFF: string;

const BENCH_BUILD = GETLIST_BENCH_OFF !== '';

export const NAVIGATION_OFF: boolean = BENCH_BUILD && GETLIST_BENCH_OFF.split(',').includes('navigation' satisfies BenchPiece);
export const WEBREQUEST_OFF: boolean = BENCH_BUILD && GETLIST_BENCH_OFF.split(',').includes('webrequest' satisfies BenchPiece);
export const HEADERS_OFF: boolean = BENCH_BUILD && GETLIST_BENCH_OFF.split(',').includes('headers' satisfies BenchPiece);
export const HINTS_OFF: boolean = BENCH_BUILD && GETLIST_BENCH_OFF.split(',').includes('hints' satisfies BenchPiece);
export const STORAGE_OFF: boolean = BENCH_BUILD && GETLIST_BENCH_OFF.split(',').includes('storage' satisfies BenchPiece);
export const MEASURE_OFF: boolean = BENCH_BUILD && GETLIST_BENCH_OFF.split(',').includes('measure' satisfies BenchPiece);
export const DISCOVERY_OFF: boolean = BENCH_BUILD && GETLIST_BENCH_OFF.split(',').includes('discovery' satisfies BenchPiece);
export const TIMINGS_OFF: boolean = BENCH_BUILD && GETLIST_BENCH_OFF.split(',').includes('timings' satisfies BenchPiece);
export const CONTENT_OFF: boolean = BENCH_BUILD && GETLIST_BENCH_OFF.split(',').includes('content' satisfies BenchPiece);
