import { shQuote } from './launcher';

/** Characters a POSIX shell or cmd.exe passes through unquoted in a path. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./\\-]+$/;

/**
 * The command line that runs the getlist CLI of one installation: `node script`, each part quoted
 * only when it needs to be (single quotes for POSIX shells, double quotes on Windows), so a user
 * can paste it and append a subcommand (`… doctor`) from any directory.
 */
export function cliCommandLine(nodePath: string, scriptPath: string, platform: NodeJS.Platform): string {
  const quote = (s: string) => (PLAIN.test(s) ? s : platform === 'win32' ? `"${s}"` : shQuote(s));
  return `${quote(nodePath)} ${quote(scriptPath)}`;
}
