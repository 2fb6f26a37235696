/**
 * Whether a crossing located in a step can be told from the noise of the states' errors
 * (EVENTS.md, 1: zero on each function's own scale). A function whose terms cancel is known
 * only to rtol times the size of its terms, whatever its value: y1' - 0.5 with y1' = -1e6
 * (y1 - sin t) has terms of 2e6, a band of 1.7 at rtol 1e-6, and radau5 put a "fall" at
 * t = 0.39 where the function is 0.43; rodas counted 30 falls. A crossing the step shows no
 * farther across than that band is not an event but a run that cannot go on at these
 * tolerances; the driver fails it with the band and the way out (diagnosis.ts).
 */
import type { Stepper } from '../integrators/stepper.js';
import { functionTolerance } from './delta-touch.js';
import { valueOnStep } from './step-samples.js';
import { denseSpread } from './stiff-step.js';
import type { Workspace } from './workspace.js';

export class CrossingNoise {
  /** the function whose crossing in the last step was within its noise, or -1 */
  function = -1;
  /** its tolerance band, how far the step showed it across */
  band = 0;
  reach = 0;
  /** whether the step was a stiff one, and whether the function stayed at rest within its band over all of it */
  stiff = false;
  still = false;
  /**
   * whether the crossing crept across within its band on a step that is not stiff: the
   * function within the band at every point of the step and its rate too small to carry it
   * across the band in the step (creptWithin)
   */
  crept = false;
  /**
   * The part of the band that atol makes (0: none, the band is rtol of the function's terms),
   * when the crossing failed as a wandering one (judge), and the time of the crossing before it
   */
  absolute = 0;
  wanderedFrom = NaN;
  rtol = 1e-6;
  atol = 1e-9;
  /** scratch: the state on the step's dense output */
  private readonly y: Float64Array;
  /**
   * Per function: the band (cancelling terms plus atol through it) of a crossing that a stiff
   * step located within it, taken as an event, while the function has not left that band
   * since (0: none); and where (absolute time) that crossing was.
   */
  readonly wander: Float64Array;
  private readonly wanderAt: Float64Array;
  /** per function: the side that provisional crossing went to, and its value at the last step's end */
  private readonly wanderSide: Float64Array;
  private readonly wanderLast: Float64Array;
  /**
   * the failure is a crossing within atol refuted: its function came back to the side it
   * crossed from within the step that found it, before its event ('within'), or after its
   * event fired ('after': follow, refutedAtEnd); null: not that failure
   */
  returned: 'within' | 'after' | null = null;

  constructor(private readonly ws: Workspace) {
    this.y = new Float64Array(ws.model.stateNames.length);
    this.wander = new Float64Array(ws.nWatch);
    this.wanderAt = new Float64Array(ws.nWatch);
    this.wanderSide = new Float64Array(ws.nWatch);
    this.wanderLast = new Float64Array(ws.nWatch);
  }

  clear(): void {
    this.function = -1;
    this.absolute = 0;
    this.wanderedFrom = NaN;
    this.returned = null;
    this.wander.fill(0);
  }

  /** Function k's crossing, if one within atol (judge), was taken at the absolute time t. */
  landed(k: number, t: number): void {
    if (this.wander[k] > 0) this.wanderAt[k] = t;
  }

