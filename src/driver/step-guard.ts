/**
 * The guard on step sizes: ends a run whose steps cannot carry it to the end of its range,
 * promptly and with the cause, on evidence gathered from the steps themselves, never on a
 * projection of today's step over the rest of the range (a stiff run's steps grow a
 * thousandfold with t: Robertson's reach 1e9 by t = 1e11, from 0.02 at t = 10).
 *
 * The evidence, over windows of WINDOW accepted steps without an instant in between:
 * - a step size that keeps falling, window after window: its cause, if one is found (a
 *   right-hand side not finite just ahead, a jump, stiffness), or a collapse once the steps
 *   are below the rounding of t (steps that small are no evidence alone: counted from the
 *   time origin, a run far from t = 0 takes them where it must);
 * - the pattern of switching: many rejected attempts (a jump inside a step fails the error
 *   test) or a motion that turns back again and again (a state zigzagging about the surface
 *   where its right-hand side jumps): the next window's steps are each tested for a jump of
 *   the right-hand side (Diagnosis.jumpCause), and a jump found again and again is chatter,
 *   told within a few thousand steps. A watched window that finds none doubles the wait
 *   before the next (up to MAX_BACKOFF windows): an oscillation taken in a few steps per
 *   period turns back as often, and must not pay for the test on every step;
 * - an explicit method held at its stability border (dopri5's own stiffness test) with more
 *   steps needed at that size than are left: stiffness, with the method to use instead.
 *
 * It also keeps, for the result's warnings, the range of each state that has not yet
 * exceeded the absolute tolerance (toleranceWarning): a state that stays below it over the
 * whole run had its error held to ±atol only, not to rtol of its size, and one that takes
 * both signs there may have taken them from the error alone.
 */
import type { Stepper } from '../integrators/stepper.js';
import type { Diagnosis } from './diagnosis.js';

/** accepted steps per window */
const WINDOW = 256;
/** rejected attempts, or steps that turn a state back, in a window that make the guard test the next window's steps for jumps */
const SUSPECT = WINDOW / 8;
/** steps after an instant before turns are counted */
const SETTLING = 16;
/** the most windows between two watched ones, after watches that found nothing */
const MAX_BACKOFF = 64;
/** jumps found in the steps of one watched window that end the run */
const JUMPS = 8;
/** accepted steps between two looks for states back below atol (StepGuard.readmit) */
const READMIT_EVERY = 16;
/** windows in a row, each with its largest step under half the previous one's, before a cause is sought */
const SHRINKING_WINDOWS = 4;

export class StepGuard {
  /** accepted steps in the current window, and the stepper's rejected count at its start */
  private steps = 0;
  private rejectedAt = 0;
  /** the largest step of this window and of the previous one */
  private hMax = 0;
  private hMaxBefore = Infinity;
  /** windows in a row whose steps shrank */
  private shrinking = 0;
  /** steps still to be tested for a jump, and the jumps found among them */
  private watch = 0;
  private jumps = 0;
  private rejectedWatched = 0;
  /** windows to let pass before the next watch, and the wait after the next fruitless one */
  private wait = 0;
  private backoff = 1;
  /** per state, the direction of its last step that moved it by more than a tenth of its tolerance */
  private readonly direction: Int8Array;
  /** steps of this window that turned some state back */
  private turns = 0;
  private rtol = 0;
  private atol = 0;
  private maxSteps = 0;
  private tEnd = 0;
  private independent = 't';
  /** per state, its largest and smallest value in the run so far (kept while |y| < atol) */
  private readonly hi: Float64Array;
  private readonly lo: Float64Array;
  /** the largest |y| of the state the run started from (what rounding is measured against) */
  private scale = 0;
  /**
   * The states that left ±atol with the other sign than the one they had inside it (or after
   * taking both there), in the order they did, and the value each left with: what a failed
   * run names (Robertson's y2 under DOPRI5 at atol 1e-3: between −5.5e-4 and 3.6e-5, then
   * −2.8e-3, and from there y2' = −3e7·y2² blows up).
   */
  private readonly escaped: Int32Array;
  private nEscaped = 0;
  private readonly escapedAt: Float64Array;
  /** the states whose |y| is still below atol: the only ones read per step */
  private readonly below: Int32Array;
  private nBelow = 0;
  /** per state: whether it is in `below`, and since when (NaN: since the start of the run) */
  private readonly inBelow: Uint8Array;
  private readonly since: Float64Array;
  /** an adaptive run: states that come back below atol are read again (see readmit) */
  private tracking = false;
  /** accepted steps until the next readmit */
  private untilReadmit = READMIT_EVERY;
  /** the next check reads yPrev as well: the state the stepper (re)started from */
  private startState = true;
  /** no step checked since begin: the next check measures the start state's scale */
  private firstCheck = true;

