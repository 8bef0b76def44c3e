/**
 * The overhead benchmark's extension variants. `lean` is the shipped build (dist/extension: no
 * webRequest/DNR permission, records from the page's own timing); `detailed` is a bench-only build
 * holding Detailed capture's optional permissions from install, as a user runs after granting them
 * and restarting Chromium (extension/platform/detailed-capture.ts); `none` is Chromium with its
 * extension system on and getlist not loaded; `sham` is a second browser alone, launched exactly as the
 * baseline, whose ratio to it is the bench's own zero. Pieces switched off (extension/platform/bench-pieces.ts)
 * are joined with `+`, on the lean build (`storage+measure`) or after `detailed:` (`detailed:webrequest+headers`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BENCH_PIECES, DETAILED_ONLY_PIECES, type BenchPiece } from '../../extension/platform/bench-pieces';
import { BenchRunError } from '../cli/bench-run-error';
import { EXTENSION_DIR } from './overhead-browser';

const REPO = resolve(__dirname, '..', '..');

export interface OverheadVariant {
  /** `lean`, `detailed`, `none`, or the build and the pieces switched off. */
  name: string;
  off: BenchPiece[];
  /** Detailed capture's permissions held (a bench-only build). */
  detailed?: boolean;
  /** `none`: no getlist at all, Chromium's extension system on (what the extension's own cost adds to). */
  noExtension?: boolean;
  /** `sham`: a second browser alone, launched as the baseline is: the bench's own zero. */
  sham?: boolean;
}

/**
 * Parses `lean` (also `full`, its name before lean capture was the default), `detailed`, `none`, `sham`,
 * `piece+piece…` or `detailed:piece+piece…`; throws E_BENCH_USAGE naming the known pieces.
 */
export function parseVariant(spec: string): OverheadVariant {
  if (spec === 'lean' || spec === 'full') return { name: 'lean', off: [] };
  if (spec === 'detailed') return { name: 'detailed', off: [], detailed: true };
  if (spec === 'none') return { name: 'none (extensions on, getlist not loaded)', off: [], noExtension: true };
  if (spec === 'sham') return { name: 'sham (a second browser alone)', off: [], noExtension: true, sham: true };
  const detailed = spec.startsWith('detailed:');
  const off = (detailed ? spec.slice('detailed:'.length) : spec).split('+').map((p) => p.trim());
  for (const p of off) {
    if (!Object.hasOwn(BENCH_PIECES, p)) {
      throw new BenchRunError('E_BENCH_USAGE', `--variants: unknown piece "${p}"; expected lean, detailed, none, sham, or pieces joined with + (after "detailed:" for the detailed build) from: ${Object.keys(BENCH_PIECES).join(', ')}`);
    }
    if (!detailed && DETAILED_ONLY_PIECES.includes(p as BenchPiece)) {
      throw new BenchRunError('E_BENCH_USAGE', `--variants: "${p}" exists only in the detailed build (the lean one adds no webRequest listener): write detailed:${off.join('+')}`);
    }
  }
  return { name: spec, off: off as BenchPiece[], ...(detailed ? { detailed: true } : {}) };
}

/** The extension directory to load (dist/extension for `lean`, else a fresh build) and how to remove it. */
export function buildVariant(variant: OverheadVariant): { dir: string; remove(): void } {
  if ((variant.off.length === 0 && variant.detailed !== true) || variant.noExtension === true) return { dir: EXTENSION_DIR, remove: () => undefined };
  const tmp = mkdtempSync(join(tmpdir(), 'getlist-overhead-build-'));
  const out = join(tmp, 'extension');
  try {
    execFileSync(process.execPath, [join(REPO, 'scripts', 'build.mjs'), '--extension-only'], {
      cwd: REPO,
      env: { ...process.env, GETLIST_EXTENSION_OUT: out, GETLIST_BENCH_OFF: variant.off.join(','), GETLIST_BENCH_DETAILED: variant.detailed === true ? '1' : '' },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 60_000,
    });
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw new BenchRunError('E_RUN_FAILED', `could not build the variant ${variant.name}: ${(err as Error).message}`);
  }
  return { dir: out, remove: () => rmSync(tmp, { recursive: true, force: true }) };
}
