import { InstallError } from './install-error';
import { pathFor, type Platform } from './system';

/** The launcher's file name in the data dir. */
export function launcherFileName(platform: Platform): string {
  return platform === 'win32' ? 'getlist-host.bat' : 'getlist-host';
}

export function launcherPath(dataDir: string, platform: Platform): string {
  return pathFor(platform).join(dataDir, launcherFileName(platform));
}

/**
 * The command the launcher runs, before the arguments the browser passes: `<node> <package>/bin/getlist.js host`.
 * Both paths are absolute because browsers start hosts with a minimal PATH (often no node on it).
 */
export function defaultHostCommand(nodePath: string, packageRoot: string, platform: Platform): string[] {
  return [nodePath, pathFor(platform).join(packageRoot, 'bin', 'getlist.js'), 'host'];
}

/**
 * The launcher script text. POSIX: a `/bin/sh` script that `exec`s the command (so the host is
 * the process the browser started and gets its signals) and forwards the browser's arguments.
 * Windows: a batch file; browsers run it through `cmd.exe`, `@echo off` keeps cmd from writing
 * anything to stdout, which carries frames only.
 */
export function launcherScript(command: readonly string[], platform: Platform): string {
  if (command.length === 0) throw new InstallError('E_LAUNCHER_PATH', 'the host command is empty');
  if (platform === 'win32') return `@echo off\r\n${command.map(batQuote).join(' ')} %*\r\n`;
  return `#!/bin/sh\n# getlist native messaging host launcher, written by \`getlist install\`.\nexec ${command.map(shQuote).join(' ')} "$@"\n`;
}

/** Single-quotes for sh: everything is literal except `'`, written as `'\''`. */
export function shQuote(s: string): string {
  if (s.includes('\0')) throw new InstallError('E_LAUNCHER_PATH', `${JSON.stringify(s)} contains a NUL byte`);
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Double-quotes for a batch file. Inside quotes cmd treats `&|<>^` literally but still expands
 * `%`, so it is doubled. `"` and line breaks cannot be quoted at all (and are not legal in
 * Windows paths).
 */
export function batQuote(s: string): string {
  if (/["\r\n\0]/.test(s)) throw new InstallError('E_LAUNCHER_PATH', `${JSON.stringify(s)} contains a quote or line break, which a .bat launcher cannot hold`);
  return `"${s.replace(/%/g, '%%')}"`;
}
