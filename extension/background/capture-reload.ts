import { touchesDetailedCapture, type CaptureMode, type PermissionsLike } from '../platform/detailed-capture';

export interface CaptureReloadDeps {
  /** The mode this background started in (its listeners were added for it). */
  mode: CaptureMode;
  /** The permissions Detailed capture needs in this browser. */
  needed: string[];
  permissions: Pick<PermissionsLike, 'contains'> & {
    onAdded: { addListener(fn: (p: { permissions?: string[] }) => void): void };
    onRemoved: { addListener(fn: (p: { permissions?: string[] }) => void): void };
  };
  /** Marks that the options page asked for the change, so the reloaded background reopens it. */
  beforeReload: () => Promise<void>;
  reload: () => void;
  warn?: (message: string) => void;
}

/**
 * Firefox: reloads the extension when Detailed capture is granted or revoked, so the event page adds
 * (or no longer adds) its webRequest listeners in the first turn of its start-up — the only
 * listeners that wake it. Not used in Chromium, where a reload does not change whether requests
 * reach webRequest at all (extension/platform/detailed-capture.ts): there the change applies when
 * the browser restarts, and the options page says so.
 *
 * Invariant: reloads only when the granted state now differs from the one the background started
 * in (a permission event for something else, or a repeat, changes nothing).
 */
export function reloadOnCaptureChange(deps: CaptureReloadDeps): void {
  const warn = deps.warn ?? ((m: string) => console.warn(`getlist: ${m}`));
  const check = (changed: { permissions?: string[] }) => {
    if (!touchesDetailedCapture(changed)) return;
    void deps.permissions
      .contains({ permissions: deps.needed })
      .then(async (granted) => {
        if ((granted ? 'detailed' : 'lean') === deps.mode) return;
        await deps.beforeReload().catch(() => undefined);
        deps.reload();
      })
      .catch((err: unknown) => warn(`could not read the Detailed capture permissions: ${String(err)}`));
  };
  deps.permissions.onAdded.addListener(check);
  deps.permissions.onRemoved.addListener(check);
}
