import type { Run } from '../../src/run';
import { openStore, type LevelStore } from '../store/level-store';
import type { StoredHandshake } from '../store/store-types';
import { boolFlag, type ParsedArgs } from './args';
import { CliError } from './cli-error';
import type { CliIo } from './io';
import { storeDirFromArgs } from './store-access';

/**
 * `--record` for `load` and `demo`: saves every run's handshakes in the store (source `cli`).
 * Off by default, so tests and CI never write to the user's data dir.
 */
export class Recorder {
  private constructor(private readonly store: LevelStore) {}

  /** Opens the store when `--record` was given (early: a locked store fails before any load). */
  static async open(args: ParsedArgs): Promise<Recorder | undefined> {
    if (!boolFlag(args, 'record')) {
      if (args.flags.has('data-dir')) throw new CliError('E_USAGE', '--data-dir only applies with --record');
      return undefined;
    }
    return new Recorder(await openStore({ dir: storeDirFromArgs(args) }));
  }

  async record(runs: readonly Run[], io: CliIo | undefined): Promise<void> {
    const records: StoredHandshake[] = runs.flatMap((run) => run.handshakes.map((h) => ({ ...h, source: 'cli' as const, pageUrl: run.url })));
    await this.store.addHandshakes(records);
    io?.err(`recorded ${records.length} handshakes in ${this.store.location}\n`);
  }

  async close(): Promise<void> {
    await this.store.close();
  }
}
