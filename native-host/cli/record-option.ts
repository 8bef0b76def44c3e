import type { Run } from '../../src/run';
import type { OriginMemoryListener } from '../../src/origins/origin-memory';
import { openStore, type LmdbStore } from '../store/lmdb-store';
import { StoreMemoryWriter, StoreOriginMemory } from '../store/store-origin-memory';
import type { StoredHandshake } from '../store/store-types';
import { boolFlag, type ParsedArgs } from './args';
import { CliError } from './cli-error';
import type { CliIo } from './io';
import { storeDirFromArgs } from './store-access';

/**
 * `--record` for `load` and `demo`: saves every run's handshakes in the store (source `cli`), and
 * what the runs learned about origins and the page (origin memory) through `memoryWriter`. Off by
 * default, so tests and CI never write to the user's data dir. `load --memory store` opens the
 * store too (`withStore`), to start from its memory; it records only with `--record`.
 */
export class Recorder {
  private readonly writer: StoreMemoryWriter;
  private readonly memories: StoreOriginMemory[] = [];
  private readonly onError: (err: unknown) => void;

  private constructor(
    private readonly store: LmdbStore,
    /** Whether runs are recorded (`--record`), not just read from the store (`--memory store`). */
    readonly recording: boolean,
    io: CliIo | undefined,
  ) {
    this.onError = (err) => io?.err(`getlist: could not store origin facts: ${(err as Error).message}\n`);
    this.writer = new StoreMemoryWriter(store, this.onError);
  }

  /**
   * Opens the store when `--record` (or `withStore`) was given, early: a store that cannot be
   * opened fails before any load.
   */
  static async open(args: ParsedArgs, options: { withStore?: boolean; io?: CliIo } = {}): Promise<Recorder | undefined> {
    const recording = boolFlag(args, 'record');
    if (!recording && !options.withStore) {
      if (args.flags.has('data-dir')) throw new CliError('E_USAGE', '--data-dir only applies with --record');
      return undefined;
    }
    return new Recorder(await openStore({ dir: storeDirFromArgs(args) }), recording, options.io);
  }

  /** Hands what a run learns to the store (when recording): attach to a memory as its listener. */
  memoryWriter(): OriginMemoryListener | undefined {
    return this.recording ? this.writer : undefined;
  }

  /**
   * The store's origin memory for a load of `pageUrl` (every origin's facts: a load discovers its
   * origins as it goes); like a `--memory FILE`, what the runs learn is written back to it.
   */
  async storeMemory(pageUrl: string): Promise<StoreOriginMemory> {
    const m = await StoreOriginMemory.open(this.store, { pages: [pageUrl], origins: 'all' }, { onError: this.onError });
    this.memories.push(m);
    return m;
  }

  async record(runs: readonly Run[], io: CliIo | undefined): Promise<void> {
    if (!this.recording) return;
    const records: StoredHandshake[] = runs.flatMap((run) => run.handshakes.map((h) => ({ ...h, source: 'cli' as const, pageUrl: run.url })));
    await this.store.addHandshakes(records);
    io?.err(`recorded ${records.length} handshakes in ${this.store.location}\n`);
  }

  async close(): Promise<void> {
    await this.writer.settled();
    for (const m of this.memories) await m.settled();
    await this.store.close();
  }
}