  /**
   * Function k is at g0 and g1 at the ends of an accepted step after a crossing it took within
   * atol over a stiff step (judge): that crossing is provisional until the motion confirms it.
   * Confirmed (it stands, and k is followed no more): the function is farther across than the
   * band on the side it crossed to, or it rests (a tank's h' = -k sqrt(max(h, 0)) below zero:
   * value and rate still within their rounding; no flow carries it back), or an instant moved
   * it off where the last step left it (an action wrote what it reads: what follows is that
   * action's, not the crossing's noise). Refuted: it is back on the side it came from at the
   * step's end, beyond its rounding, without an action having put it there; the crossing was
   * the states' error around a zero the motion approaches and does not cross (y' = -1e6 (y -
   * x), x' = -x: y - 1e-200 "fell" at t = 28.7 and y was at +5e-13 at the next step's end).
   * Then the run fails (true returned), naming atol. (Before, leaving the band either way
   * confirmed it: with a dose x := x + 1 at each fall, y left upwards after each spurious one,
   * and 31 were counted on [0, 1000] where there are 2.)
   */
  follow(stepper: Stepper, k: number, g0: number, g1: number): boolean {
    const w = this.wander[k];
    if (!(w > 0)) return false;
    const side = this.wanderSide[k];
    const last = this.wanderLast[k];
    this.wanderLast[k] = g1;
    if (side * g1 > w || Math.abs(g0 - last) > w) {
      this.wander[k] = 0;
      return false;
    }
    const ws = this.ws,
      m = ws.model;
    const rounding = 4 * m.boundOne[k](ws.origin.abs(stepper.t), stepper.y, ws.p, ws.d, ws.sw);
    if (!(side * g1 < -rounding)) {
      if (this.atRest(stepper, k)) this.wander[k] = 0;
      return false;
    }
    this.refute(k, w, this.wanderAt[k], 'after');
    return true;
  }

  /**
   * At the end of the range, function k's crossing still provisional (follow) is refuted if
   * the motion there heads back across: its value on the side it came from, or its rate (the
   * flow's, at the end) towards it beyond its rounding (y below zero after its spurious fall,
   * y' = -1e6 (y - x) ~ -y > 0). A function still going the way it crossed, or at rest, keeps
   * its crossing. (t, y): the end, and the state there.
   */
  refutedAtEnd(k: number, t: number, y: Float64Array): boolean {
    const w = this.wander[k];
    if (!(w > 0)) return false;
    const ws = this.ws,
      m = ws.model,
      side = this.wanderSide[k];
    const g = m.watchOne[k](t, y, ws.p, ws.d, ws.sw),
      r = m.rateOne[k](t, y, ws.p, ws.d, ws.sw);
    const rounding = 4 * m.boundOne[k](t, y, ws.p, ws.d, ws.sw);
    const rateRounding = 4 * m.rateBoundOne[k](t, y, ws.p, ws.d, ws.sw);
    if (!(side * g < -rounding) && !(side * r < -rateRounding)) return false;
    this.refute(k, w, this.wanderAt[k], 'after');
    return true;
  }

  private refute(k: number, band: number, from: number, returned: 'within' | 'after'): void {
    this.function = k;
    this.stiff = true;
    this.still = false;
    this.crept = false;
    this.band = band;
    this.absolute = band;
    this.wanderedFrom = from;
    this.returned = returned;
    this.wander[k] = 0;
  }

