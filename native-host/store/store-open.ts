import { rmSync } from 'node:fs';
import path from 'node:path';
import { nextGenerationName, publishFirstActive, readActive } from './generations';
import { hasLegacyStore, migrateLegacyStore, removeLegacyFiles } from './legacy-migration';
import { asStoreError, openEnv, type Env } from './lmdb-env';
import { LAYOUT_VERSION, META_SEQ, META_VERSION } from './record-codec';
import { StoreError } from './store-errors';

export interface LiveGeneration {
  generation: string;
  env: Env;
  /** Records copied from a LevelDB store by this open (0 when there was none). */
  migrated: number;
}

/** How long an open waits for another process that is creating or migrating the store. */
const CREATE_WAIT_MS = 15_000;
const POLL_MS = 50;

/**
 * Opens the live generation of the store in `storeDir`, creating the store (migrating a LevelDB
 * store found there) when there is none. Safe against other processes doing the same at once:
 * the first to publish ACTIVE wins, the others discard their copy and open the winner's.
 * @throws StoreError E_STORE_VERSION, E_STORE_LOCKED (a LevelDB store held by an older getlist
 * for longer than 15 s), E_STORE_OPEN
 */
export async function openLiveGeneration(storeDir: string): Promise<LiveGeneration> {
  const deadline = Date.now() + CREATE_WAIT_MS;
  for (;;) {
    const generation = readActive(storeDir);
    if (generation !== undefined) {
      const env = openEnv(storeDir, generation);
      // Replaced between reading ACTIVE and opening (lmdb recreates a removed folder, empty).
      if (readActive(storeDir) !== generation) {
        await env.close();
        continue;
      }
      try {
        checkLayout(env, storeDir);
      } catch (err) {
        await env.close();
        throw err;
      }
      return { generation, env, migrated: 0 };
    }
    const created = await createFirstGeneration(storeDir).catch((err: unknown) => {
      if (err instanceof StoreError && err.code === 'E_STORE_LOCKED' && Date.now() < deadline) return undefined;
      throw err;
    });
    if (created) return created;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Builds generation 1 (empty, or a copy of the LevelDB store) and tries to publish it. */
async function createFirstGeneration(storeDir: string): Promise<LiveGeneration | undefined> {
  const generation = nextGenerationName(undefined);
  const legacy = hasLegacyStore(storeDir);
  const env = openEnv(storeDir, generation);
  let migrated = 0;
  try {
    if (legacy) migrated = await migrateLegacyStore(storeDir, env);
    env.transactionSync(() => {
      if (env.get(META_VERSION) === undefined) env.putSync(META_VERSION, String(LAYOUT_VERSION));
      if (env.get(META_SEQ) === undefined) env.putSync(META_SEQ, '0');
    });
    if (publishFirstActive(storeDir, generation)) {
      if (legacy) removeLegacyFiles(storeDir);
      return { generation, env, migrated };
    }
  } catch (err) {
    await discard(env, storeDir, generation);
    throw asStoreError(err, 'E_STORE_OPEN', `cannot create the store in ${storeDir}`, storeDir);
  }
  await discard(env, storeDir, generation);
  return undefined;
}

async function discard(env: Env, storeDir: string, generation: string): Promise<void> {
  await env.close().catch(() => undefined);
  rmSync(path.join(storeDir, generation), { recursive: true, force: true });
}

function checkLayout(env: Env, storeDir: string): void {
  const version = env.get(META_VERSION);
  if (Number(version) !== LAYOUT_VERSION) {
    throw new StoreError('E_STORE_VERSION', `the store at ${storeDir} has layout version ${JSON.stringify(version ?? null)}; this getlist reads version ${LAYOUT_VERSION} (a newer getlist wrote it?)`);
  }
}
