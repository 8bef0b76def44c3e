import { appendFileSync, renameSync, rmSync, statSync } from 'node:fs';
import type { Writable } from 'node:stream';

export interface HostLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, err?: unknown): void;
  /**
   * Empties the log file and removes its rotated copy ("Forget everything": error lines may name
   * the URL a request failed on). Lines still go to stderr.
   */
  clear?(): void;
}

export interface HostLogOptions {
  /** Lines go here (never to stdout: stdout carries frames only). */
  stderr: Writable;
  /** Lines are also appended to this file, created readable by the user only. */
  logFile?: string;
  /** A log file larger than this at start is moved to `<file>.1` first. @default 5 MiB */
  rotateBytes?: number;
}

/**
 * The host's log: one line per event, `<ISO time> host[<pid>] <level>: <message>`. Writes are
 * synchronous appends (the host logs lifecycle events and failures, not every message), so a
 * line is on disk before the host goes on, even if it is killed right after.
 */
export function createHostLog(options: HostLogOptions): HostLog {
  let file = options.logFile;
  if (file) rotate(file, options.rotateBytes ?? 5 * 1024 * 1024);
  const write = (level: string, message: string) => {
    const line = `${new Date().toISOString()} host[${process.pid}] ${level}: ${message}\n`;
    options.stderr.write(line);
    if (!file) return;
    try {
      appendFileSync(file, line, { mode: 0o600 });
    } catch (err) {
      options.stderr.write(`getlist host: cannot write the log file ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)}); logging to stderr only\n`);
      file = undefined;
    }
  };
  return {
    info: (m) => write('info', m),
    warn: (m) => write('warn', m),
    error: (m, err) => write('error', err === undefined ? m : `${m}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
    clear: () => {
      if (!options.logFile) return;
      for (const f of [options.logFile, `${options.logFile}.1`]) rmSync(f, { force: true });
    },
  };
}

function rotate(file: string, limit: number): void {
  try {
    if (statSync(file).size > limit) renameSync(file, `${file}.1`);
  } catch {
    // No log yet, or it cannot be moved: appending will say so.
  }
}