  /**
   * Whether the crossing of function k located at s in the step [a, b] (local times), to
   * the side `side`, cannot be told from the noise: the run's tolerance on the function (rtol
   * times the size of its terms, at its crossing) against how far the step shows it across.
   * A step that ends on the side it crossed to shows that by its ends (both within the band:
   * not resolved); one that ends back on the side it came from dipped across inside, as deep
   * as nine points inside and the bracket's far end show. Notes the function when so.
   *
   * `stiff`: a stiff step; otherwise its ends are trusted, and only a dip across and back (a
   * grazing approach) is judged. A spring against a wall whose impacts graze (W2) at rtol
   * 1e-6 peaked 5e-8 above zero in a radau5 step; the crossing placed on its falling side
   * reversed the motion into the wall ("persisting contact", a false diagnosis).
   */
  judge(stepper: Stepper, k: number, a: number, s: number, b: number, side: number, stiff: boolean): boolean {
    // (a stiff step's noise band that atol dominates is atol's, judged below with it: a dip of
    // y over a dopri5 step held at its border, y some 1e-8 at atol 1e-9, was failed as a
    // cancellation of ±7e-31, naming rtol, where atol is what does not resolve it)
    if (
      this.within(stepper, k, a, s, b, side, !stiff) &&
      !(stiff && this.atolThrough(stepper, k, s) * denseSpread(stepper) > this.band)
    ) {
      this.function = k;
      this.stiff = stiff;
      this.absolute = 0;
      return true;
    }
    if (!stiff) return false;
    // Over a stiff step the states are off the slow solution by up to their tolerance, and one
    // near zero by up to atol whatever its size: a function of such states is known only to
    // atol through it. A crossing within that is no proof of a crossing (y - 1e-200 with
    // y' = -1e6 (y - e^-t): rodas held y to ±1e-13 around zero from t = 25 on at atol 1e-9,
    // and y "fell" through 1e-200 four times, status ok, where it falls once, at 460.5), but
    // not of noise either: a draining tank, h' = -k sqrt(max(h, 0)), reaches h = 0 with h far
    // below atol for a while before, and its one `falls` is located within that band. The
    // first such crossing is taken, and noted; crossing again without having left the band
    // since is wandering in the error, and fails the run (a tank's h never comes back: its
    // rate is never positive, and Arming does not count its noise as crossings).
    // (over an explicit step held at its stability border, the dense output swings by several
    // times that inside the step: stiff-step.ts, denseSpread)
    const absolute = this.atolThrough(stepper, k, s) * denseSpread(stepper);
    if (!(absolute > 0) || !this.within(stepper, k, a, s, b, side, false, absolute)) {
      this.wander[k] = 0;
      return false;
    }
    if (!(this.wander[k] > 0)) {
      // (refuted by the step itself: it ends back on the side it came from, beyond the
      // function's rounding. A dip across and back within atol is the states' error around a
      // zero the motion approaches, and no event fires: y - 1e-200 with y' = -1e6 (y - x) dipped
      // to the crossing at 28.67 and ended the step at +8e-12, and with a restart y := 1; x := 1
      // as its action, each dip fired it, every 29.7 where the falls are 460.5 apart: no later
      // motion refuted them. A tank's h ends its step below zero, at rest there)
      const ws = this.ws,
        tb = ws.origin.abs(b);
      const rounding = 4 * ws.model.boundOne[k](tb, stepper.y, ws.p, ws.d, ws.sw);
      if (side * ws.gNew[k] < -rounding) {
        this.refute(k, this.band, ws.origin.abs(s), 'within');
        return true;
      }
      this.wander[k] = this.band;
      this.wanderAt[k] = this.ws.origin.abs(s);
      this.wanderSide[k] = side;
      // (at the crossing: an instant there that moves the function off it is an action's)
      this.wanderLast[k] = 0;
      return false;
    }
    this.function = k;
    this.stiff = true;
    this.absolute = absolute;
    this.wanderedFrom = this.wanderAt[k];
    this.returned = null;

    return true;
  }

