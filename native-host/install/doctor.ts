import { constants as fsConstants } from 'node:fs';
import { BoundedFileError, readBoundedFileSync } from '../files/read-bounded-file';
import { isChromiumFamily, type Browser } from './browser-name';
import type { DetectedBrowser } from './browsers';
import { resolveDataDir } from './data-dir';
import type { ExtensionIdentity } from './extension-identity';
import { checkHostAnswers } from './host-check';
import { chromeOrigin, parseHostManifest, type ManifestProblem } from './host-manifest';
import { launcherPath, shQuote } from './launcher';
import { hostLocation, type HostLocation } from './locations';
import { readRegistryDefault } from './registry';
import { sandboxAdvice } from './sandbox-advice';
import { realSystem, type InstallSystem } from './system';
import { MAX_MANIFEST_BYTES } from './write-file';

export type CheckName = 'sandbox' | 'manifest found' | 'manifest valid' | 'extension allowed' | 'launcher' | 'host answers';
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface DoctorCheck {
  browser: Browser;
  check: CheckName;
  status: CheckStatus;
  /** What was found, or exactly what is wrong. */
  detail: string;
  /** A command or step that fixes a `fail` or `warn`. */
  fix?: string;
}

export interface DoctorOptions {
  browsers: readonly Browser[];
  ids: ExtensionIdentity;
  /** Detected installations; snap/flatpak ones add a `sandbox` check. */
  detected: readonly DetectedBrowser[];
  userDataDir?: string;
  /** Extra `getlist install` arguments the fixes should repeat (e.g. `--extension-id X`). */
  installArgs?: readonly string[];
  /** @default 5000 */
  helloTimeoutMs?: number;
}

export interface DoctorReport {
  ok: boolean;
  checks: DoctorCheck[];
}

/**
 * Checks, for each browser, what the browser itself will do: find the manifest (on Windows via the
 * registry), parse it, see this extension admitted, find an executable launcher at an absolute
 * path, then start the launcher with a browser-like environment and exchange a hello frame. A
 * check that cannot run because an earlier one failed is `skip`. `ok` is false if any check failed.
 */
export async function doctor(opts: DoctorOptions, sys: InstallSystem = realSystem()): Promise<DoctorReport> {
  const checks: DoctorCheck[] = [];
  for (const browser of opts.browsers) checks.push(...(await checkBrowser(browser, opts, sys)));
  return { ok: !checks.some((c) => c.status === 'fail'), checks };
}

type Add = (check: CheckName, status: CheckStatus, detail: string, fix?: string) => void;

async function checkBrowser(browser: Browser, opts: DoctorOptions, sys: InstallSystem): Promise<DoctorCheck[]> {
  const out: DoctorCheck[] = [];
  const add: Add = (check, status, detail, fix) => void out.push({ browser, check, status, detail, ...(fix ? { fix } : {}) });
  const skip = (checks: CheckName[], why: string) => checks.forEach((c) => add(c, 'skip', why));
  const installFix = ['getlist install --browser', browser, ...(opts.userDataDir !== undefined ? ['--user-data-dir', shQuote(opts.userDataDir)] : []), ...(opts.installArgs ?? [])].join(' ');
  const dataDir = resolveDataDir(sys);

  for (const d of opts.detected.filter((x) => x.browser === browser && x.sandbox !== undefined)) {
    const a = sandboxAdvice(d, launcherPath(dataDir, sys.platform), sys);
    add('sandbox', a.status, a.detail, a.fix);
  }

  const loc = hostLocation(browser, sys, { dataDir, ...(opts.userDataDir !== undefined ? { userDataDir: opts.userDataDir } : {}) });
  const found = await findManifest(loc, sys);
  if ('problem' in found) {
    add('manifest found', 'fail', found.problem, installFix);
    skip(['manifest valid', 'extension allowed', 'launcher', 'host answers'], 'no manifest');
    return out;
  }
  add('manifest found', 'ok', found.path + (loc.registryKey !== undefined ? ` (from ${loc.registryKey})` : ''));

  const launcher = checkManifest(browser, found, opts, sys.platform, add, installFix);
  if (launcher === undefined) {
    skip(['extension allowed', 'launcher', 'host answers'], 'manifest unreadable');
    return out;
  }
  const problem = launcher.problem || launcherProblem(launcher.path, sys);
  if (problem) {
    add('launcher', 'fail', problem, problem.includes('not executable') ? `chmod 755 ${shQuote(launcher.path)}, or ${installFix}` : installFix);
    skip(['host answers'], 'no usable launcher');
    return out;
  }
  add('launcher', 'ok', launcher.path);

  const args = isChromiumFamily(browser) ? [chromeOrigin(opts.ids.chromeId)] : [found.path, opts.ids.geckoId];
  const host = await checkHostAnswers(launcher.path, args, installFix, sys, opts.helloTimeoutMs);
  add('host answers', host.ok ? 'ok' : 'fail', host.detail, host.fix);
  return out;
}