  constructor(
    private readonly diagnosis: Diagnosis,
    nStates: number,
  ) {
    this.direction = new Int8Array(nStates);
    this.hi = new Float64Array(nStates);
    this.lo = new Float64Array(nStates);
    this.below = new Int32Array(nStates);
    this.inBelow = new Uint8Array(nStates);
    this.since = new Float64Array(nStates);
    this.escaped = new Int32Array(nStates);
    this.escapedAt = new Float64Array(nStates);
  }

  /** the step size has fallen window after window (what Diagnosis.stepsCause calls a collapse) */
  get collapsing(): boolean {
    return this.shrinking >= 2;
  }

  /** The start of a run. */
  begin(stepper: Stepper, rtol: number, atol: number, maxSteps: number, tEnd: number, independent: string): void {
    this.diagnosis.setTolerances(rtol, atol);
    this.rtol = rtol;
    this.atol = atol;
    this.wait = 0;
    this.backoff = 1;
    this.maxSteps = maxSteps;
    this.tEnd = tEnd;
    this.independent = independent;
    this.hMaxBefore = Infinity;
    this.shrinking = 0;
    this.hi.fill(0);
    this.lo.fill(0);
    this.firstCheck = true;
    this.nEscaped = 0;
    // (a fixed-step method has no tolerance to fall below)
    this.tracking = stepper.adaptive;
    this.nBelow = stepper.adaptive ? this.below.length : 0;
    for (let i = 0; i < this.nBelow; i++) this.below[i] = i;
    this.inBelow.fill(this.tracking ? 1 : 0);
    this.since.fill(NaN);
    this.untilReadmit = READMIT_EVERY;
    this.restart(stepper);
  }

  /** At an instant (the stepper restarts, and a new motion begins): the window starts again. */
  restart(stepper: Stepper): void {
    this.steps = 0;
    this.rejectedAt = stepper.stats.rejected;
    this.hMax = 0;
    this.watch = 0;
    this.jumps = 0;
    this.turns = 0;
    this.startState = true;
    // (the directions are kept: a state turned back by the instant counts once at most, in a
    // window that starts again here anyway; clearing them would cost O(n) per instant)
  }

  /** After an accepted step ending at the absolute time tAbs: why the run must end, or null. */
  check(stepper: Stepper, tAbs: number): string | null {
    if (this.tracking && --this.untilReadmit === 0) this.readmit(stepper, tAbs);
    if (this.nBelow > 0) this.trackPeaks(stepper);
    const h = Math.abs(stepper.hLast);
    // steps below the resolution of t (only far from t = 0): does f see t as a staircase?
    if (h < 2 * Number.EPSILON * Math.abs(tAbs)) {
      const coarse = this.diagnosis.timeResolutionCause(stepper, tAbs);
      if (coarse !== null) return coarse;
    }
    if (this.watch > 0) {
      this.watch--;
      const jump = this.diagnosis.jumpCause(stepper);
      if (jump !== null && ++this.jumps >= JUMPS) {
        const rejected = stepper.stats.rejected - this.rejectedWatched;
        const steps = WINDOW - this.watch;
        return `the step size is held near ${h} by ${this.independent} = ${tAbs} (${rejected} of ${rejected + steps} attempted steps rejected, a jump inside ${this.jumps} of the last ${steps} steps): ${jump}`;
      }
    }
    if (h > this.hMax) this.hMax = h;
    // (not in the first steps after an instant: a run with an event every few steps, a row of
    // 1024 spheres, never completes a window, and must not pay O(n) per step for it)
    if (this.steps >= SETTLING && this.turnsBack(stepper)) this.turns++;
    if (++this.steps < WINDOW) return null;
    return this.endOfWindow(stepper, h, tAbs);
  }

