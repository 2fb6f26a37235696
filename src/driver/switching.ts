/**
 * Switching functions: the relations inside `if`, `situation`, `step` and `sign` are locked
 * for the right-hand side between crossings, so no step sees a discontinuity. This part sets
 * them at a restart, decides the side at an exact zero, and recognises a sliding motion
 * (both sides drive the state back to the surface), which is reported, not integrated.
 */
import { toText } from '../expression/expr.js';
import type { CompiledModel } from '../codegen/compile.js';
import type { Workspace } from './workspace.js';

export class Switching {
  /** per switch, the switches on the same function (itself included) */
  private readonly sameFunction: number[][];
  private readonly swSaved: Float64Array;
  /** the switches before a pass of lock() */
  private readonly swBefore: Float64Array;
  /** per watched function: the side of zero whose branch is taken when it sits at zero (0: not at zero) */
  private readonly sideAt: Float64Array;
  private readonly rMid: Float64Array;
  /** rateAhead's state, rates and bounds a little later */
  private readonly yAhead: Float64Array;
  private readonly fAhead: Float64Array;
  private readonly bAhead: Float64Array;
  /** what ratesOnBothSides found */
  private rateAbove = 0;
  private rateBelow = 0;

  constructor(private readonly ws: Workspace) {
    const m = ws.model;
    const keys = m.switching.map((sf) => toText(sf.g));
    this.sameFunction = keys.map((key) => keys.flatMap((other, i) => (other === key ? [i] : [])));
    this.swSaved = new Float64Array(m.nSwitch);
    this.swBefore = new Float64Array(m.nSwitch);
    this.sideAt = new Float64Array(ws.nWatch);
    this.rMid = new Float64Array(ws.nWatch);
    this.yAhead = new Float64Array(ws.y.length);
    this.fAhead = new Float64Array(ws.y.length);
    this.bAhead = new Float64Array(ws.nWatch);
  }

  /**
   * Sets the locked switching values at (t, y). On an exact zero the rate (in the direction
   * of integration) says which side the solution is going to. Returns the watched function
   * along which the motion slides, or -1. `dtZero`: how far in time the state may stand
   * from where a function was located at zero (the location's bracket); a function within
   * its rate times that, or within its own rounding, is at zero.
   */
  lock(t: number, y: Float64Array, d: Float64Array, dtZero = 0): number {
    const ws = this.ws,
      m = ws.model;
    if (m.nSwitch === 0) return -1;
    // A switching function may read other switches (abs(Ving) > 0 with Ving = if h < R then
    // |Vt| else its held value): set them all, evaluate again with the new branches, until
    // none changes. One pass would lock it on the branches of the step before the instant.
    let atZero: boolean;
    for (let pass = 0; ; pass++) {
      this.swBefore.set(ws.sw);
      atZero = this.lockPass(t, y, d, dtZero);
      let changed = false;
      for (let j = 0; j < m.nSwitch; j++)
        if (ws.sw[j] !== this.swBefore[j]) {
          changed = true;
          break;
        }
      if (!changed || pass >= m.nSwitch) break;
    }
    if (!atZero) return -1;
    return this.slidingAlong(t, y, d);
  }

