/**
 * The next crossing of one state event, from the Taylor coefficients of its function about
 * the current instant (closed-form.ts) and the certified roots (roots.ts), with the event
 * core's rules for a function at zero (EVENTS.md 1 and 2):
 *
 * - Its own event just fired and the actions left its value where it was (a bounce: h = 0
 *   before and after, only h' changed): the root at the instant is divided out and it fires
 *   again only at a later crossing. If it leaves zero across the side it came from, without
 *   an approach the arithmetic could see (a grazing arrival), or stays at zero with the
 *   motion pushing it across (a plastic impact under gravity), it is a contact.
 * - Any other function that the instant's actions changed and that sits within its own
 *   rounding of zero (the scale of the terms it adds, not of the state vector) and heads
 *   across is unresolved: whether it crosses before or after the instant cannot be told in
 *   double precision (a gap x2 - x1 of positions near 3 below 1e-15). Functions that cross at
 *   one instant without touching each other's motions were found together by their predicted
 *   times. One that heads away has the root at the instant divided out. One that nothing moves
 *   (every coefficient within its rounding: bodies moving together) sits there.
 * - At the start of a run a function at zero is taken as leaving it: an event needs a
 *   crossing from the side its direction names (falls: from > 0), as on the stepper. So is
 *   one the instant's event iteration judged and did not fire (set onto zero from above and
 *   heading back up touched it: fire.ts, sentAcross), which is no ambiguity either.
 */
import { PolynomialRoots } from './roots.js';
import { LinearScan } from './linear-scan.js';
import { RotationRoots } from './rotation-roots.js';
import { relaxationRoot } from './relaxation-roots.js';
import type { EventPlan } from './plan.js';

/** resume: a linear event's scan stopped at its budget of windows at s, nothing found before */
export type Outcome = 'crossing' | 'contact' | 'unresolved' | 'resume';

export class Predictor {
  /** the coefficients and rounding bounds of the last function asked about */
  readonly c: Float64Array;
  /** the last prediction: what it found, and where (s from the instant; Infinity: no crossing ahead) */
  outcome: Outcome = 'crossing';
  s = Infinity;
  /** the last prediction held the function at the zero its event fired at, at rest there (within `hold`) */
  resting = false;
  /** |t| of the instant predicted from (set by the engine): the scale of a place's precision */
  timeScale = 0;
  /**
   * set by the engine for one prediction: the last certain sign of the linear scan that
   * stopped at its budget at this instant (resumeSign of the last), 0 for none; the scan goes
   * on with it, for this instant is no start but a place inside that scan
   */
  carry = 0;
  /** the last prediction's outcome was 'resume' from a linear scan: its last certain sign (LinearScan.resumeSign) */
  resumeSign = 0;
  private readonly roots = new PolynomialRoots();
  private readonly scan = new LinearScan(this.roots);
  private readonly rotation = new RotationRoots();
  private readonly r = new Float64Array(7);

  constructor(maxDegree: number) {
    this.c = new Float64Array(2 * (maxDegree + 1));
  }

  /** The sign of the function's rate in c where it exceeds its rounding, else 0. */
  rateSign(plan: EventPlan): number {
    const D = plan.degree;
    return D >= 1 && Math.abs(this.c[1]) > this.c[D + 2] ? Math.sign(this.c[1]) : 0;
  }

