/**
 * What to undo if the process exits with origins still running: one `exit` listener for all of
 * them, so `--jobs N` does not add two listeners per link (Node warns past ten).
 *
 * A process killed by SIGINT, SIGTERM or SIGHUP never emits `exit`: Node's default action ends it
 * at once. So the actions also run on those signals, and the signal is then raised again, as
 * bench/link/cleanup-registry.ts does for the link, so the process still ends the way it was asked
 * to (its exit status says which signal). Without this a bench stopped by `kill` left its zoo
 * members' daemons running, serving from a deleted work directory.
 */
const exitActions = new Set<() => void>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Runs `action` when the process exits or is stopped by one of `SIGNALS`, unless the returned function is called first. */
export function atExit(action: () => void): () => void {
  if (exitActions.size === 0) {
    process.on('exit', runExitActions);
    for (const s of SIGNALS) process.on(s, onSignal);
  }
  exitActions.add(action);
  return () => {
    exitActions.delete(action);
    if (exitActions.size > 0) return;
    process.off('exit', runExitActions);
    for (const s of SIGNALS) process.off(s, onSignal);
  };
}

function runExitActions(): void {
  for (const action of [...exitActions]) {
    exitActions.delete(action);
    try {
      action();
    } catch {
      // Best effort at exit: one origin's failure must not keep the others' nginx running.
    }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  runExitActions();
  process.off('exit', runExitActions);
  for (const s of SIGNALS) process.off(s, onSignal);
  // Raised again only when no other handler is left to do it (the link's registry re-raises too).
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}