  /** One pass of lock(): every switch set from the functions under the current branches; true when one sits at zero. */
  private lockPass(t: number, y: Float64Array, d: Float64Array, dtZero: number): boolean {
    const ws = this.ws,
      m = ws.model;
    m.watchLocked(t, y, ws.p, d, ws.sw, ws.gTmp);
    m.watchRate(t, y, ws.p, d, ws.sw, ws.gAfter);
    m.watchBound(t, y, ws.p, d, ws.sw, ws.gBound);
    let atZero = false;
    for (let k = 0; k < m.watchInfo.length; k++) {
      const w = m.watchInfo[k];
      if (w.kind !== 'switch') continue;
      let g = ws.gTmp[k];
      if (g === 0) g = this.sideAtZero(k, w.index, t, y, d) * 1e-300;
      // the side of zero whose branch is taken, for the sliding test below; zero is judged
      // on the function's own rounding, not on the size of the state
      const rate = ws.gAfter[k];
      const zero = 4 * ws.gBound[k] + (rate === rate ? Math.abs(rate) * dtZero : 0);
      // (at zero whichever branch it takes: sign(v) at v = 0 takes neither side, and with
      // v' = sin(t) - 0.7 sign(v) from v = 0 it slides; unmarked, the run went on with
      // sign(v) = 0 while v rose, status ok)
      this.sideAt[k] = Math.abs(ws.gTmp[k]) <= zero ? Math.sign(g) || 1 : 0;
      if (this.sideAt[k] !== 0) atZero = true;
      switch (m.switching[w.index].primitive) {
        case 'lt':
          ws.sw[w.index] = g < 0 || (g === 0 && ws.gTmp[k] < 0) ? 1 : 0;
          break;
        case 'le':
          ws.sw[w.index] = g <= 0 ? 1 : 0;
          break;
        case 'gt':
          ws.sw[w.index] = g > 0 ? 1 : 0;
          break;
        case 'ge':
          ws.sw[w.index] = g >= 0 ? 1 : 0;
          break;
        case 'step':
          ws.sw[w.index] = g >= 0 ? 1 : 0;
          break;
        case 'sign':
          ws.sw[w.index] = Math.sign(g);
          break;
      }
    }
    return atZero;
  }

  /** The switching function along which the motion slides at (t, y), or -1. */
  private slidingAlong(t: number, y: Float64Array, d: Float64Array): number {
    const ws = this.ws,
      m = ws.model;
    // Sliding: at a switching function's zero, the motion of either side drives it back
    // (x' = if x > 0 then -1 else 1 at x = 0). Crossing after crossing would follow, each a
    // rounding apart; integrating on with either branch is wrong. Only both sides together
    // tell (at an event the state sits on the near side of a zero it is about to cross), with
    // every switch on the same function set to the same side (`Vy < 0` and `Vy >= 0` of one
    // model), and only where the motion of this side reaches zero within a few ulps of t
    // (slowly approaching a surface is not sliding on it).
    for (let k = 0; k < m.watchInfo.length; k++) {
      const w = m.watchInfo[k];
      if (w.kind !== 'switch' || this.sideAt[k] === 0) continue;
      this.ratesOnBothSides(k, w.index, t, y, d);
      const fromAbove = this.rateAbove,
        fromBelow = this.rateBelow;
      const g = ws.gTmp[k],
        rate = g > 0 ? fromAbove : fromBelow;
      const reaches = g === 0 || Math.abs(g) <= 64 * Number.EPSILON * Math.max(1, Math.abs(t)) * Math.abs(rate);
      if (fromAbove < 0 && fromBelow > 0 && reaches) return k;
    }
    return -1;
  }

  /**
   * The side of its zero that switching function k (switch j), exactly 0 here, goes to: the
   * side whose own branch keeps the motion there. Deciding by the rate under the branch in
   * use went wrong at an equilibrium on the surface: x' = if x > c then -(x - c) else 1
   * reaches x = c with rate 0 above; the branch below moved it up, for good, while the
   * switch stayed locked below. When both sides are consistent (or neither: sliding) the
   * rate under the branch in use decides.
   */
  private sideAtZero(k: number, j: number, t: number, y: Float64Array, d: Float64Array): number {
    this.ratesOnBothSides(k, j, t, y, d);
    // (zero under the branch in use, sign(v) = 0 at v = 0 among them: where it goes next)
    let rateNow = this.ws.gAfter[k];
    if (rateNow === 0) rateNow = this.rateAhead(k, t, y, d);
    const up = this.rateAbove,
      down = this.rateBelow;
    if (up >= 0 && down > 0) return 1;
    if (up < 0 && down <= 0) return -1;
    return rateNow === rateNow ? Math.sign(this.ws.dir * rateNow) : 0;
  }