  private within(
    stepper: Stepper,
    k: number,
    a: number,
    s: number,
    b: number,
    side: number,
    dipOnly: boolean,
    absolute = 0,
  ): boolean {
    const ws = this.ws,
      m = ws.model;
    stepper.interpolateSome(s, m.watchStates[k], ws.yTmp);
    // (rtol of the size of its terms: atol is no part of a cancellation's noise. A dip is
    // judged with atol too, through the function: a state near zero keeps the error of its
    // history, not of its size; x = (t - 1)^2 integrated from 1 dipped 5e-16 below its touch
    // at rtol 1e-10, which rtol times a size of 5e-16 took for a crossing)
    const cancelling = functionTolerance(ws, k, ws.origin.abs(s), ws.yTmp, this.rtol, 0);
    // (what a stiff step's judge adds: atol through the function)
    const trusted = cancelling + absolute;
    this.band = trusted;
    this.still = false;
    this.crept = false;
    const g1 = ws.gNew[k];
    if (side * g1 > 0) {
      if (!(trusted > 0)) return false;
      // (trusted ends: unless the step shows neither a value nor a rate off zero, a function
      // at rest at its zero whose noise changed sign: x - 0.5 t with x' = 0.5 after x := 0,
      // which radau5 carried from +6.8e-21 to -4.3e-19; a real crossing moves)
      if (dipOnly)
        return this.atRestWithin(stepper, k, cancelling) || this.creptWithin(stepper, k, a, b, side, cancelling);
      this.reach = Math.max(Math.abs(ws.gPrev[k]), Math.abs(g1));
      return !(this.reach > trusted);
    }
    // (a function that crept onto exactly zero: its value rounded to zero at the step's end, q
    // at V C to the last bit, not a flat zero, whose crossing moves it there)
    if (g1 === 0 && this.creptWithin(stepper, k, a, b, side, cancelling)) return true;
    const band = dipOnly ? cancelling + this.atolThrough(stepper, k, s) : trusted;
    this.band = band;
    if (!(band > 0)) return false;
    // (a moving function that reaches exactly zero on that side sits on a flat zero, min(y -
    // 0.5, 0) or an if: its crossing is that zero, not noise. One at rest is noise around
    // zero, exact zeros or not: x - 0.5 t with x' = 0.5 after x := 0 at t = 0, which dop853
    // put 2e-20 above zero and 0 inside)
    // (at rest at both ends is no proof of rest inside: max(s, 0) is 0 with rate 0 at both
    // ends of a step over which s rose to 0.24 and fell back below 0; a sample farther from
    // zero than the band shows it moving, and an exact zero after that is its flat zero)
    const moving = !this.atRest(stepper, k);
    let reach = side * g1;
    let away = Math.max(Math.abs(ws.gPrev[k]), Math.abs(g1));
    let flat = g1 === 0 && moving;
    for (let i = 1; i < 10 && !(reach > band) && !flat; i++) {
      const g = valueOnStep(this.ws, stepper, k, a + (i / 10) * (b - a), this.y);
      reach = Math.max(reach, side * g);
      away = Math.max(away, Math.abs(g));
      flat = (g === 0 || g1 === 0) && (moving || away > band);
    }
    // The excursion that starts at the crossing, at offsets growing by √2 from 2^-20 of the
    // rest of the step: whatever its width, one offset lands within √2 of its peak and sees
    // 90% of it (of a parabola), where nine even points miss a narrow one among dozens (a
    // step over many periods of sin(3000 t) - 0.9).
    const rest = b - s;
    // (a crossing at the step's end leaves no rest to scan: u would stay 0, the loop endless)
    if (dipOnly && !(reach > band) && !flat && rest !== 0) {
      for (let u = rest * 2 ** -20; Math.abs(u) <= Math.abs(rest) && !(reach > band) && !flat; u *= Math.SQRT2) {
        const g = valueOnStep(this.ws, stepper, k, s + u, this.y);
        reach = Math.max(reach, side * g);
        away = Math.max(away, Math.abs(g));
        flat = g === 0 && moving;
      }
    }
    this.reach = reach;
    this.still = !(away > band) && !moving;
    return !(reach > band) && !flat;
  }

  /**
   * Whether function k stayed at rest within `band` of zero over the last step: its value
   * within the band at both ends (still; reach is how far it showed across), and at rest
   * (atRest).
   */
  private atRestWithin(stepper: Stepper, k: number, band: number): boolean {
    const ws = this.ws;
    const g0 = ws.gPrev[k],
      g1 = ws.gNew[k];
    if (Math.abs(g0) > band || Math.abs(g1) > band || !this.atRest(stepper, k)) return false;
    this.reach = Math.max(Math.abs(g0), Math.abs(g1));
    this.still = true;
    return true;
  }

