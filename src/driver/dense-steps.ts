/**
 * The dense solution of a stepper run (`dense: true`): each accepted step's dense output, kept
 * as its values at the Chebyshev–Lobatto points of the step, and the states on both sides of
 * every instant.
 *
 * - A step's dense output is a polynomial of a known degree k in θ = (t − tPrev)/h
 *   ({@link DENSE_DEGREE}). Its values at k + 1 points determine it: evaluated again by the
 *   barycentric formula (Berrut and Trefethen, SIAM Review 46 (2004), eq. 5.1; the weights of
 *   the Chebyshev points of the second kind, Sect. 5) it is the stepper's own interpolant to
 *   rounding, at the cost of (k + 1)·n doubles a step: what the stepper keeps for it itself
 *   (DOPRI5: five vectors, DOP853: eight, rk4's Hermite cubic: four). The ends are the step's
 *   states bit for bit.
 * - A step cut by an event (the driver keeps its dense output only up to the instant) is kept
 *   over that part: the same polynomial, sampled over the shorter interval.
 * - An instant keeps the state the events read (the limit before it, in the order of the run)
 *   and the state after them, with the step and discrete variables and switches of each side,
 *   so that both limits at a jump are exact: the ledger's `pre` and `post`.
 * - Step and discrete variables and switches are constant between instants and restarts: each
 *   piece points at the last of a list of those values that changes only when they do.
 *
 * Memory: pieces, instants and values in Float64Array chunks against the run's budget
 * (dense-store.ts); past it the run ends with a message (recorder.ts).
 */
import type { MethodName, Stepper } from '../integrators/stepper.js';
import type { DenseSource } from './dense-solution.js';
import { RecordStore, type DenseBudget } from './dense-store.js';
import type { Workspace } from './workspace.js';

/**
 * The degree in θ of each method's dense output. A test reconstructs every method's
 * interpolant from these many points and compares it with the stepper's own at random θ.
 */
export const DENSE_DEGREE: Readonly<Record<MethodName, number>> = Object.freeze({
  /** the straight line between the ends of the step */
  euler: 1,
  /** the cubic Hermite interpolant through both ends and their slopes */
  rk4: 3,
  /** Dormand and Prince's continuous extension of order 4 (Hairer's CONTD5) */
  dopri5: 4,
  /** DOP853's of order 7 (CONTD8) */
  dop853: 7,
  /** Hairer's RODAS: both ends and two correction vectors */
  rodas: 3,
  /** the collocation polynomial through the start and the three stages */
  radau5: 3,
  /** dopri5's, or the implicit method's (degree 3) while auto uses it */
  auto: 4,
});

/**
 * Field offsets of a piece: its absolute start and end (each rounded to a double), its values,
 * the exact start's offset from that double and the exact length (the stepper's own times), then
 * k + 1 states.
 */
const P_FROM = 0,
  P_TO = 1,
  P_CTX = 2,
  P_FROM_LO = 3,
  P_SPAN = 4,
  P_NODES = 5;
/** Field offsets of an instant: its time, the values before and after, then the two states. */
const I_T = 0,
  I_CTX_PRE = 1,
  I_CTX_POST = 2,
  I_STATES = 3;

export class StepDense implements DenseSource {
  readonly from: number;
  private readonly ws: Workspace;
  private readonly n: number;
  private readonly nd: number;
  private readonly dir: number;
  /** the degree of the dense output, its points in [0, 1] and their barycentric weights */
  private readonly k: number;
  private readonly theta: Float64Array;
  private readonly weight: Float64Array;
  private readonly pieces: RecordStore;
  private readonly instants: RecordStore;
  /** states at single times: the start (without events there), the end, a failure */
  private readonly points: RecordStore;
  /** step and discrete variables, then switches: one record per change */
  private readonly values: RecordStore;
  /** the farthest time recorded, in the direction of the run */
  private last: number;
  /** the parameter values of the run */
  private readonly p: Float64Array;
  /** scratch: a state from the stepper; a state, values and switches being evaluated */
  private readonly node: Float64Array;
  private readonly y: Float64Array;
  private readonly d: Float64Array;
  private readonly sw: Float64Array;
  /** an instant whose state before could not be kept (the budget ran out) */
  private instantOpen = false;