  /**
   * The next crossing within H of the function whose coefficients are in c. `still`: its
   * event fired at this instant and left it at zero; `approach`: then, the sign of its rate
   * when it arrived (0: too small to see); `start`: the first instant of the run; `bound`: the
   * rounding of its value at the instant (c's constant's bound for a polynomial; along a linear
   * block that bound holds the remainder over the first window, and this is the function's own).
   */
  predict(
    plan: EventPlan,
    range: number,
    still: boolean,
    approach: number,
    start: boolean,
    bound: number,
    /** the instant's event iteration judged it (an action moved it) and it did not fire: leaving zero, as at a start */
    judged = false,
    /** its zero located at this instant (`still`, or a function with the same zeros fired): how far from zero it is held, what the location cannot tell from zero (the stepper's hold, arming.ts) */
    hold = 0,
  ): void {
    // (a linear event's coefficients hold on their window; the scan goes on beyond it)
    const lin = plan.linear;
    const H = lin ? Math.min(range, lin.window) : range;
    const c = this.c,
      D = plan.degree,
      dir = plan.dir;
    this.outcome = 'crossing';
    this.resting = false;
    this.resumeSign = 0;
    const carry = this.carry;
    this.carry = 0;
    if (lin && carry !== 0) {
      // the rest of a scan that stopped at its budget here with a certain sign before: neither
      // a start nor an instant's zero, the function just where the scan left it
      this.s = this.scan.next(lin, 0, range, dir, carry);
      this.scanned();
      return;
    }
    const atZero = still || !(Math.abs(c[0]) > bound);
    if (atZero && start && dir !== 0 && plan.touchesOwn && !plan.movesOwn) {
      // At rest at its zero at the start (zero rate), pushed across in its direction, by a
      // motion its own actions would turn (an impact, not a detector): a persisting contact,
      // as after a plastic impact (a ball at rest on the floor at t0 fell through it with
      // status ok). One that leaves with a rate does not fire there, nor one whose actions
      // would move its value (a reset, y := y + 1 at y - 0.5 rises: leaving zero, it follows
      // the start's rule, as on the steppers).
      const sign = this.roots.departure(c, 0, D);
      if (sign === dir && this.roots.order >= 2) {
        this.outcome = 'contact';
        this.s = 0;
        return;
      }
    }
    // A motion that never leaves what its location cannot tell from zero does not cross: the
    // residue an action left at rest (x' := 0 at x = 0 of a damped spring: at rest in exact
    // arithmetic, x = 1e-17 oscillating about 0 in double precision). Held there, as the
    // stepper holds it until it leaves (arming.ts, leaving), its sign changes are no
    // crossings (each one counted as a catch, n = 8 for 1), and being pushed across is no
    // contact (linear-reach.ts); so for a function with the same zero (x' rises beside
    // x' falls, which fired).
    if (hold > 0 && !start && lin !== null && !(lin.reach() > hold)) {
      this.s = Infinity;
      this.resting = true;
      return;
    }
    if (atZero && !start && !judged) {
      const sign = this.roots.departure(c, 0, D),
        order = this.roots.order;
      // nothing moves it (masses moving together after a plastic impact): it sits at zero
      if (sign === 0) {
        this.s = Infinity;
        this.resting = still || hold > 0;
        return;
      }
      if (still) {
        // (only an impact can be in contact: a detector, n := n + 1, set onto its zero at rest
        // and pushed on across has crossed once, as on the steppers, crossings.ts isImpact)
        const across = dir !== 0 ? sign === dir : approach !== 0 && sign === approach;
        if (across && (order >= 2 || approach === 0) && plan.touchesOwn && !plan.movesOwn) {
          this.outcome = 'contact';
          this.s = 0;
          return;
        }
      } else {
        // the instant's actions changed its motion while it sat within rounding of zero:
        // whether it crosses before or after the instant cannot be told
        const side = dir !== 0 ? -dir : Math.sign(c[0]);
        if (dir !== 0 ? sign === dir : side !== 0 && sign === -side) {
          this.outcome = 'unresolved';
          this.s = 0;
          return;
        }
      }
    }
    if (D === 1) {
      // a straight line: its root at once (at zero, the line leaves it and never comes back)
      const v = c[1],
        s = -c[0] / v;
      this.s = !atZero && Math.abs(v) > c[3] && s > 0 && s <= H && (dir === 0 || Math.sign(v) === dir) ? s : Infinity;
      return;
    }
    if (D === 2 && atZero && Math.abs(c[2]) > c[5] && Math.abs(c[2]) > 1e-150 && Math.abs(c[2]) < 1e150) {
      // a parabola leaving zero (a bounce): p(s)/s = c1 + c2 s, one root, crossed in the
      // direction of c2; with c1 within its rounding, zero is a double root and it leaves
      // for good
      const s = -c[1] / c[2];
      this.s = Math.abs(c[1]) > c[4] && s > 0 && s <= H && (dir === 0 || Math.sign(c[2]) === dir) ? s : Infinity;
      return;
    }
    if (lin && lin.rotation(this.r)) {
      // a pure rotation: every crossing of the segment in closed form
      const rot = this.rotation;
      this.s = rot.first(this.r, atZero, dir, range);
      if (rot.unresolved) {
        this.outcome = 'unresolved';
        this.s = rot.where;
      }
      return;
    }
    if (lin && lin.relaxation(this.r)) {
      // a relaxation: its one crossing in closed form (NaN: the signs cannot be told, the scan decides)
      const s = relaxationRoot(this.r, c[0], bound, atZero, dir, range);
      if (s === s) {
        this.s = s;
        return;
      }
      lin.fullCoefficients(c);
    }
    if (lin && !atZero && !(Math.abs(c[0]) > c[D + 1])) {
      // off zero, but within the first window's remainder: that window cannot tell the sign
      // near the instant; the scan's windows from the instant, halved near a crossing, can
      this.s = this.scan.next(lin, 0, range, dir);
      this.scanned();
      return;
    }
    if (lin) {
      this.s = this.scan.first(lin, c, atZero, dir, H);
      if (this.scan.unresolved) {
        this.outcome = 'unresolved';
        this.s = this.scan.where;
        return;
      }
    } else {
      this.roots.settleScale = this.timeScale;
      this.s = this.roots.first(c, 0, D, atZero, dir, H);
    }
    if (this.roots.unresolved && !lin) {
      this.outcome = 'unresolved';
      this.s = this.roots.where;
    } else if (
      !lin &&
      atZero &&
      !still &&
      !start &&
      !judged &&
      hold === 0 &&
      this.s < Infinity &&
      this.within(D, bound)
    ) {
      // Within its rounding of zero at this instant but not located there, its zero divided
      // out as if exact: a motion that never leaves that rounding before it comes back across
      // cannot be told from one that never crossed (x - y at 1e-3, read as 0 where it is
      // 1.7e-19, dipping 7e-20 and back: `rises` stopped the run at 1.656e-6, status stopped,
      // where x - y never crosses). Never guessed (EVENTS.md 1): precision ran out there.
      this.outcome = 'unresolved';
    } else if (!lin && this.roots.settle < this.s) {
      // a certain crossing whose place the coefficients about this instant cannot tell (a
      // triple zero): predicted again from where its sign is last certain, closer to it
      this.outcome = 'resume';
      this.s = this.roots.settle;
    } else if (lin && this.s === Infinity && H < range) {
      this.s = this.scan.next(lin, H, range, dir);
      this.scanned();
    }
  }

  /**
   * Whether the polynomial in c (degree D, its constant taken as 0) stays within 4 times
   * `bound`, its constant's rounding, over (0, s): sampled at 32 points, where a low-degree
   * motion between its start and its root is smooth.
   */
  private within(D: number, bound: number): boolean {
    const c = this.c,
      s = this.s;
    for (let i = 1; i < 32; i++) {
      const u = (s * i) / 32;
      let v = c[D];
      for (let k = D - 1; k >= 1; k--) v = v * u + c[k];
      if (!(Math.abs(v * u) <= 4 * bound)) return false;
    }
    return true;
  }

  /** The outcome of the window scan's `next`: unresolved, stopped at its budget, or a crossing (or none). */
  private scanned(): void {
    if (this.scan.unresolved) {
      this.outcome = 'unresolved';
      this.s = this.scan.where;
    } else if (this.scan.resumeAt < Infinity) {
      this.outcome = 'resume';
      this.s = this.scan.resumeAt;
      this.resumeSign = this.scan.resumeSign;
    }
  }
}
