import { InstallError } from './install-error';
import type { Exec } from './system';

/**
 * The default value of an HKCU key, via `reg query KEY /ve`; undefined when the key or value is
 * absent. The value's label ("(Default)") is localized, so the line is found by its type column.
 */
export async function readRegistryDefault(exec: Exec, key: string): Promise<string | undefined> {
  const r = await exec('reg', ['query', key, '/ve']);
  if (r.code !== 0) return undefined;
  for (const line of r.stdout.split(/\r?\n/)) {
    const m = /^\s+.*?\s{2,}REG_(?:EXPAND_)?SZ\s{2,}(.*?)\s*$/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/** Sets the key's default value (`reg add KEY /ve /t REG_SZ /d VALUE /f`), creating the key. */
export async function writeRegistryDefault(exec: Exec, key: string, value: string): Promise<void> {
  const r = await exec('reg', ['add', key, '/ve', '/t', 'REG_SZ', '/d', value, '/f']);
  if (r.code !== 0) throw new InstallError('E_REGISTRY', `reg add ${key} failed (exit ${r.code}): ${r.stderr.trim() || r.stdout.trim()}`);
}

/** Deletes the key; true if it existed. */
export async function deleteRegistryKey(exec: Exec, key: string): Promise<boolean> {
  if ((await exec('reg', ['query', key])).code !== 0) return false;
  const r = await exec('reg', ['delete', key, '/f']);
  if (r.code !== 0) throw new InstallError('E_REGISTRY', `reg delete ${key} failed (exit ${r.code}): ${r.stderr.trim() || r.stdout.trim()}`);
  return true;
}