  /**
   * The range of the states still below atol, after an accepted step (and the state the
   * stepper started from, after a (re)start); a state that exceeds it is read no more, so a
   * run whose states all do pays nothing per step once they have.
   */
  private trackPeaks(stepper: Stepper): void {
    const y = stepper.y,
      hi = this.hi,
      lo = this.lo,
      below = this.below,
      bound = this.atol;
    const start = this.startState ? stepper.yPrev : null;
    this.startState = false;
    if (this.firstCheck) {
      // (once per run: O(n))
      this.firstCheck = false;
      let s = 0;
      for (let i = 0; i < y.length; i++) s = Math.max(s, Math.abs(stepper.yPrev[i]));
      this.scale = s;
    }
    const rounding = 1e-12 * this.scale;
    let k = 0;
    for (let j = 0; j < this.nBelow; j++) {
      const i = below[j];
      const h = hi[i],
        l = lo[i];
      let a = y[i],
        b = a;
      if (start !== null) {
        a = Math.max(a, start[i]);
        b = Math.min(b, start[i]);
      }
      if (a < bound && -b < bound) {
        if (a > h) hi[i] = a;
        if (b < l) lo[i] = b;
        below[k++] = i;
      } else {
        this.inBelow[i] = 0;
        // (hi and lo keep the range inside ±atol; a state read again may escape twice)
        const took = (h > rounding && (y[i] < 0 || -l > rounding)) || (-l > rounding && y[i] > 0);
        if (took && this.nEscaped < this.escaped.length) {
          this.escaped[this.nEscaped++] = i;
          this.escapedAt[i] = y[i];
        }
      }
    }
    this.nBelow = k;
  }

  /**
   * States that exceeded atol and are back below it are read again, their range from here:
   * Robertson's y2 peaks at 3.6e-5 and then decays below an atol of 1e-5 for the rest of the
   * run, where radau5 lets it cross to a spurious -4e-6 that sends y1 to -4e7. Every
   * READMIT_EVERY accepted steps, O(n) each time.
   */
  private readmit(stepper: Stepper, tAbs: number): void {
    this.untilReadmit = READMIT_EVERY;
    const y = stepper.y,
      bound = this.atol;
    for (let i = 0; i < y.length; i++) {
      if (this.inBelow[i] || !(Math.abs(y[i]) < bound)) continue;
      this.inBelow[i] = 1;
      this.below[this.nBelow++] = i;
      this.hi[i] = this.lo[i] = y[i];
      this.since[i] = tAbs;
    }
  }

  /**
   * At the end of a run: a warning naming the states that stayed below atol (|y| < atol over
   * the whole run) and took both signs, each by more than the rounding of the start state
   * (1e-12 of its largest |y|), or null. Their error was held to ±atol, not to rtol of their
   * size, so their sign may have come from the error alone, and a component pushed below zero
   * can send the solution elsewhere (Robertson's y2, at most 3.6e-5: under radau5 at atol 1e-4
   * it settles at −4e-6, and y1 ends at −4.7e7 where it should be 2e-8). One of one sign is
   * left alone: POLLU's y16 (at most 3e-17) at the Test Set's tolerances is as small as the
   * error allows, and as harmless. With failed, also the first state that left ±atol with the
   * other sign than it had inside (see escaped).
   */
  toleranceWarning(stepper: Stepper, failed = false): string | null {
    if (stepper.stats.steps === 0) return null;
    const rounding = 1e-12 * this.scale;
    const states: number[] = [];
    for (let j = 0; j < this.nBelow; j++) {
      const i = this.below[j];
      if (this.hi[i] > rounding && -this.lo[i] > rounding) states.push(i);
    }
    states.sort((a, b) => a - b);
    // A failed run also names the first state that left ±atol with a sign it took inside it:
    // the error's sign, grown into the failure.
    const escaped = failed && this.nEscaped > 0 ? this.escaped[0] : -1;
    if (states.length === 0 && escaped < 0) return null;
    return this.diagnosis.uncontrolledMessage(
      states,
      this.hi,
      this.lo,
      this.rtol,
      this.atol,
      escaped,
      escaped >= 0 ? this.escapedAt[escaped] : 0,
      this.since,
    );
  }

