import type { HostLog } from '../host/host-log';

/** Exit code after a crash (EX_SOFTWARE). */
export const CRASH_EXIT_CODE = 70;
/** After a crash, the host gets this long to close its store before the process is ended. */
const CRASH_EXIT_MS = 1000;

export interface CrashGuardOptions {
  log: HostLog;
  /** Starts the host's clean shutdown (its store is flushed and closed). */
  stop: () => void;
  /**
   * Ends the process; null leaves that to the caller (a host run in process, as tests do), and
   * the guard is removed when the host has stopped. @default process.exit
   */
  exit?: ((code: number) => void) | null;
}

export interface CrashGuard {
  /** Whether an uncaught failure has happened. */
  readonly crashed: boolean;
  /** The host has returned: from now on a crash ends the process at once. */
  hostStopped(): void;
}

/**
 * Handles uncaught exceptions and unhandled rejections of the host process. Bad input never gets
 * here (handlers catch); this is a bug, so the host stops cleanly rather than die mid-frame.
 * Invariants: it logs once, whatever follows (a crash whose report fails, as on a broken stderr,
 * cannot recurse: a failure while logging is swallowed and later crashes are not logged); it
 * never throws; the process exits with `CRASH_EXIT_CODE` within `CRASH_EXIT_MS` of the first
 * crash (checked by a timer and by every later crash, since a loop of crashes can starve timers),
 * and at once on a crash after the host has stopped.
 */
export function installCrashGuard(options: CrashGuardOptions): CrashGuard {
  const exit = options.exit === undefined ? (code: number) => process.exit(code) : options.exit;
  let firstAt: number | undefined;
  let stopped = false;
  const onCrash = (err: unknown, origin: string) => {
    if (firstAt !== undefined) {
      if (stopped || performance.now() - firstAt >= CRASH_EXIT_MS) exit?.(CRASH_EXIT_CODE);
      return;
    }
    firstAt = performance.now();
    if (exit) process.exitCode = CRASH_EXIT_CODE;
    try {
      options.log.error(`${origin === 'unhandledRejection' ? 'unhandled rejection' : 'uncaught exception'}; stopping`, err);
    } catch {
      // Nothing is left to tell it to.
    }
    if (stopped) {
      exit?.(CRASH_EXIT_CODE);
      return;
    }
    if (exit) setTimeout(() => exit(CRASH_EXIT_CODE), CRASH_EXIT_MS).unref();
    options.stop();
  };
  const onRejection = (reason: unknown) => onCrash(reason, 'unhandledRejection');
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onRejection);
  return {
    get crashed() {
      return firstAt !== undefined;
    },
    hostStopped: () => {
      stopped = true;
      if (exit) return;
      process.off('uncaughtException', onCrash);
      process.off('unhandledRejection', onRejection);
    },
  };
}
