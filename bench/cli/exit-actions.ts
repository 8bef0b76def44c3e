/**
 * What a benchmark undoes when its process ends with links or origins still running (namespaces,
 * the forwarder, nginx and the zoo's daemons): one `exit` listener for all of them, so `--jobs N`
 * does not add listeners per link (Node warns past ten).
 *
 * A process killed by SIGINT, SIGTERM or SIGHUP never emits `exit`: Node's default action ends it
 * at once. So the actions also run on those signals, and the signal is then raised again, unless
 * another handler (run-main.ts `stopOnSignals`) ends the process itself, so it still ends the way
 * it was asked to (its exit status says which signal).
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
      // Best effort at exit: one action's failure must not keep the others' processes running.
    }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  runExitActions();
  process.off('exit', runExitActions);
  for (const s of SIGNALS) process.off(s, onSignal);
  // Raised again only when no other handler is left to end the process.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}
