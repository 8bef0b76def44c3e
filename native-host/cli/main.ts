import { formatCommandHelp, formatOverview, type CommandHelp } from './command-help';
import { DEMO_HELP, demoCommand } from './demo-command';
import { DOCTOR_HELP, doctorCommand } from './doctor-command';
import { INSTALL_HELP, installCommand } from './install-command';
import { endQuietlyOnBrokenPipe } from './broken-pipe';
import { processIo, type CliIo } from './io';
import { EXPORT_HELP, exportCommand } from './export-command';
import { FORGET_HELP, forgetCommand } from './forget-command';
import { METRICS_HELP, metricsCommand } from './metrics-command';
import { ORIGINS_HELP, originsCommand } from './origins-command';
import { HOST_HELP, hostCommand } from './host-command';
import { LOAD_HELP, loadCommand } from './load-command';
import { reportFailure } from './report-failure';
import { STATS_HELP, statsCommand } from './stats-command';
import { UNINSTALL_HELP, uninstallCommand } from './uninstall-command';

export const VERSION = '0.1.0';

export interface Command {
  /** What `getlist <command> --help` prints; its `flags` are the command parser's own table. */
  help: CommandHelp;
  run: (argv: readonly string[], io: CliIo) => Promise<number>;
}

/** Every subcommand, in the order `getlist --help` lists them. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  load: { help: LOAD_HELP, run: loadCommand },
  demo: { help: DEMO_HELP, run: demoCommand },
  stats: { help: STATS_HELP, run: (argv, io) => statsCommand(argv, io) },
  export: { help: EXPORT_HELP, run: (argv, io) => exportCommand(argv, io) },
  origins: { help: ORIGINS_HELP, run: originsCommand },
  forget: { help: FORGET_HELP, run: forgetCommand },
  metrics: { help: METRICS_HELP, run: (argv, io) => metricsCommand(argv, io) },
  install: { help: INSTALL_HELP, run: installCommand },
  uninstall: { help: UNINSTALL_HELP, run: uninstallCommand },
  doctor: { help: DOCTOR_HELP, run: doctorCommand },
  host: { help: HOST_HELP, run: (argv, io) => hostCommand(argv, io, { hostVersion: VERSION }) },
};

function help(command?: string): string {
  const c = command ? COMMANDS[command] : undefined;
  return c ? formatCommandHelp(c.help) : formatOverview(VERSION, COMMANDS);
}

/**
 * Entry point; returns the exit code. An error with a code prints as `getlist: CODE: message`
 * (exit 2 for `E_USAGE`, else 1); one without is a bug, printed with its stack (exit 70).
 */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  if (io === processIo && command !== 'host') endQuietlyOnBrokenPipe();
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    const topic = rest[0];
    if (topic !== undefined && !COMMANDS[topic]) {
      io.err(`getlist: E_USAGE: no command ${JSON.stringify(topic)} to show help for\n\n${help()}`);
      return 2;
    }
    io.out(help(topic));
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
    return reportFailure(err, io);
  }
}
