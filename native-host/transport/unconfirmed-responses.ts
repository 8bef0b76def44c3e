/**
 * The responses of one connection that ended before they were confirmed (the connection had not
 * been in step after them, guarded-socket.ts), oldest first: their index on the connection and
 * their dispatch id. Numbers, not the flights: a suspect connection may hold thousands
 * (everything since its suspicion), and a flight would keep undici's request with it.
 */
export class UnconfirmedResponses {
  private seq: number[] = [];
  private id: number[] = [];
  /** The oldest still held; an index, not `shift`, as a long pipeline may hold thousands. */
  private at = 0;

  add(seq: number, dispatchId: number): void {
    this.seq.push(seq);
    this.id.push(dispatchId);
  }

  /** Hands `confirm` the dispatch id of each held response before index `completed`, oldest first, and forgets them. */
  confirm(completed: number, confirm: (dispatchId: number) => void): void {
    const { seq, id } = this;
    while (this.at < seq.length && (seq[this.at] as number) < completed) confirm(id[this.at++] as number);
    if (this.at === seq.length) {
      seq.length = 0;
      id.length = 0;
      this.at = 0;
    }
  }

  /** Forgets them all (the connection failed: none will be confirmed). */
  clear(): void {
    this.seq = [];
    this.id = [];
    this.at = 0;
  }
}
