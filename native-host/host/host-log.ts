import { appendFileSync, renameSync, rmSync, statSync, truncateSync } from 'node:fs';
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
  /** Lines go here (never to stdout: stdout carries frames only) until a write to it fails. */
  stderr: Writable;
  /** Lines are also appended to this file, created readable by the user only. */
  logFile?: string;
  /**
   * The most the log file holds. A line that would take it past this moves it to `<file>.1`
   * (replacing the previous copy) and starts a new file, so the two never hold more than twice
   * this. @default 1 MiB
   */
  capBytes?: number;
}

export const HOST_LOG_CAP_BYTES = 1024 * 1024;

/** A line longer than this is cut: one failure cannot fill the log by itself. */
const MAX_LINE_BYTES = 16 * 1024;

/**
 * The host's log: one line per event, `<ISO time> host[<pid>] <level>: <message>`. Writes are
 * synchronous appends (the host logs lifecycle events and failures, not every message), so a
 * line is on disk before the host goes on, even if it is killed right after.
 *
 * Invariants: logging never throws and never loops. After a write to stderr fails (EPIPE: the
 * reader of the browser's stderr is gone) nothing more is written there, and the failure is noted
 * once in the file. The file is checked against the cap before every line, so hosts of several
 * browsers sharing one data dir keep it capped between them.
 */
export function createHostLog(options: HostLogOptions): HostLog {
  const cap = options.capBytes ?? HOST_LOG_CAP_BYTES;
  let file = options.logFile;
  let stderr: Writable | undefined = options.stderr;
  const toFile = (line: string) => {
    if (!file) return;
    try {
      rotateIfFull(file, Buffer.byteLength(line), cap);
      appendFileSync(file, line, { mode: 0o600 });
    } catch (err) {
      const failed = file;
      file = undefined;
      toStderr(`getlist host: cannot write the log file ${failed} (${codeOf(err)}); logging to stderr only\n`);
    }
  };
  const dropStderr = (err: unknown) => {
    if (!stderr) return;
    stderr = undefined;
    toFile(line('warn', `stderr failed (${codeOf(err)}): its reader is gone, so the log goes to ${file ?? 'nowhere'} only`));
  };
  const toStderr = (text: string) => {
    if (!stderr) return;
    try {
      stderr.write(text);
    } catch (err) {
      dropStderr(err);
    }
  };
  // Without a listener, a failed write to stderr becomes an uncaught exception, whose report would
  // be written to stderr again.
  options.stderr.on('error', dropStderr);
  const write = (level: string, message: string) => {
    const text = line(level, message);
    toStderr(text);
    toFile(text);
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

function line(level: string, message: string): string {
  const bytes = Buffer.byteLength(message);
  const text = bytes <= MAX_LINE_BYTES ? message : `${Buffer.from(message).subarray(0, MAX_LINE_BYTES).toString('utf8')}… (${bytes - MAX_LINE_BYTES} more bytes cut)`;
  return `${new Date().toISOString()} host[${process.pid}] ${level}: ${text}\n`;
}

/**
 * Moves `file` to `<file>.1` when `adding` more bytes would take it past `cap`. A file already
 * past the cap (left by an older host) keeps its first `cap` bytes: the lines nearest the cause.
 */
function rotateIfFull(file: string, adding: number, cap: number): void {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return; // no file yet: the append creates it
  }
  if (size + adding <= cap) return;
  const old = `${file}.1`;
  renameSync(file, old);
  if (size > cap) truncateSync(old, cap);
}

function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException | undefined)?.code ?? String(err);
}
