/**
 * The rounding an instant's actions leave in the values they write, on the scale of the terms
 * they sum (EVENTS.md, 1 and 2). `x := x + 0.5` where x is -0.49999999999999994 writes
 * 5.55e-17, one ulp of its terms: x is at the zero it was lifted onto, but a watched function
 * reading x bounds its rounding by |x| alone (1e-31), and took the residue for a side: lifted
 * from below at rest, x was judged not to have crossed (n = 0 on dop853, rodas, radau5), or
 * to have crossed onto +5.55e-17 and was armed there, falling back across at once (n = 2 on
 * rk4 and dopri5), status ok where exact is 1. The sum is the action's, which only the
 * compiler sees: each event's `apply` writes the magnitude of every value it writes (an
 * addition's, jump or `v := v + term`, on top of what the slot carried; an assignment's, its
 * expression's: `x := 1e-20` from x = -3 is no sum, and carries 1e-20's). A function's
 * residue is what moving each written slot by 8 ulps of its magnitude makes of it, added to
 * its own bound. (A delta's jump into S of x = u + S is also seen by the function's own
 * bound, which gives the state u 8 ulps of itself (Emitter.rounding: a stepper's accumulated
 * rounding); the fold after the instant sums them: Simulator's termBound.)
 */
import type { Workspace } from './workspace.js';
import { RoundMarks } from './round-marks.js';

/** rounding bounds are 8 ulps of the magnitudes summed (emit-flow.ts) */
const ULPS = 8 * Number.EPSILON;

export class ActionResidue {
  /** per slot (states, then d slots: CompiledEvent.written), the magnitude of its value as the instant's actions wrote it */
  readonly scale: Float64Array;
  /** the same before the current round (the state its functions' `before` reads) */
  private readonly before: Float64Array;
  /** the slots written at this instant so far, and a mark of each */
  private readonly slots: number[] = [];
  private readonly marks: RoundMarks;
  /**
   * of those, the ones whose sum cancelled (below half its terms' magnitude), after the round
   * and before it: the others carry a rounding comparable to their value's, which the bound of
   * a function reading them already takes (and looking at every slot of an action on a whole
   * array, for every function it touches, would cost their product)
   */
  private cancelled: number[] = [];
  private cancelledBefore: number[] = [];
  private readonly nStates: number;
  /**
   * per watched function, whether it is a truth value (`c <= 0 rises`): ±1, never near zero,
   * and flipped by any move of a value at its threshold, which is no rounding of its own
   */
  private readonly truth: Uint8Array;

  constructor(private readonly ws: Workspace) {
    this.nStates = ws.y.length;
    const m = ws.model;
    this.truth = Uint8Array.from(m.watchInfo, (w) =>
      w.kind === 'event' && m.system.events[w.event].booleanCondition ? 1 : 0,
    );
    const n = ws.y.length + ws.d.length;
    this.scale = new Float64Array(n);
    this.before = new Float64Array(n);
    this.marks = new RoundMarks(n);
  }

  /** Forgets the last instant's (O(slots it wrote)). */
  begin(): void {
    for (const f of this.slots) {
      this.scale[f] = 0;
      this.before[f] = 0;
    }
    this.slots.length = 0;
    this.cancelled.length = 0;
    this.cancelledBefore.length = 0;
    this.marks.clear();
  }

  /** Before the events `round` apply (with `scale`): notes the slots they write and the magnitudes as they stand. */
  startRound(round: readonly number[]): void {
    const events = this.ws.model.events;
    for (const e of round)
      for (const f of events[e].written)
        if (!this.marks.has(f)) {
          this.marks.add(f);
          this.slots.push(f);
        }
    for (const f of this.slots) this.before[f] = this.scale[f];
    const swap = this.cancelledBefore;
    this.cancelledBefore = this.cancelled;
    this.cancelled = swap;
    this.cancelled.length = 0;
  }

  /** After the round applied, into (y, d): the slots whose sums cancelled. */
  endRound(y: Float64Array, d: Float64Array): void {
    const n = this.nStates;
    for (const f of this.slots) {
      const v = f < n ? y[f] : d[f - n];
      if (2 * Math.abs(v) < this.scale[f]) this.cancelled.push(f);
    }
  }

  /**
   * The rounding watched function k carries at (t, y, d, sw) from the values the instant's
   * actions summed to near zero (`beforeRound`: as they stood before the current round): for
   * each, the larger change of k when it moves by 8 ulps of its terms' magnitude either way;
   * 0 where there is none.
   */
  of(k: number, t: number, y: Float64Array, d: Float64Array, sw: Float64Array, beforeRound = false): number {
    const slots = beforeRound ? this.cancelledBefore : this.cancelled;
    if (slots.length === 0 || this.truth[k]) return 0;
    const m = this.ws.model,
      p = this.ws.p,
      g = m.watchOne[k],
      n = this.nStates;
    const scale = beforeRound ? this.before : this.scale;
    const g0 = g(t, y, p, d, sw);
    let sum = 0;
    for (const f of slots) {
      const r = ULPS * scale[f];
      // (moved in place and restored: the arrays are the caller's, nothing else reads them meanwhile)
      const a = f < n ? y : d,
        i = f < n ? f : f - n;
      const v = a[i];
      a[i] = v + r;
      const up = Math.abs(g(t, y, p, d, sw) - g0);
      a[i] = v - r;
      const down = Math.abs(g(t, y, p, d, sw) - g0);
      a[i] = v;
      sum += Math.max(up, down);
    }
    return sum === sum && sum < Infinity ? sum : 0;
  }
}
