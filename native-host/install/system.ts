import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The platforms the installer knows. Every Unix other than macOS is treated like Linux: Chrome,
 * Chromium and Firefox use the same XDG-style per-user locations there.
 */
export type Platform = 'linux' | 'darwin' | 'win32';

export interface ExecResult {
  /** Exit code; -1 when the program could not be started. */
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program without a shell. Only used for `reg.exe` on Windows. */
export type Exec = (file: string, args: readonly string[]) => Promise<ExecResult>;

/** The parts of `node:fs` the installer uses (all synchronous: files are tiny). */
export type InstallFs = Pick<
  typeof fs,
  'existsSync' | 'readFileSync' | 'writeFileSync' | 'mkdirSync' | 'statSync' | 'lstatSync' | 'rmSync' | 'chmodSync' | 'realpathSync' | 'renameSync' | 'accessSync' | 'openSync' | 'fstatSync' | 'readSync' | 'closeSync' | 'writeSync' | 'fsyncSync'
>;

/**
 * Everything the installer reads from the machine, passed in so tests run against temp dirs, a
 * fake platform and a fake `reg.exe` (web-ext style: `install(opts, sys = realSystem())`).
 */
export interface InstallSystem {
  platform: Platform;
  env: Readonly<Record<string, string | undefined>>;
  /** The user's home directory. */
  homedir: string;
  fs: InstallFs;
  exec: Exec;
  /** Absolute path of the node binary the launcher runs (browsers start hosts with a minimal PATH). */
  nodePath: string;
  /**
   * Prefix for fixed system locations (`/snap/bin`, `/Applications`, `/var/lib/flatpak`).
   * @default '/'
   */
  systemRoot: string;
}

export function toPlatform(p: NodeJS.Platform): Platform {
  return p === 'darwin' || p === 'win32' ? p : 'linux';
}

/** `path.posix` or `path.win32`, so Windows paths are built correctly when tests fake win32 on Linux. */
export function pathFor(platform: Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

const realExec: Exec = (file, args) =>
  new Promise((resolve) => {
    execFile(file, [...args], { windowsHide: true }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr || (err && code === -1 ? err.message : '')) });
    });
  });

/** This machine. */
export function realSystem(): InstallSystem {
  return {
    platform: toPlatform(process.platform),
    env: process.env,
    homedir: os.homedir(),
    fs,
    exec: realExec,
    nodePath: process.execPath,
    systemRoot: '/',
  };
}
