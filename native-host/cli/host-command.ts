import fs from 'node:fs';
import path from 'node:path';
import { cliCommandLine } from '../install/cli-command-line';
import { findPackageRoot } from '../install/package-root';
import { runHost, type HostOptions } from '../host/host';
import { createHostLog, type HostLog } from '../host/host-log';
import { dataDirPath, ensurePrivateDir, privacyWarning, storeDirIn } from '../store/data-dir';
import { openStore } from '../store/lmdb-store';
import type { HandshakeStore } from '../store/store-types';
import type { CommandHelp } from './command-help';
import { CRASH_EXIT_CODE, installCrashGuard } from './crash-guard';
import type { CliIo } from './io';

export const HOST_HELP: CommandHelp = {
  synopsis: 'host',
  summary: 'the native messaging host the browser starts (frames on stdin/stdout)',
  description:
    'The native messaging host. The browser starts it through the launcher `getlist install` writes and speaks ' +
    'length-prefixed JSON frames with it on stdin/stdout (docs/protocol.md); you do not run it by hand. Arguments ' +
    'are logged and ignored (Chrome passes the caller\'s origin, Firefox the manifest path and extension id). Logs go ' +
    'to stderr and <data dir>/host.log, capped at 1 MiB (older lines move to host.log.1). It exits 0 ' +
    'within 1 s when stdin ends, when stdout breaks, or on SIGTERM.',
  flags: {},
};

/** After the host has finished, the process gets this long to exit on its own before it is ended. */
const EXIT_GRACE_MS = 100;

export interface HostCommandDeps {
  hostVersion: string;
  /** Reported in `hello`. @default this process's node and the package's bin/getlist.js ({@link thisCliCommand}) */
  cliCommand?: string;
  /** @default process.stdin / stdout / stderr */
  stdio?: Pick<HostOptions, 'stdin' | 'stdout' | 'stderr'>;
  /** @default the level store in `<data dir>/handshakes` */
  openStore?: (dir: string, log: HostLog) => Promise<HandshakeStore>;
}

/**
 * `getlist host`: the native messaging host. The browser starts it with its own arguments
 * (Chrome: the caller's origin and, on Windows, `--parent-window=…`; Firefox: the manifest path
 * and the extension id), which are logged and otherwise ignored. Stdout carries frames only;
 * logs go to stderr (until a write to it fails) and to the capped `<data dir>/host.log`. Without a
 * usable data dir or store the host still serves, and `stats`, `export` and `forget` answer
 * `E_NO_STORE`. A crash is handled by the crash guard (crash-guard.ts).
 */
export async function hostCommand(argv: readonly string[], _io: CliIo, deps: HostCommandDeps): Promise<number> {
  const stdio = deps.stdio ?? { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  let dataDir: string | undefined;
  let early: string | undefined;
  try {
    dataDir = ensurePrivateDir(dataDirPath());
  } catch (err) {
    early = `no data dir, so no log file and no store: ${(err as Error).message}`;
  }
  const logFile = dataDir ? path.join(dataDir, 'host.log') : undefined;
  const log = createHostLog({ stderr: stdio.stderr, ...(logFile ? { logFile } : {}) });
  log.info(`getlist ${deps.hostVersion} host started by ${JSON.stringify(argv)}`);
  if (early) log.warn(early);
  const wide = dataDir ? privacyWarning(dataDir) : undefined;
  if (wide) log.warn(wide);

  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    log.info(`received ${signal}`);
    stop.abort();
  };
  const crash = installCrashGuard({ log, stop: () => stop.abort(), ...(deps.stdio ? { exit: null } : {}) });
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  try {
    // A SIGTERM while the store opens is honoured too: runHost then starts stopped.
    const store = dataDir ? await tryOpenStore(storeDirIn(dataDir), log, deps.openStore ?? openLmdbStore) : undefined;
    const cliCommand = deps.cliCommand ?? thisCliCommand();
    const code = await runHost({ ...stdio, hostVersion: deps.hostVersion, ...(cliCommand ? { cliCommand } : {}), ...(store ? { store } : {}), log, signal: stop.signal });
    const exitCode = crash.crashed ? CRASH_EXIT_CODE : code;
    if (!deps.stdio) {
      // Everything is closed; if some handle still holds the event loop, end the process anyway.
      setTimeout(() => process.exit(exitCode), EXIT_GRACE_MS).unref();
    }
    return exitCode;
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    crash.hostStopped();
  }
}

async function openLmdbStore(dir: string, log: HostLog): Promise<HandshakeStore> {
  return openStore({ dir, onError: (err) => log.error(`store: ${err.code}`, err) });
}

async function tryOpenStore(dir: string, log: HostLog, open: NonNullable<HostCommandDeps['openStore']>): Promise<HandshakeStore | undefined> {
  try {
    return await open(dir, log);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    log.warn(`running without a store (${typeof code === 'string' ? code : 'error'}): ${(err as Error).message}`);
    return undefined;
  }
}

/** `node …/bin/getlist.js` for this process and package, or undefined when the package root is not found. */
export function thisCliCommand(): string | undefined {
  try {
    return cliCommandLine(process.execPath, path.join(findPackageRoot(__dirname, fs), 'bin', 'getlist.js'), process.platform);
  } catch {
    return undefined;
  }
}