  constructor(
    ws: Workspace,
    method: MethodName,
    readonly budget: DenseBudget,
    t0: number,
  ) {
    this.ws = ws;
    const n = (this.n = ws.y.length);
    this.nd = ws.d.length;
    const nv = ws.d.length + ws.sw.length;
    this.dir = ws.dir;
    const k = (this.k = DENSE_DEGREE[method]);
    this.theta = new Float64Array(k + 1);
    this.weight = new Float64Array(k + 1);
    for (let j = 0; j <= k; j++) {
      this.theta[j] = j === 0 ? 0 : j === k ? 1 : (1 - Math.cos((Math.PI * j) / k)) / 2;
      this.weight[j] = (j % 2 === 0 ? 1 : -1) * (j === 0 || j === k ? 0.5 : 1);
    }
    this.pieces = new RecordStore(P_NODES + (k + 1) * n, budget);
    this.instants = new RecordStore(I_STATES + 2 * n, budget);
    this.points = new RecordStore(2 + n, budget, 2);
    this.values = new RecordStore(Math.max(1, nv), budget, 4);
    this.from = this.last = t0;
    this.p = ws.p.slice();
    this.node = new Float64Array(n);
    this.y = new Float64Array(n);
    this.d = new Float64Array(ws.d.length);
    this.sw = new Float64Array(ws.sw.length);
  }

  end(): number {
    return this.last;
  }

  private reach(t: number): void {
    if (this.dir * (t - this.last) > 0) this.last = t;
  }

  /** The index of the values record equal to (d, ws.sw), appended if they changed; -1 past the budget. */
  private valuesOf(d: Float64Array): number {
    const v = this.values,
      sw = this.ws.sw,
      nd = this.nd;
    const i = v.count - 1;
    if (i >= 0) {
      v.at(i);
      const buf = v.buf,
        off = v.off;
      let same = true;
      for (let j = 0; j < nd && same; j++) same = buf[off + j] === d[j];
      for (let j = 0; j < sw.length && same; j++) same = buf[off + nd + j] === sw[j];
      if (same) return i;
    }
    if (!v.push()) return -1;
    v.buf.set(d, v.off);
    v.buf.set(sw, v.off + nd);
    return v.count - 1;
  }

  /**
   * Keeps the stepper's last step over [tau0, tau1] (its own times), which spans [tA, tB] of
   * the absolute time. False when the budget cannot hold it.
   */
  piece(stepper: Stepper, tA: number, tB: number, tau0: number, tau1: number): boolean {
    if (this.budget.full) return false;
    const ctx = this.valuesOf(this.ws.d);
    if (ctx < 0 || !this.pieces.push()) return this.refuse(tB);
    const s = this.pieces,
      buf = s.buf,
      off = s.off,
      n = this.n,
      k = this.k,
      node = this.node;
    buf[off + P_FROM] = tA;
    buf[off + P_TO] = tB;
    buf[off + P_CTX] = ctx;
    // (tA is the step's start rounded to a double, up to half an ulp of t off it: 5.8e-11 at
    // t = 1e6, a thousandth of a step of 1e-7 after a stiff kick, where y = exp(-1e5 (t - 1e6))
    // came out 4e-6 off at rtol 1e-10; the time origin's two doubles give the offset exactly)
    buf[off + P_FROM_LO] = tau0 - this.ws.origin.local(tA);
    buf[off + P_SPAN] = tau1 - tau0;
    for (let j = 0; j <= k; j++) {
      const at = j === 0 ? tau0 : j === k ? tau1 : tau0 + this.theta[j] * (tau1 - tau0);
      stepper.interpolate(at, node);
      buf.set(node, off + P_NODES + j * n);
    }
    this.reach(tB);
    return true;
  }

  /**
   * Ends the last piece at t, inside the step it was sampled over (the polynomial is the
   * step's: only where it holds moves): an instant located again on the solution after the
   * step was kept whole (recorder.holdGridRows).
   */
  cutLastPiece(t: number): void {
    const P = this.pieces;
    if (P.count === 0) return;
    P.at(P.count - 1);
    const from = P.buf[P.off + P_FROM];
    if (this.dir * (t - from) < 0 || this.dir * (P.buf[P.off + P_TO] - t) < 0) return;
    P.buf[P.off + P_TO] = t;
    this.last = this.dir * (t - from) >= 0 ? t : from;
  }

  /** Keeps the state the events of the instant at t read (ws.y, ws.d): call before their actions. */
  instantBefore(t: number): boolean {
    this.instantOpen = false;
    if (this.budget.full) return false;
    const ctx = this.valuesOf(this.ws.d);
    if (ctx < 0 || !this.instants.push()) return this.refuse(t);
    const s = this.instants;
    s.buf[s.off + I_T] = t;
    s.buf[s.off + I_CTX_PRE] = ctx;
    s.buf.set(this.ws.y, s.off + I_STATES);
    this.instantOpen = true;
    return true;
  }

  /** Keeps the state after the actions of the instant opened by {@link instantBefore}. */
  instantAfter(): boolean {
    if (!this.instantOpen) return false;
    this.instantOpen = false;
    const ctx = this.valuesOf(this.ws.d);
    const s = this.instants;
    if (ctx < 0) {
      // (the instant is dropped: an instant must have both sides)
      s.count--;
      return this.refuse(s.field(s.count, I_T));
    }
    s.at(s.count - 1);
    s.buf[s.off + I_CTX_POST] = ctx;
    s.buf.set(this.ws.y, s.off + I_STATES + this.n);
    this.reach(s.buf[s.off + I_T]);
    return true;
  }

