/**
 * Per-origin pipelining health (McManus, "The Apex of Pipelines"; RFC 9112 §9.3.2).
 *
 *   unknown ──first keep-alive HTTP/1.1 response header──▶ probing (depth 2)
 *   probing ──`probeSuccesses` order proofs (content-type-check.ts `isOrderProof`)──▶ good (full depth)
 *   any     ──close with requests outstanding (not at the server's budget, unexplained-close.ts) / HTTP/1.0 /
 *             a desynchronised connection / a Content-Type contradicting the request──▶ bad
 *   bad     ──`demoteMs` elapsed──▶ unknown
 *
 * While `bad`, the origin still gets persistent connections, one request at a time.
 *
 * A proof is a clean pipelined pair that could have shown a reordering server: the second written
 * while the response ahead of it had not started, and a swap would have shown — in a `Content-Type`
 * (another type family), in the framing (a `GET` behind a `HEAD`, order-probe.ts), or in the
 * bodies (two remembered fingerprints that differ, response-fingerprint.ts). An origin whose
 * pipelined pairs show none of these (images behind the document that names them, two images of
 * unknown bodies) is not proven by them: it stays at depth 2 with no image behind an image
 * (dispatch-policy.ts) until one of the others proves it.
 */
export type PipelineHealthState = 'unknown' | 'probing' | 'good' | 'bad';

export type DemotionReason = 'closed-with-outstanding' | 'http10' | 'desync' | 'content-type-mismatch' | 'fingerprint-swap';

export class PipelineHealth {
  private current: PipelineHealthState = 'unknown';
  private cleanPipelined = 0;
  private badUntil = 0;
  /** Why the origin was last demoted, for results and diagnostics. */
  lastDemotion: DemotionReason | undefined;

  constructor(
    private readonly probeSuccesses: number,
    private readonly demoteMs: number,
  ) {}

  state(now: number): PipelineHealthState {
    if (this.current === 'bad' && now >= this.badUntil) {
      this.current = 'unknown';
      this.cleanPipelined = 0;
    }
    return this.current;
  }

  /** Requests one connection of this origin may carry at once. */
  depth(now: number, fullDepth: number): number {
    switch (this.state(now)) {
      case 'good':
        return fullDepth;
      case 'probing':
        return Math.min(2, fullDepth);
      default:
        return 1;
    }
  }

  /**
   * A response header said HTTP/1.1 and did not ask to close: the origin keeps connections alive,
   * so probing may start while that response's body is still arriving. Waiting for the body would
   * keep the first connection (usually the document's) from pipelining the requests its own
   * document reveals, and cost a round trip on every page. Returns whether the depth grew.
   */
  keepAliveSeen(now: number): boolean {
    if (this.state(now) !== 'unknown') return false;
    this.current = this.probeSuccesses === 0 ? 'good' : 'probing';
    return true;
  }

  /** A complete response arrived on a connection that stays open; `proof`: it was an order proof. */
  responseOk(now: number, proof: boolean): void {
    const s = this.state(now);
    if (s === 'unknown') {
      this.keepAliveSeen(now);
    } else if (s === 'probing' && proof) {
      this.cleanPipelined += 1;
      if (this.cleanPipelined >= this.probeSuccesses) this.current = 'good';
    }
  }

  /** Order proofs the probe has counted so far (0 unless probing). */
  get proofs(): number {
    return this.current === 'probing' ? this.cleanPipelined : 0;
  }

  /**
   * Starts from what origin memory says (origin-recall.ts): `good` skips the probe, `bad` holds the
   * origin to one request per connection for `demoteMs`, as a live demotion would, and `proofs`
   * (earlier loads' probe, short of `good`) resumes the probe where they left it: the evidence
   * asked for is the same, gathered over more than one load. Only an origin still `unknown` is
   * changed: what this load has seen wins over what an earlier one saw.
   */
  recall(now: number, remembered: 'good' | 'bad' | undefined, proofs = 0): void {
    if (this.state(now) !== 'unknown') return;
    if (remembered === 'good') this.current = 'good';
    else if (remembered === 'bad') {
      this.current = 'bad';
      this.badUntil = now + this.demoteMs;
    } else if (proofs > 0) {
      // An earlier load saw keep-alive and clean pipelined responses: probing goes on.
      this.current = proofs >= this.probeSuccesses ? 'good' : 'probing';
      this.cleanPipelined = Math.min(proofs, this.probeSuccesses);
    }
  }

  demote(now: number, reason: DemotionReason): void {
    this.current = 'bad';
    this.badUntil = now + this.demoteMs;
    this.cleanPipelined = 0;
    this.lastDemotion = reason;
  }
}