  /**
   * Whether function k crept across zero within `band` over the last step [a, b]: its value
   * within the band at both ends and at nine points inside, and its motion dying out before
   * it could cross the band: at its rate r (the larger at the step's ends) the band takes
   * band / r to cross, longer than the step and longer than the time r / r' in which the rate
   * changes by its own size (r' from the ends' rates), heading across and slowing down (the
   * rate at the end at most half the start's). Such a step shows no motion across
   * zero, only the states' error: a function that tends to its zero and never reaches it (a
   * threshold at the equilibrium of a critically damped or overdamped motion, q - V C with
   * q = V C (1 - (1 + w t) e^{-wt}); x - 1 with x = 1 - (1 + t) e^{-t}) enters its band, its
   * rate decaying with it, and the error carries it across: dop853 at rtol 1e-12 fired
   * `q - V*C rises` at t = 4.07 where q - V C is -4.4e-16 and reaches 0 only as t goes to
   * infinity, status ok (and with the action s := 0 that followed, a whole other run). A
   * crossing the motion makes keeps its rate across the band (u - exp(65 eps) with u' = u on
   * [0, 130 eps], all of it within the band rtol makes, crosses at rate 1, which no step
   * changes: found), or moves the function by more than the band in the step.
   */
  private creptWithin(stepper: Stepper, k: number, a: number, b: number, side: number, band: number): boolean {
    const ws = this.ws;
    const g0 = ws.gPrev[k],
      g1 = ws.gNew[k];
    if (!(band > 0) || !(Math.abs(g0) <= band) || !(Math.abs(g1) <= band)) return false;
    const h = Math.abs(b - a),
      r0 = ws.rPrev[k],
      r1 = ws.rNew[k];
    const r = Math.max(Math.abs(r0), Math.abs(r1));
    // (heading across at the step's start and slowing down: the rate at its end at most half
    // that; a ball's last small bounces before its Zeno point, a whole flight within the band
    // of h - T in one step, leave upwards and come down faster: a flight, not a creep)
    if (!(side * r0 > 0) || !(Math.abs(r1) <= 0.5 * Math.abs(r0))) return false;
    // (band / r >= h, and band / r >= r h / |r1 - r0|)
    if (!(r * h <= band) || !(r * r * h <= band * Math.abs(r1 - r0))) return false;
    let reach = Math.max(Math.abs(g0), Math.abs(g1));
    for (let i = 1; i < 10; i++) {
      const g = valueOnStep(ws, stepper, k, a + (i / 10) * (b - a), this.y);
      if (!(Math.abs(g) <= band)) return false;
      reach = Math.max(reach, Math.abs(g));
    }
    this.reach = reach;
    this.crept = true;
    return true;
  }

  /**
   * Whether function k did not move over the last step: its rate within its rounding at both
   * ends, and its value changed by no more than its rounding. (The value's own rounding, not
   * the band: step(x - S) - 0.5 with S = 1e8 has a band of 200 from its argument's terms and
   * a rate of 0, but its jump from -0.5 to 0.5 is a crossing.)
   */
  private atRest(stepper: Stepper, k: number): boolean {
    const ws = this.ws,
      m = ws.model,
      t = ws.origin.abs(stepper.t),
      y = stepper.y;
    const rateBound = m.rateBoundOne[k](t, y, ws.p, ws.d, ws.sw);
    if (!(Math.abs(ws.rPrev[k]) <= 4 * rateBound && Math.abs(ws.rNew[k]) <= 4 * rateBound)) return false;
    return Math.abs(ws.gNew[k] - ws.gPrev[k]) <= 4 * m.boundOne[k](t, y, ws.p, ws.d, ws.sw);
  }

  /** atolThrough, on the dense output of the step at s. */
  private atolThrough(stepper: Stepper, k: number, s: number): number {
    const ws = this.ws,
      y = this.y,
      tAbs = ws.origin.abs(s);
    const g = valueOnStep(ws, stepper, k, s, y);
    return atolThrough(ws, k, tAbs, y, g, this.atol);
  }
}

/**
 * What an error of atol in each state function k reads makes of it at (t, y), where it is g:
 * the sum over those states of the smaller of |g(y ± atol e_i) - g|, atol weighted by the
 * function's slope in each (v*v - 1e-12 at v = 1e-6 moves by 2e-15 for an atol of 1e-9, x by
 * 1e-9); 0 where that is not a number. The smaller side: a jump within atol of the state
 * (sign(h), step(-h) - 0.5) moves one side by the whole jump, which is no error of the state's,
 * and the other not at all. y is moved and put back. (CrossingNoise's dips, Arming's rest band.)
 */
export function atolThrough(ws: Workspace, k: number, t: number, y: Float64Array, g: number, atol: number): number {
  const m = ws.model;
  let sum = 0;
  for (const i of m.watchStates[k]) {
    const yi = y[i];
    y[i] = yi + atol;
    const up = Math.abs(m.watchOne[k](t, y, ws.p, ws.d, ws.sw) - g);
    y[i] = yi - atol;
    const down = Math.abs(m.watchOne[k](t, y, ws.p, ws.d, ws.sw) - g);
    y[i] = yi;
    sum += Math.min(up, down);
  }
  return sum === sum ? sum : 0;
}