  /**
   * The rate of watched function k (switch j) in the direction of integration under the
   * branch of each side of its zero (every switch on the same function set alike), into
   * rateAbove and rateBelow; the switches are left as they were.
   */
  private ratesOnBothSides(k: number, j: number, t: number, y: Float64Array, d: Float64Array): void {
    const ws = this.ws,
      m = ws.model;
    this.swSaved.set(ws.sw);
    this.setSide(j, 1);
    m.watchRate(t, y, ws.p, d, ws.sw, this.rMid);
    this.rateAbove = ws.dir * this.rMid[k];
    if (this.rateAbove === 0) this.rateAbove = ws.dir * this.rateAhead(k, t, y, d);
    this.setSide(j, -1);
    m.watchRate(t, y, ws.p, d, ws.sw, this.rMid);
    this.rateBelow = ws.dir * this.rMid[k];
    if (this.rateBelow === 0) this.rateBelow = ws.dir * this.rateAhead(k, t, y, d);
    ws.sw.set(this.swSaved);
  }

  /**
   * A branch under which function k's rate is exactly zero at (t, y) may still move it at
   * once: v' = t - 2 step(v) from v = 0 at t = 0 (rate t below, 0 at the start). Its side is
   * the sign of the rate (as t grows, like gAfter) a little later along that branch's flow
   * (one Euler step of 1e-8 max(1, |t|) in the direction of integration); zero when that
   * rate is zero too or moves the function by less than its rounding over the step (a true
   * rest); the callers take the run's direction into account. Judged at the
   * zero only, the branch below was taken as keeping v at 0, v rose under it and step(v)
   * stayed 0, status ok.
   */
  private rateAhead(k: number, t: number, y: Float64Array, d: Float64Array): number {
    const ws = this.ws,
      m = ws.model,
      n = m.nStates,
      yA = this.yAhead,
      f = this.fAhead;
    const h = ws.dir * 1e-8 * Math.max(1, Math.abs(t));
    m.rhs(t, y, ws.p, d, ws.sw, f);
    for (let i = 0; i < n; i++) yA[i] = y[i] + h * f[i];
    const tA = t + h;
    m.watchRate(tA, yA, ws.p, d, ws.sw, this.rMid);
    m.watchBound(tA, yA, ws.p, d, ws.sw, this.bAhead);
    const rate = this.rMid[k];
    // (rBound-like: a rate within the rounding of the function's own scale over h is none)
    if (!(Math.abs(rate * h) > 4 * this.bAhead[k])) return 0;
    return rate;
  }

  /** Sets every switch on the same function as switch j to the branch of `side` of its zero. */
  private setSide(j: number, side: number): void {
    const ws = this.ws,
      m = ws.model;
    for (const i of this.sameFunction[j]) {
      const primitive = m.switching[i].primitive;
      ws.sw[i] = primitive === 'sign' ? side : (primitive === 'lt' || primitive === 'le') === side < 0 ? 1 : 0;
    }
  }

  /** The message for a sliding motion along watched (switching) function k at t. */
  slidingMessage(k: number, t: number): string {
    const m = this.ws.model,
      w = m.watchInfo[k];
    const what = w.kind === 'switch' ? relationText(m, w.index) : 'a switching function';
    return `sliding mode at ${m.system.independent} = ${t}: on both sides of ${what} the motion turns back to it, so the solution would slide along it (a Filippov sliding motion, as ideal dry friction or a relay), which deltastep does not integrate; smooth the switch (e.g. tanh(v/eps) for sign(v)) or model the stuck phase with a discrete mode`;
  }
}

/** The relation of switch i as the user wrote it: uK + SK is the derivative that jumps (see transform). */
export function relationText(m: CompiledModel, i: number): string {
  let text = m.switching[i].source;
  for (const sv of m.system.stepVariables) text = text.split(`${sv.state} + ${sv.name}`).join(sv.variable);
  return text;
}
