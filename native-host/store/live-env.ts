import { CodedError } from '../../src/core/coded-error';
import { readActive } from './generations';
import { asStoreError, type Env } from './lmdb-env';
import { openLiveGeneration } from './store-open';

/** Thrown inside a write transaction that found ACTIVE moved: abort, follow, retry. */
export class Moved extends CodedError<'E_STORE_MOVED'> {
  constructor() {
    super('E_STORE_MOVED', 'the store moved to a new generation while writing');
  }
}

/** Attempts of one write against generations that keep moving under it. */
const MAX_FOLLOWS = 5;

/**
 * One process's handle on the store's live generation (generations.ts): every operation first
 * follows ACTIVE to the generation another process's rewrite made live. Environments of replaced
 * generations are closed once no read is walking them.
 *
 * Invariant: a write lands only in the generation ACTIVE names at its commit, because the writer
 * re-reads ACTIVE inside its own write transaction and throws `Moved` to come here and retry.
 */
export class LiveEnv {
  private retired: Env[] = [];
  private reading = 0;

  constructor(
    readonly location: string,
    private generationName: string,
    private current: Env,
  ) {}

  /** The live generation's folder name, as of the last follow. */
  get generation(): string {
    return this.generationName;
  }

  /** Its environment, as of the last follow. */
  get env(): Env {
    return this.current;
  }

  /** Whether ACTIVE still names this generation (read inside a write transaction, see the invariant). */
  isLive(): boolean {
    return readActive(this.location) === this.generationName;
  }

  /**
   * Runs `fn` on the live generation, following ACTIVE when another process replaced it; `fn`
   * throws `Moved` to run again on the new one.
   * @throws StoreError `E_STORE_WRITE` naming `doing`
   */
  async write<T>(doing: string, fn: (env: Env) => T): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await this.follow();
      try {
        return fn(this.current);
      } catch (err) {
        if (err instanceof Moved && attempt < MAX_FOLLOWS) continue;
        throw asStoreError(err, 'E_STORE_WRITE', doing, this.location);
      }
    }
  }

  /** Switches to the live generation if another process replaced ours. */
  async follow(): Promise<void> {
    if (this.isLive()) return;
    const live = await openLiveGeneration(this.location);
    this.replace(live.generation, live.env);
  }

  /** Makes `env` the live generation (this process's rewrite made it so, or another's did). */
  replace(generation: string, env: Env): void {
    this.retired.push(this.current);
    this.current = env;
    this.generationName = generation;
    this.closeRetired();
  }

  /** Follows ACTIVE and takes a fresh read snapshot; pair with `endRead`. */
  async beginRead(): Promise<Env> {
    await this.follow();
    this.current.resetReadTxn();
    this.reading++;
    return this.current;
  }

  endRead(): void {
    this.reading--;
    this.closeRetired();
  }

  /** Closes the live environment and every retired one. */
  async close(): Promise<void> {
    for (const env of [this.current, ...this.retired.splice(0)]) await env.close().catch(() => undefined);
  }

  private closeRetired(): void {
    if (this.reading > 0) return;
    for (const env of this.retired.splice(0)) void env.close().catch(() => undefined);
  }
}
