import { BROWSERS, type Browser } from './browser-name';
import { resolveDataDir } from './data-dir';
import { hostLocation } from './locations';
import { readRegistryDefault } from './registry';
import type { InstallSystem } from './system';

/**
 * Browsers that have a getlist host manifest at their default per-user location (on Windows: whose
 * registry key has a value). Manifests under a `--user-data-dir` are not seen: nothing records
 * where those are.
 */
export async function browsersWithManifest(sys: InstallSystem): Promise<Browser[]> {
  const dataDir = resolveDataDir(sys);
  const out: Browser[] = [];
  for (const browser of BROWSERS) {
    const loc = hostLocation(browser, sys, { dataDir });
    const present = loc.registryKey !== undefined ? (await readRegistryDefault(sys.exec, loc.registryKey)) !== undefined : sys.fs.existsSync(loc.manifestPath);
    if (present) out.push(browser);
  }
  return out;
}
