import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InstallFs, InstallSystem } from '../../native-host/install/system';
import type { ExtensionIdentity } from '../../native-host/install/extension-identity';

/** The repository root; tests take manifest.json and bin/getlist.js from here. */
export const REPO = path.resolve(__dirname, '..', '..');
export const FAKE_HOST = path.join(__dirname, 'fixtures', 'fake-host.js');
export const IDS: ExtensionIdentity = { chromeId: 'abcdefghijklmnopabcdefghijklmnop', geckoId: 'getlist@getlist.dev' };

export function fakeHostCommand(mode: 'answer' | 'garbage' | 'silent' | 'exit' | 'error' | 'bare'): string[] {
  return [process.execPath, FAKE_HOST, mode];
}

const made: string[] = [];
afterAll(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

export function tempDir(label = 'getlist-install-'): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), label));
  made.push(d);
  return d;
}

/**
 * A Linux-like system rooted in temp dirs: HOME, an empty PATH dir, an empty system root (no
 * /snap, no /Applications), and a `reg` that must never be called.
 */
export function tempSystem(over: Partial<InstallSystem> = {}): InstallSystem & { home: string; bin: string } {
  const base = tempDir();
  const home = path.join(base, 'home');
  const bin = path.join(base, 'bin');
  const root = path.join(base, 'root');
  for (const d of [home, bin, root]) fs.mkdirSync(d);
  return {
    platform: 'linux',
    env: { HOME: home, PATH: bin },
    homedir: home,
    fs,
    exec: async (file, args) => {
      throw new Error(`unexpected exec ${file} ${args.join(' ')}`);
    },
    nodePath: process.execPath,
    systemRoot: root,
    home,
    bin,
    ...over,
  };
}

export function capture() {
  let out = '';
  let err = '';
  return { io: { out: (s: string) => void (out += s), err: (s: string) => void (err += s) }, out: () => out, err: () => err };
}

/** An executable file (a fake browser binary or script). */
export function writeExecutable(file: string, text = '#!/bin/sh\nexit 0\n'): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode: 0o755 });
}

/**
 * `fs` with Windows paths (`C:\Users\u\…`) mapped into a temp dir, so win32 code paths write real
 * files without creating backslash-named files on this Linux machine.
 */
export function windowsFs(root: string): InstallFs {
  const map = (p: unknown) => {
    if (typeof p !== 'string') return p;
    if (!/^[A-Za-z]:\\/.test(p)) throw new Error(`not an absolute Windows path: ${p}`);
    return path.join(root, p[0] as string, ...p.slice(3).split('\\'));
  };
  const wrap =
    <F extends (...a: never[]) => unknown>(f: F) =>
    (...a: unknown[]) =>
      (f as unknown as (...x: unknown[]) => unknown)(map(a[0]), ...a.slice(1));
  return {
    existsSync: (p: fs.PathLike) => {
      try {
        return fs.existsSync(map(p) as string);
      } catch {
        return false;
      }
    },
    readFileSync: wrap(fs.readFileSync),
    writeFileSync: wrap(fs.writeFileSync),
    mkdirSync: wrap(fs.mkdirSync),
    statSync: wrap(fs.statSync),
    lstatSync: wrap(fs.lstatSync),
    rmSync: wrap(fs.rmSync),
    chmodSync: wrap(fs.chmodSync),
    accessSync: wrap(fs.accessSync),
    realpathSync: wrap(fs.realpathSync),
    openSync: wrap(fs.openSync),
    renameSync: (a: fs.PathLike, b: fs.PathLike) => fs.renameSync(map(a) as string, map(b) as string),
    fstatSync: fs.fstatSync,
    readSync: fs.readSync,
    closeSync: fs.closeSync,
    writeSync: fs.writeSync,
    fsyncSync: fs.fsyncSync,
  } as unknown as InstallFs;
}

/** A fake `reg.exe` holding HKCU default values in a map and recording every call. */
export function fakeReg() {
  const values = new Map<string, string>();
  const calls: string[][] = [];
  const exec: InstallSystem['exec'] = async (file, args) => {
    calls.push([file, ...args]);
    const [verb, key] = args as [string, string];
    if (file !== 'reg') return { code: -1, stdout: '', stderr: `no such program ${file}` };
    const missing = { code: 1, stdout: '', stderr: 'ERROR: The system was unable to find the specified registry key or value.\r\n' };
    if (verb === 'query') {
      const v = values.get(key);
      return v === undefined ? missing : { code: 0, stdout: `\r\n${key}\r\n    (Default)    REG_SZ    ${v}\r\n\r\n`, stderr: '' };
    }
    if (verb === 'add') {
      values.set(key, args[args.indexOf('/d') + 1] as string);
      return { code: 0, stdout: 'The operation completed successfully.\r\n', stderr: '' };
    }
    if (verb === 'delete') return values.delete(key) ? { code: 0, stdout: 'The operation completed successfully.\r\n', stderr: '' } : missing;
    return { code: 1, stdout: '', stderr: `unknown verb ${verb}` };
  };
  return { exec, values, calls };
}
