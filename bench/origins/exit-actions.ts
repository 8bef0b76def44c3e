/**
 * What to undo if the process exits with origins still running: one `exit` listener for all of
 * them, so `--jobs N` does not add two listeners per link (Node warns past ten).
 */
const exitActions = new Set<() => void>();

/** Runs `action` when the process exits, unless the returned function is called first. */
export function atExit(action: () => void): () => void {
  if (exitActions.size === 0) process.on('exit', runExitActions);
  exitActions.add(action);
  return () => {
    exitActions.delete(action);
    if (exitActions.size === 0) process.off('exit', runExitActions);
  };
}

function runExitActions(): void {
  for (const action of [...exitActions]) {
    try {
      action();
    } catch {
      // Best effort at exit: one origin's failure must not keep the others' nginx running.
    }
  }
}
