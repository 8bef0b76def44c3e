import { CliError } from './cli-error';
import { DEMO_USAGE, demoCommand } from './demo-command';
import { DOCTOR_USAGE, doctorCommand } from './doctor-command';
import { INSTALL_USAGE, installCommand } from './install-command';
import { processIo, type CliIo } from './io';
import { EXPORT_USAGE, exportCommand } from './export-command';
import { HOST_USAGE, hostCommand } from './host-command';
import { LOAD_DETAILS, LOAD_USAGE, loadCommand } from './load-command';
import { STATS_USAGE, statsCommand } from './stats-command';
import { UNINSTALL_USAGE, uninstallCommand } from './uninstall-command';

export const VERSION = '0.1.0';

const COMMANDS: Record<string, { usage: string; summary: string; details?: string; run: (argv: readonly string[], io: CliIo) => Promise<number> }> = {
  load: { usage: LOAD_USAGE, summary: 'load a page with each strategy and compare', details: LOAD_DETAILS, run: loadCommand },
  demo: { usage: DEMO_USAGE, summary: 'serve the bundled demo site behind an emulated link and compare strategies', run: demoCommand },
  stats: { usage: STATS_USAGE, summary: 'handshake-time percentiles and CDFs from the store', run: (argv, io) => statsCommand(argv, io) },
  export: { usage: EXPORT_USAGE, summary: 'export the stored handshake stats as csv, json or prom', run: (argv, io) => exportCommand(argv, io) },
  install: { usage: INSTALL_USAGE, summary: 'install the native messaging host for Chrome, Chromium and Firefox', run: installCommand },
  uninstall: { usage: UNINSTALL_USAGE, summary: 'remove the native messaging host manifests and launcher', run: uninstallCommand },
  doctor: { usage: DOCTOR_USAGE, summary: 'check the host installation end to end, with fixes', run: doctorCommand },
  host: { usage: HOST_USAGE, summary: 'the native messaging host the browser starts (frames on stdin/stdout)', run: (argv, io) => hostCommand(argv, io, { hostVersion: VERSION }) },
};

function help(command?: string): string {
  const c = command ? COMMANDS[command] : undefined;
  if (c) return `usage: ${c.usage}\n\n${c.summary}\n${c.details ? `\n${c.details}\n` : ''}`;
  const lines = Object.entries(COMMANDS).map(([name, x]) => `  ${name.padEnd(6)} ${x.summary}`);
  return `getlist ${VERSION} — a browser-side connection scheduler\n\nusage: getlist <command> [options]\n\n${lines.join('\n')}\n  help   show this, or \`getlist help <command>\`\n\nRun \`getlist help <command>\` for a command's options.\n`;
}

/** Entry point; returns the exit code. Errors print as `getlist: CODE: message`. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    io.out(help(rest[0]));
    return 0;
  }
  if (command === 'version' || command === '--version') {
    io.out(`${VERSION}\n`);
    return 0;
  }
  const c = COMMANDS[command];
  if (!c) {
    io.err(`getlist: E_USAGE: unknown command ${JSON.stringify(command)}\n\n${help()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(help(command));
    return 0;
  }
  try {
    return await c.run(rest, io);
  } catch (err) {
    if (err instanceof CliError) {
      io.err(`getlist: ${err.code}: ${err.message}\n`);
      return err.exitCode;
    }
    throw err;
  }
}
