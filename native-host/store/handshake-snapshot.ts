import type { Transaction } from 'lmdb';
import type { Env } from './lmdb-env';
import { seqOfKey, timeRange } from './record-codec';
import type { StoredHandshake } from './store-types';

/** A stored handshake with the store-wide sequence number its key holds. */
export interface SequencedHandshake {
  seq: number;
  record: StoredHandshake;
}

export interface HandshakeSnapshotParts {
  generation: string;
  env: Env;
  txn: Transaction;
  nextSeq: number;
  retainedSince: number;
  /** The checked record, or undefined (counted as skipped) when the value is not one. */
  decode: (value: string) => StoredHandshake | undefined;
  /** Ends the read transaction and lets the store close a replaced generation. */
  release: () => void;
}

/**
 * One consistent read of the store's live generation (an LMDB read transaction: what other processes
 * commit meanwhile is not seen), held until {@link done}, for readers that keep their own aggregate
 * and read only what changed (the metrics exporter).
 *
 * Within one generation records are only ever added: forget and retention remove records by
 * rewriting the store into a new generation (compaction.ts). Every record (handshake or page
 * summary) gets the next number of the store-wide counter in the transaction that writes it, so the
 * records of a generation are numbered without gaps above any earlier snapshot's `nextSeq`, and
 * "what was added since" is exactly the records numbered from that `nextSeq` on. Records taken out
 * of memory by this process's batcher but not yet written are not included (a reader has none).
 */
export class HandshakeSnapshot {
  readonly generation: string;
  /** Every record in this snapshot is numbered below this; records added later get it or more. */
  readonly nextSeq: number;
  /** Epoch ms before which the store's retention hides records (`handshakes()` never returns them). */
  readonly retainedSince: number;
  private released = false;

  constructor(private readonly parts: HandshakeSnapshotParts) {
    this.generation = parts.generation;
    this.nextSeq = parts.nextSeq;
    this.retainedSince = parts.retainedSince;
  }

  /** Handshakes with `since ≤ startedAt < until`, oldest first (the store's time order). */
  *between(since: number, until?: number): Generator<SequencedHandshake> {
    const { env, txn, decode } = this.parts;
    for (const { key, value } of env.getRange({ ...timeRange('h!', since, until), transaction: txn })) {
      const record = decode(value);
      if (record && record.startedAt >= since && (until === undefined || record.startedAt < until)) yield { seq: seqOfKey(key), record };
    }
  }

  /**
   * Handshakes numbered `fromSeq` or more, in no particular order. Keys are ordered by time, not
   * number, so it looks first at records started from `likelyFromMs` on (a recent time: records
   * are written within seconds of their connection), and reads the older rest only when fewer
   * records than were numbered turned up there.
   */
  *added(fromSeq: number, likelyFromMs: number): Generator<SequencedHandshake> {
    const { env, txn, decode } = this.parts;
    const expected = this.nextSeq - fromSeq;
    if (expected <= 0) return;
    const split = Math.max(0, Math.floor(likelyFromMs));
    let found = 0;
    for (const [since, until] of [[split, undefined], [0, split]] as const) {
      if (found >= expected) return;
      for (const prefix of ['p!', 'h!'] as const) {
        for (const key of env.getKeys({ ...timeRange(prefix, since, until), transaction: txn })) {
          const seq = seqOfKey(key);
          if (seq < fromSeq || seq >= this.nextSeq) continue;
          found++;
          if (prefix === 'p!') continue;
          const value = env.get(key, { transaction: txn });
          const record = value === undefined ? undefined : decode(value);
          if (record) yield { seq, record };
        }
      }
    }
  }

  /** Ends the read. Idempotent. */
  done(): void {
    if (this.released) return;
    this.released = true;
    this.parts.release();
  }
}