  /** Whether the last step moved some state against the direction of its previous move (both beyond rounding). */
  private turnsBack(stepper: Stepper): boolean {
    const dir = this.direction,
      y = stepper.y,
      y0 = stepper.yPrev;
    let turned = false;
    for (let i = 0; i < dir.length; i++) {
      const dy = y[i] - y0[i];
      if (!(Math.abs(dy) > 0.1 * (this.atol + this.rtol * Math.abs(y[i])))) continue;
      const s = dy > 0 ? 1 : -1;
      if (dir[i] === -s) turned = true;
      dir[i] = s;
    }
    return turned;
  }

  private endOfWindow(stepper: Stepper, h: number, tAbs: number): string | null {
    const st = stepper.stats;
    const hMax = this.hMax;
    const rejected = st.rejected - this.rejectedAt;
    this.rejectedAt = st.rejected;
    this.steps = 0;
    const turns = this.turns;
    this.turns = 0;
    if (this.watch === 0) {
      this.jumps = 0;
      if (this.wait > 0) this.wait--;
      else if (rejected >= SUSPECT || turns >= SUSPECT) {
        // the error test failing again and again: first, a right-hand side not finite just
        // ahead, if the run cannot pass it at the pace of this window. (Attempts that overshoot
        // into NaN and are shrunk, while the accepted steps keep their pace, are no end of the
        // solution: dopri5 at its stability border on CHEMAKZO grows its step tenfold into a
        // stage with y2 < 0 under sqrt, every fifth attempt, and goes on at steps of 0.15.)
        const nonFinite = this.diagnosis.nonFiniteCause(stepper);
        if (nonFinite !== null && Math.abs(this.tEnd - tAbs) > (this.maxSteps - st.steps - st.rejected) * hMax)
          return `${rejected} of ${rejected + WINDOW} attempted steps rejected by ${this.independent} = ${tAbs}: ${nonFinite}`;
        this.watch = WINDOW;
        this.rejectedWatched = st.rejected;
        this.wait = this.backoff;
        this.backoff = Math.min(2 * this.backoff, MAX_BACKOFF);
      }
    }
    this.shrinking = this.hMax < 0.5 * this.hMaxBefore ? this.shrinking + 1 : 0;
    this.hMaxBefore = this.hMax;
    this.hMax = 0;
    if (this.shrinking >= SHRINKING_WINDOWS) {
      const cause = this.diagnosis.quickCause(stepper);
      if (cause) return `the step size keeps falling (to ${h} by ${this.independent} = ${tAbs}): ${cause}`;
      // (below the rounding of the stepper's own t, which counts from the last instant: the
      // absolute t's, in the time origin's two doubles, is no limit. Van der Pol with mu = 1e6
      // on radau5 at rtol 1e-10 takes steps of 4.9e-9 through its fast transition at t =
      // 1.53e7, two ulps of t there, and failed here with "the step size keeps falling".)
      if (hMax <= 2 * Number.EPSILON * Math.abs(stepper.t))
        return `the step size keeps falling, below the rounding of ${this.independent} (to ${h} by ${this.independent} = ${tAbs}): the step size collapsed: the solution changes too fast here (a singularity, or an extremely stiff problem)`;
    }
    const stiff = this.diagnosis.stiffCause(stepper);
    const left = this.maxSteps - st.steps - st.rejected;
    if (stiff !== null && Math.abs(this.tEnd - tAbs) > left * h)
      return `the step size is held at ${h} by ${this.independent} = ${tAbs}, too short to finish the range within maxSteps: ${stiff}`;
    return null;
  }
}
