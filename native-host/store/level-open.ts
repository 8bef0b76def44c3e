import { ClassicLevel } from 'classic-level';
import { LAYOUT_VERSION, META_SEQ, META_VERSION, seqOfKey } from './record-codec';
import { StoreError, describeCause, errorCode } from './store-errors';

export type Db = ClassicLevel<string, string>;

/** Opens LevelDB at `dir`, repairing it once if its CURRENT or MANIFEST is damaged. */
export async function openLevel(dir: string): Promise<{ db: Db; repaired: boolean }> {
  const open = async () => {
    const db: Db = new ClassicLevel<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    await db.open();
    return db;
  };
  try {
    return { db: await open(), repaired: false };
  } catch (err) {
    const cause = errorCode((err as { cause?: unknown }).cause);
    if (cause === 'LEVEL_LOCKED') {
      throw new StoreError('E_STORE_LOCKED', `the store at ${dir} is in use by another process (another getlist command, or the native host while the browser runs); close it and try again`, { cause: err });
    }
    if (cause !== 'LEVEL_CORRUPTION' && cause !== 'LEVEL_IO_ERROR') {
      throw new StoreError('E_STORE_OPEN', `cannot open the store at ${dir}: ${describeCause(err)}`, { cause: err });
    }
    // A damaged CURRENT or MANIFEST (e.g. a disk filled up mid-write): LevelDB's repair rebuilds
    // them from the table and log files, keeping every record it can read.
    try {
      await ClassicLevel.repair(dir);
      return { db: await open(), repaired: true };
    } catch (again) {
      throw new StoreError('E_STORE_OPEN', `cannot open the store at ${dir}: ${describeCause(err)}; repair failed too: ${describeCause(again)}`, { cause: again });
    }
  }
}

/** Checks the layout version and returns the next sequence number. */
export async function readMeta(db: Db, dir: string): Promise<number> {
  const [version, seq] = await db.getMany([META_VERSION, META_SEQ]);
  if (version === undefined) {
    for await (const _key of db.keys({ limit: 1 })) {
      throw new StoreError('E_STORE_VERSION', `${dir} holds a LevelDB database that is not a getlist store; choose another folder`);
    }
    await db.batch([{ type: 'put', key: META_VERSION, value: String(LAYOUT_VERSION) }, { type: 'put', key: META_SEQ, value: '0' }], { sync: true });
    return 0;
  }
  if (Number(version) !== LAYOUT_VERSION) {
    throw new StoreError('E_STORE_VERSION', `the store at ${dir} has layout version ${JSON.stringify(version)}; this getlist reads version ${LAYOUT_VERSION} (a newer getlist wrote it?)`);
  }
  const n = Number(seq);
  if (Number.isSafeInteger(n) && n >= 0) return n;
  // The counter is written in the same atomic batch as the records, so this is damage: recount.
  let max = -1;
  for (const prefix of ['h!', 'p!']) {
    for await (const key of db.keys({ gte: prefix, lt: `${prefix}~` })) max = Math.max(max, seqOfKey(key));
  }
  return max + 1;
}