/** The manifest the browser would read: at its location, or (Windows) where the registry points. */
async function findManifest(loc: HostLocation, sys: InstallSystem): Promise<{ path: string; text: string } | { problem: string }> {
  let file = loc.manifestPath;
  if (loc.registryKey !== undefined) {
    const value = await readRegistryDefault(sys.exec, loc.registryKey);
    if (value === undefined) return { problem: `registry key ${loc.registryKey} is missing or has no default value` };
    file = value;
  }
  try {
    return { path: file, text: readBoundedFileSync(sys.fs, file, MAX_MANIFEST_BYTES).toString('utf8') };
  } catch (err) {
    if (!(err instanceof BoundedFileError)) throw err;
    return { problem: err.errno === 'ENOENT' ? `no manifest at ${file}` : `cannot read ${file}: ${err.message}` };
  }
}

/**
 * Adds `manifest valid` and `extension allowed`; returns the launcher path with any problem the
 * manifest itself shows about it, or undefined when the manifest is not a JSON object at all.
 */
function checkManifest(
  browser: Browser,
  found: { path: string; text: string },
  opts: DoctorOptions,
  platform: InstallSystem['platform'],
  add: Add,
  installFix: string,
): { path: string; problem: string } | undefined {
  const parsed = parseHostManifest(found.text, browser, opts.ids, platform);
  const problems = parsed.ok ? [] : parsed.problems;
  const about = (...fields: ManifestProblem['field'][]) => problems.filter((p) => fields.includes(p.field)).map((p) => p.message).join('; ');
  if (about('json')) {
    add('manifest valid', 'fail', `${found.path}: ${about('json')}`, installFix);
    return undefined;
  }
  const fields = about('name', 'type');
  if (fields) add('manifest valid', 'fail', `${found.path}: ${fields}`, installFix);
  else add('manifest valid', 'ok', 'name and type "stdio" are right');
  const allowed = about('allowed');
  if (allowed) add('extension allowed', 'fail', `${found.path}: ${allowed}`, installFix);
  else add('extension allowed', 'ok', `admits ${isChromiumFamily(browser) ? chromeOrigin(opts.ids.chromeId) : opts.ids.geckoId}`);
  return { path: String(parsed.manifest?.path), problem: about('path') };
}

/** Why a launcher path cannot be executed, or '' when it can. */
function launcherProblem(file: string, sys: InstallSystem): string {
  let st;
  try {
    st = sys.fs.statSync(file);
  } catch {
    return `launcher ${file} does not exist`;
  }
  if (!st.isFile()) return `launcher ${file} is not a file`;
  if (sys.platform === 'win32') return /\.(bat|cmd|exe)$/i.test(file) ? '' : `launcher ${file} is not a .bat, .cmd or .exe`;
  try {
    sys.fs.accessSync(file, fsConstants.X_OK);
  } catch {
    return `launcher ${file} is not executable (mode ${(st.mode & 0o777).toString(8)})`;
  }
  return '';
}
