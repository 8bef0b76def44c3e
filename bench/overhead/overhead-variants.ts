/**
 * The overhead benchmark's extension variants: the built extension (`full`), or a bench-only build
 * with some pieces switched off (extension/platform/bench-switches.ts), to attribute its cost.
 * A variant is named by the pieces it switches off, joined with `+` (`webrequest+headers`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BENCH_IMPLIES, BENCH_PIECES, type BenchPiece } from '../../extension/platform/bench-switches';
import { BenchRunError } from '../run/bench-run-error';
import { EXTENSION_DIR } from './overhead-browser';

const REPO = resolve(__dirname, '..', '..');

export interface OverheadVariant {
  /** `full`, `none`, or the pieces switched off joined with `+`. */
  name: string;
  off: BenchPiece[];
  /** `none`: no getlist at all, Chromium's extension system on (what the extension's own cost adds to). */
  noExtension?: boolean;
}

/** Parses `full`, `none` or `piece+piece…`; throws E_BENCH_USAGE naming the known pieces. */
export function parseVariant(spec: string): OverheadVariant {
  if (spec === 'full') return { name: 'full', off: [] };
  if (spec === 'none') return { name: 'none (extensions on, getlist not loaded)', off: [], noExtension: true };
  const off = spec.split('+').map((p) => p.trim());
  for (const p of off) {
    if (!Object.hasOwn(BENCH_PIECES, p)) {
      throw new BenchRunError('E_BENCH_USAGE', `--variants: unknown piece "${p}"; expected full or pieces joined with + from: ${Object.keys(BENCH_PIECES).join(', ')}`);
    }
  }
  // The name says what was asked; the build also switches off what that needs off.
  const all = new Set(off as BenchPiece[]);
  for (const p of off as BenchPiece[]) for (const q of BENCH_IMPLIES[p] ?? []) all.add(q);
  return { name: off.join('+'), off: [...all] };
}

/** The extension directory to load (dist/extension for `full`, else a fresh build) and how to remove it. */
export function buildVariant(variant: OverheadVariant): { dir: string; remove(): void } {
  if (variant.off.length === 0 || variant.noExtension === true) return { dir: EXTENSION_DIR, remove: () => undefined };
  const tmp = mkdtempSync(join(tmpdir(), 'getlist-overhead-build-'));
  const out = join(tmp, 'extension');
  try {
    execFileSync(process.execPath, [join(REPO, 'scripts', 'build.mjs'), '--extension-only'], {
      cwd: REPO,
      env: { ...process.env, GETLIST_EXTENSION_OUT: out, GETLIST_BENCH_OFF: variant.off.join(',') },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 60_000,
    });
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw new BenchRunError('E_RUN_FAILED', `could not build the variant ${variant.name}: ${(err as Error).message}`);
  }
  return { dir: out, remove: () => rmSync(tmp, { recursive: true, force: true }) };
}