  /** Keeps the state (y, d) at t: the start, the end, a failure (the rows written as the ends'). */
  point(t: number, y: Float64Array, d: Float64Array): boolean {
    if (this.budget.full || !Number.isFinite(t)) return false;
    const ctx = this.valuesOf(d);
    if (ctx < 0 || !this.points.push()) return this.refuse(t);
    const s = this.points;
    s.buf[s.off] = t;
    s.buf[s.off + 1] = ctx;
    s.buf.set(y.subarray(0, this.n), s.off + 2);
    this.reach(t);
    return true;
  }

  private refuse(t: number): false {
    this.budget.refuse(t);
    return false;
  }

  outputsAt(t: number, left: boolean, out: Float64Array): void {
    const dir = this.dir,
      u = dir * t;
    // (the side in the order of the run: before the events of an instant, or after)
    const before = left === dir > 0;
    const m = this.ws.model;
    const I = this.instants;
    // the first instant at or past t, in the order of the run
    let lo = 0,
      hi = I.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (dir * I.field(mid, I_T) < u) lo = mid + 1;
      else hi = mid;
    }
    if (lo < I.count && I.field(lo, I_T) === t) {
      let i = lo;
      if (!before) while (i + 1 < I.count && I.field(i + 1, I_T) === t) i++;
      I.at(i);
      const states = I.off + I_STATES + (before ? 0 : this.n);
      this.y.set(I.buf.subarray(states, states + this.n));
      this.loadValues(I.buf[I.off + (before ? I_CTX_PRE : I_CTX_POST)]);
      // (as the instant's rows and ledger read them: before its events or after)
      m.outputsAtInstant(t, this.y, this.p, this.d, this.sw, out, before ? dir : -dir);
      return;
    }
    const piece = this.pieceAt(u, before);
    if (piece >= 0) this.evaluate(piece, t);
    else this.pointAt(t);
    m.outputs(t, this.y, this.p, this.d, this.sw, out);
  }

  /**
   * The piece that holds u = dir·t: before an instant, the first that ends at or past it;
   * after, the last that starts at or before it (the two differ only where a switch changed
   * the values between pieces). -1 when none holds it.
   */
  private pieceAt(u: number, before: boolean): number {
    const P = this.pieces,
      dir = this.dir;
    let lo = 0,
      hi = P.count;
    if (before) {
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (dir * P.field(mid, P_TO) < u) lo = mid + 1;
        else hi = mid;
      }
      return lo < P.count && dir * P.field(lo, P_FROM) <= u ? lo : -1;
    }
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (dir * P.field(mid, P_FROM) <= u) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && dir * P.field(lo - 1, P_TO) >= u ? lo - 1 : -1;
  }

  /** The state of piece i at t into this.y (barycentric interpolation), its values into d and sw. */
  private evaluate(i: number, t: number): void {
    const P = this.pieces;
    P.at(i);
    const buf = P.buf,
      off = P.off,
      n = this.n,
      k = this.k,
      y = this.y;
    const tA = buf[off + P_FROM],
      span = buf[off + P_SPAN];
    // (t - tA is exact: t lies within the piece, next to tA)
    const th = span === 0 ? 1 : Math.min(Math.max((t - tA - buf[off + P_FROM_LO]) / span, 0), 1);
    const nodes = off + P_NODES;
    this.loadValues(buf[off + P_CTX]);
    for (let j = 0; j <= k; j++)
      if (th === this.theta[j]) {
        y.set(buf.subarray(nodes + j * n, nodes + (j + 1) * n));
        return;
      }
    y.fill(0);
    let den = 0;
    for (let j = 0; j <= k; j++) {
      const c = this.weight[j] / (th - this.theta[j]);
      den += c;
      const o = nodes + j * n;
      for (let q = 0; q < n; q++) y[q] += c * buf[o + q];
    }
    for (let q = 0; q < n; q++) y[q] /= den;
  }

  /** The state kept at t exactly (a run without a step: an empty range, a failure at the start). */
  private pointAt(t: number): void {
    const S = this.points;
    if (S.count === 0) {
      // (nothing was kept: the budget ran out at the start)
      this.y.fill(Number.NaN);
      return;
    }
    let best = 0;
    for (let i = 0; i < S.count; i++) if (Math.abs(S.field(i, 0) - t) < Math.abs(S.field(best, 0) - t)) best = i;
    S.at(best);
    this.y.set(S.buf.subarray(S.off + 2, S.off + 2 + this.n));
    this.loadValues(S.buf[S.off + 1]);
  }

  private loadValues(index: number): void {
    const v = this.values;
    v.at(index);
    for (let j = 0; j < this.d.length; j++) this.d[j] = v.buf[v.off + j];
    for (let j = 0; j < this.sw.length; j++) this.sw[j] = v.buf[v.off + this.nd + j];
  }
}
