/**
 * Why a run cannot go on, in the user's words: which variable and expression is not finite,
 * which equation jumps without a switch, whether the problem is stiff, which event function
 * the arithmetic cannot resolve, which contact persists. Used only when a run is failing.
 */
import { toText } from '../expression/expr.js';
import type { CompiledModel } from '../codegen/compile.js';
import type { Stepper } from '../integrators/stepper.js';
import { relationText } from './switching.js';
import type { Workspace } from './workspace.js';
import { ulpOf } from './ulp.js';
import { minOf } from '../expression/extremes.js';

/** halvings of a step's chord that a jump of the right-hand side must survive (2^-30 of the step) */
const JUMP_BISECTIONS = 30;

export class Diagnosis {
  private readonly dydtProbe: Float64Array;
  /** f at the start of the last step, and along its chord (the jump test) */
  private readonly fStart: Float64Array;
  private readonly fChord: Float64Array;
  /** the state moved by a few ulps (roundingOf) */
  private readonly yNoise: Float64Array;
  /** the run's tolerances: a jump of the right-hand side matters if it moves the state by a tenth of them */
  private rtol = 1e-6;
  private atol = 1e-9;

  constructor(private readonly ws: Workspace) {
    this.dydtProbe = new Float64Array(ws.y.length);
    this.fStart = new Float64Array(ws.y.length);
    this.fChord = new Float64Array(ws.y.length);
    this.yNoise = new Float64Array(ws.y.length);
  }

  /** The tolerances of the run (see abruptEquation). */
  setTolerances(rtol: number, atol: number): void {
    this.rtol = rtol;
    this.atol = atol;
    this.timeResolutionNamed = false;
  }

  /**
   * Why a run has hit its step limit: a right-hand side that is not finite just ahead (which
   * variable, which expression), a jump not written with if/step/sign (chatter), stiffness
   * under an explicit method, a step size that kept falling (`collapsing`, the evidence the
   * step guard gathered), or just a range too long for maxSteps at the pace of the run so far.
   * The stepper may take a few more steps to tell (the run is failing; where it is reported
   * does not change).
   */
  stepsCause(stepper: Stepper, t0: number, t: number, tEnd: number, steps: number, collapsing: boolean): string {
    const ws = this.ws;
    // the pace: the last step, or the mean step of the run if that is longer (the last step
    // may be one cut short by an event, or none at all just after an instant)
    const h = Math.max(Math.abs(stepper.hLast), steps > 0 ? Math.abs(t - t0) / steps : 0);
    const remaining = Math.abs(tEnd - t);
    // A method with its own stiffness test (dopri5, dop853: Hairer's, over many steps at the
    // border of its stability region) is believed when it says "not stiff": the one-step ratio
    // exceeds 1 on the long accurate steps of a slow problem (x'' = -0.01 x with steps of 13:
    // 1.35), whose steps no stability holds; the limit is too low for the range.
    const ownTest = (stepper as Stepper & { looksStiff?: boolean }).looksStiff !== undefined;
    let cause = this.quickCause(stepper, !ownTest);
    // A jump inside the step shows in some step of a chattering run, not every one. (These
    // steps only tell why: the run's counters do not count them.)
    const endLocal = ws.origin.local(tEnd);
    const st = stepper.stats,
      counted = [st.steps, st.rejected, st.rhsEvaluations];
    for (let i = 0; i < 32 && !cause && stepper.t !== endLocal; i++) {
      if (stepper.step(endLocal) !== 'accepted') break;
      cause = this.quickCause(stepper, !ownTest);
    }
    [st.steps, st.rejected, st.rhsEvaluations] = counted;
    if (cause) return cause;
    if (collapsing)
      return 'the step size collapsed: the solution changes too fast here (a singularity, or an extremely stiff problem)';
    if (!(h > 0)) return 'raise maxSteps (--max-steps) or shorten the range';
    return `at this step size the rest of the range (${remaining}) needs about ${Math.max(1, Math.round(remaining / h))} more steps; raise maxSteps (--max-steps) or shorten the range`;
  }

  /**
   * A definite reason, from the last step alone (nothing is stepped), why steps are short:
   * a right-hand side not finite just ahead, a jump inside the step, stiffness; or null
   * (a transient, perhaps, that the run may yet leave behind). `ratioStiffness` false: only
   * the method's own stiffness test names stiffness, not the one-step ratio.
   */
  quickCause(stepper: Stepper, ratioStiffness = true): string | null {
    const nonFinite = this.probeNonFinite(stepper);
    if (nonFinite) return nonFiniteMessage(nonFinite);
    // dopri5's own test (Hairer's, over the last steps) outranks the one-step estimate: a stiff
    // component held at the stability border zigzags, which the jump test would take for a switch
    const own = stepper as Stepper & { looksStiff?: boolean; hLambda?: number };
    const stiffness = own.looksStiff ? Math.max(own.hLambda ?? 0, 1.01) : this.stiffnessRatio(stepper);
    const abrupt = own.looksStiff ? null : this.abruptEquation(stepper, stiffness);
    if (abrupt) return jumpMessage(abrupt);
    // (an implicit method is not held by stability)
    if (stiffness > 1 && !implicit(stepper) && (own.looksStiff || ratioStiffness))
      return this.stiffMessage(stepper, stiffness);
    return null;
  }

  /**
   * Whether the right-hand side the stepper sees is a staircase in t: a double resolves t only
   * to one ulp (1.2e-4 at t = 1e12), so an f(t, y) that reads t (cos(t - 1e12)) stands still
   * between those values and jumps at each. Where the last step (ending at the absolute time
   * tAbs) is shorter than that ulp, and the jump of f from tAbs to the next double of t moves
   * some state by its tolerance, the solution cannot be had to the tolerances, and what the
   * run meets (a jump "not written", a contact, a crossing lost in noise, the step limit) is
   * that staircase: the message that says so, or null (always null for a model that does not
   * read t: f is the same at both times). A jump moves a state by Δf over the time it acts:
   * the step, the ulp, or, for a stiff component, its relaxation time 1/|∂f_i/∂y_i|, whichever
   * is shortest (x1' = −1e6 (x1 − cos(t − 1e12)) at its start: 7.5e-3 over 1e-6). `share`:
   * the part of the tolerance that counts; a run failing anyway names the staircase as its
   * cause from a hundredth (a crossing of x1 - 0.9 on that staircase at rtol 1e-3 was "not
   * resolved", the function moving 5e-5 at once within a step, "its terms cancel").
   */
  timeResolutionCause(stepper: Stepper, tAbs: number, y: Float64Array = stepper.y, share = 1): string | null {
    const ws = this.ws,
      m = ws.model,
      n = m.nStates;
    const h = Math.abs(stepper.hLast),
      u = ulpOf(tAbs);
    if (!(h > 0 && h < u) || n === 0) return null;
    const a = this.fStart,
      b = this.fChord;
    m.rhs(tAbs, y, ws.p, ws.d, ws.sw, a);
    m.rhs(tAbs + u, y, ws.p, ws.d, ws.sw, b);
    for (let i = 0; i < n; i++) {
      const sc = share * (this.atol + this.rtol * Math.abs(y[i]));
      const jump = Math.abs(b[i] - a[i]);
      if (!(jump * h > sc)) continue;
      if (!(jump * Math.min(h, this.relaxationTime(tAbs, y, i, a[i], sc)) > sc)) continue;
      this.timeResolutionNamed = true;
      const sys = m.system,
        t = sys.independent;
      const eq = sys.equations.find((q) => q.state === sys.states[i].name);
      const staircase = `the right-hand side of ${sys.states[i].standsFor}'${eq ? ` = ${toText(eq.rhs)}` : ''} reads ${t}, which double precision resolves at ${t} = ${tAbs} only to ${u.toPrecision(3)} (one ulp), coarser than the steps this solution needs (${h.toPrecision(2)}): between those values of ${t} the right-hand side stands still and at each it jumps, by more than the tolerances allow`;
      // (counting t from the start gives it digits only where the time since the start is far
      // below t itself; where the range starts near 0 the steps shrank for another reason, and
      // x' = 1/(c - t) near t = c was advised to count t from a start that was already 0)
      if (4 * ulpOf(tAbs - this.rangeStart) <= u)
        return `${staircase}; count ${t} from the start of the range (write the model with ${t} from 0, and ${t} - T0 as ${t}), so that ${t} keeps its digits`;
      return `${staircase}; counting ${t} from the start of the range (${this.rangeStart}) would give it no more digits there: the steps shrink toward ${t} = ${tAbs}, where ${sys.states[i].standsFor}' is ${a[i].toPrecision(3)}, as they do at a singularity of the solution, which no step passes; end the range before it, or look at the model there`;
    }
    return null;
  }

  /** where the run's range starts (timeResolutionCause: whether counting t from there would help) */
  rangeStart = 0;

  /** whether timeResolutionCause has named the run's failure (set until the next run) */
  timeResolutionNamed = false;

  /** 1/|∂f_i/∂y_i| at (t, y) by a difference (f_i(t, y) = fi), or Infinity */
  private relaxationTime(t: number, y: Float64Array, i: number, fi: number, sc: number): number {
    const ws = this.ws,
      yi = y[i];
    const dy = Math.max(Math.sqrt(Number.EPSILON) * Math.abs(yi), sc);
    ws.yTmp.set(y);
    ws.yTmp[i] = yi + dy;
    ws.model.rhs(t, ws.yTmp, ws.p, ws.d, ws.sw, this.dydtProbe);
    const rate = Math.abs(this.dydtProbe[i] - fi) / dy;
    return rate > 0 ? 1 / rate : Infinity;
  }

  /** The message of a right-hand side not finite just ahead of the stepper, or null. */
  nonFiniteCause(stepper: Stepper): string | null {
    const nonFinite = this.probeNonFinite(stepper);
    return nonFinite ? nonFiniteMessage(nonFinite) : null;
  }

  /** The message of a jump of the right-hand side inside the last step, or null (see abruptEquation). */
  jumpCause(stepper: Stepper): string | null {
    const own = stepper as Stepper & { looksStiff?: boolean };
    if (own.looksStiff) return null;
    const abrupt = this.abruptEquation(stepper, this.stiffnessRatio(stepper));
    return abrupt ? jumpMessage(abrupt) : null;
  }

  /** Stiffness under an explicit method (dopri5's own test), or null. */
  stiffCause(stepper: Stepper): string | null {
    const own = stepper as Stepper & { looksStiff?: boolean; hLambda?: number };
    return own.looksStiff ? this.stiffMessage(stepper, Math.max(own.hLambda ?? 0, 1.01)) : null;
  }

  private stiffMessage(stepper: Stepper, stiffness: number): string {
    return `the problem looks stiff (step size times the largest rate of change of the right-hand side: ${stiffness.toPrecision(3)}), so the explicit method ${stepper.method} is held to tiny steps by stability, not accuracy: run it with --method rodas (implicit, with the exact Jacobian) or --method auto (the default: it switches to rodas where the problem is stiff)`;
  }

  /** The name of the derivative whose right-hand side is not finite just ahead of the stepper, or null. */
  private probeNonFinite(stepper: Stepper): string | null {
    const ws = this.ws,
      m = ws.model;
    for (let i = 0; i < m.nStates; i++) if (!Number.isFinite(stepper.dydt[i])) return this.rhsName(i, stepper.dydt[i]);
    const h = stepper.hLast !== 0 ? stepper.hLast : 1e-8;
    for (let f = 1; f <= 1e12; f *= 10) {
      for (let i = 0; i < m.nStates; i++) ws.yTmp[i] = stepper.y[i] + f * h * stepper.dydt[i];
      m.rhs(ws.origin.abs(stepper.t + f * h), ws.yTmp, ws.p, ws.d, ws.sw, this.dydtProbe);
      for (let i = 0; i < m.nStates; i++)
        if (!Number.isFinite(this.dydtProbe[i]))
          return `${this.rhsName(i, this.dydtProbe[i])} just after ${m.system.independent} = ${ws.origin.abs(stepper.t)}`;
    }
    return null;
  }

  private rhsName(i: number, value: number): string {
    const sys = this.ws.model.system;
    const eq = sys.equations.find((q) => q.state === sys.states[i].name);
    return `the right-hand side of ${sys.states[i].standsFor}'${eq ? ` (${toText(eq.rhs)})` : ''} is ${value}`;
  }

  /**
   * h·|λ| from the last step (Hairer's estimate of the dominant eigenvalue: the change of f
   * over the change of y, both at the step's end so that f's own dependence on t does not
   * count: y' = cos(t) in steps of 3 is not stiff); above about 1 an explicit method is
   * limited by stability.
   */
  private stiffnessRatio(stepper: Stepper): number {
    const ws = this.ws,
      m = ws.model;
    if (stepper.hLast === 0 || m.nStates === 0) return 0;
    m.rhs(ws.origin.abs(stepper.t), stepper.yPrev, ws.p, ws.d, ws.sw, this.dydtProbe);
    let df = 0,
      dy = 0;
    for (let i = 0; i < m.nStates; i++) {
      df += (stepper.dydt[i] - this.dydtProbe[i]) ** 2;
      dy += (stepper.y[i] - stepper.yPrev[i]) ** 2;
    }
    return dy > 0 ? (Math.abs(stepper.hLast) * Math.sqrt(df)) / Math.sqrt(dy) : 0;
  }

  /** f at the point s ∈ [0, 1] of the last step's chord (t and y linear between its ends) into fChord. */
  private rhsOnChord(stepper: Stepper, s: number): void {
    const ws = this.ws,
      m = ws.model,
      y = ws.yTmp;
    for (let i = 0; i < m.nStates; i++) y[i] = stepper.yPrev[i] + s * (stepper.y[i] - stepper.yPrev[i]);
    m.rhs(ws.origin.abs(stepper.tPrev + s * (stepper.t - stepper.tPrev)), y, ws.p, ws.d, ws.sw, this.fChord);
  }

  /**
   * The equation whose right-hand side jumps inside the last step, or null.
   *
   * Candidates: at the midpoint of the step's chord a smooth right-hand side is close to the
   * mean of its end values, one with a jump inside equals one of them, half the jump away; or
   * the mean slope over the step lies far outside the slopes at its ends (the stages of an
   * explicit method saw a different right-hand side inside: x' = 0.5 - atan2(x, 0) chattering
   * about x = 0; an implicit method's step is no mean of slopes, so it has no such test).
   *
   * A candidate counts only if the jump, over the step, moves the state by a tenth of its
   * tolerance (the rounding of a right-hand side whose terms nearly cancel does not), and a
   * midpoint candidate only if the jump survives bisection of the chord down to 2^-30 of the
   * step: a smooth right-hand side, however stiff, changes less and less on shorter pieces
   * (Robertson's y2' off its slow manifold at the chord's midpoint is far from the mean of its
   * ends, yet smooth), a jump does not.
   */
  private abruptEquation(stepper: Stepper, stiffnessRatio: number): string | null {
    const m = this.ws.model,
      ws = this.ws,
      sys = m.system,
      n = m.nStates;
    if (stepper.hLast === 0 || n === 0) return null;
    const f0 = this.fStart,
      fm = this.fChord;
    m.rhs(ws.origin.abs(stepper.tPrev), stepper.yPrev, ws.p, ws.d, ws.sw, f0);
    this.rhsOnChord(stepper, 0.5);
    const h = stepper.t - stepper.tPrev,
      absH = Math.abs(h);
    let found = -1,
      worst = 0.25,
      inside = -1,
      tries = 4; // bisections at most (each costs 30 evaluations of f)
    for (let i = 0; i < n; i++) {
      const a = f0[i],
        b = stepper.dydt[i];
      const sc = this.atol + this.rtol * Math.max(Math.abs(stepper.y[i]), Math.abs(stepper.yPrev[i]));
      const jump = Math.abs(b - a);
      const off = Math.abs(fm[i] - 0.5 * (a + b));
      // (a stiff component moves by a jump of its f only over its relaxation time: the rounding
      // of x3' = -14850*x1 + 14850*x2 - 14950*x3, 1e-12, over the step of 1.8e-3 would be a
      // tenth of atol 1e-14, yet x3 relaxes in 6.7e-5 and moves by 7e-17)
      if (
        jump * absH > 0.1 * sc &&
        off / jump > worst &&
        tries > 0 &&
        jump * Math.min(absH, this.relaxationTime(ws.origin.abs(stepper.t), stepper.y, i, b, 0.1 * sc)) > 0.1 * sc
      ) {
        tries--;
        if (this.survivesBisection(stepper, i, a, b)) {
          worst = off / jump;
          found = i;
        }
        this.rhsOnChord(stepper, 0.5); // (the bisection used fChord)
      }
      // The mean slope over the step far outside the slopes at its ends.
      const slope = (stepper.y[i] - stepper.yPrev[i]) / h;
      const outside = Math.max(Math.min(a, b) - slope, slope - Math.max(a, b));
      // (not a component stiff on its own, whose relaxation time is shorter than the step: it
      // zigzags at an explicit method's stability border, x3 of a 3x3 block near zero whose
      // change is too small to show in the whole state's estimate of h·|λ|)
      if (
        outside > 0.25 * (Math.abs(a) + Math.abs(b)) &&
        outside * absH > 0.1 * sc &&
        inside < 0 &&
        this.relaxationTime(ws.origin.abs(stepper.t), stepper.y, i, b, 0.1 * sc) > absH &&
        !this.smoothMean(stepper, i, slope, outside)
      )
        inside = i;
    }
    // (inside the step only: a stiff component seen by an explicit method looks the same)
    if (found < 0 && (stiffnessRatio > 1 || inside < 0 || implicit(stepper))) return null;
    if (found < 0) found = inside;
    const eq = sys.equations.find((q) => q.state === sys.states[found].name);
    return `the right-hand side of ${sys.states[found].standsFor}'${eq ? ` = ${toText(eq.rhs)}` : ''}`;
  }

  /**
   * Whether the mean slope of component i over the last step, `outside` the slopes at its
   * ends, is what a smooth right-hand side gives: Simpson's rule with f at the midpoint of the
   * step's dense output (not of its chord) accounts for most of it. An extremum of f inside the
   * step puts the mean outside the ends' slopes (x' = u with u'' of cos(1000 t), over a quarter
   * of its period, a step dop853 takes: "jumps within the last step" of a smooth oscillation);
   * a jump or a zigzag between the stages does not fit a parabola through three values of f.
   */
  private smoothMean(stepper: Stepper, i: number, slope: number, outside: number): boolean {
    const ws = this.ws,
      m = ws.model,
      tm = stepper.tPrev + 0.5 * (stepper.t - stepper.tPrev);
    stepper.interpolate(tm, ws.yTmp);
    m.rhs(ws.origin.abs(tm), ws.yTmp, ws.p, ws.d, ws.sw, this.dydtProbe);
    const simpson = (this.fStart[i] + 4 * this.dydtProbe[i] + stepper.dydt[i]) / 6;
    return Math.abs(slope - simpson) <= 0.25 * outside;
  }

  /**
   * Whether component i of f, a at the start of the step's chord and b at its end, keeps a
   * quarter of its change b - a on a piece 2^-30 of the chord long (the piece where it changes
   * most, found by halving): a jump does, a smooth function does not.
   */
  private survivesBisection(stepper: Stepper, i: number, a: number, b: number): boolean {
    let l = 0,
      r = 1,
      fl = a,
      fr = b;
    for (let k = 0; k < JUMP_BISECTIONS; k++) {
      const mid = 0.5 * (l + r);
      this.rhsOnChord(stepper, mid);
      const fm = this.fChord[i];
      if (Math.abs(fm - fl) >= Math.abs(fr - fm)) {
        r = mid;
        fr = fm;
      } else {
        l = mid;
        fl = fm;
      }
    }
    const kept = Math.abs(fr - fl);
    // Rounding survives halving too, being there at every scale: a right-hand side that
    // cancels (L·(y - sin t) with L = 1e9 at t = 66, where one ulp of t moves sin t by 1.4e-14
    // and f by 1.4e-5) is a staircase in its arguments whose steps can outweigh f's smooth
    // change over the step (7e-6). A jump stands out of that rounding.
    return kept >= 0.25 * Math.abs(b - a) && kept > 4 * this.roundingOf(stepper, i);
  }

  /**
   * How far f_i moves when t and every state move by two ulps (all up, and alternately up and
   * down), at both ends of the last step: the rounding f_i reads in its arguments.
   */
  private roundingOf(stepper: Stepper, i: number): number {
    const ws = this.ws,
      m = ws.model,
      n = m.nStates,
      y = this.yNoise,
      f = this.fChord;
    let worst = 0;
    for (const end of [0, 1]) {
      const y0 = end === 0 ? stepper.yPrev : stepper.y;
      const t = ws.origin.abs(end === 0 ? stepper.tPrev : stepper.t);
      m.rhs(t, y0, ws.p, ws.d, ws.sw, this.dydtProbe);
      for (const alternate of [false, true]) {
        for (let j = 0; j < n; j++) y[j] = y0[j] + (alternate && j % 2 === 1 ? -2 : 2) * ulpOf(y0[j]);
        m.rhs(t + 2 * ulpOf(t), y, ws.p, ws.d, ws.sw, f);
        // (a value not finite there, sqrt(y) moved below 0, says nothing of the rounding)
        const moved = Math.abs(f[i] - this.dydtProbe[i]);
        if (moved > worst && moved < Infinity) worst = moved;
      }
    }
    return worst;
  }

  /**
   * The message for a crossing located within its function's rounding (band) of the end of
   * the range tEnd, by a function that never went further from zero than `peak` (crossings-at-end.ts).
   */
  endPrecisionMessage(k: number, at: number, tEnd: number, band: number, peak: number): string {
    const { ev, cond } = this.watchedCondition(k);
    return `precision ran out at ${this.ws.model.system.independent} = ${at}: the function of event ${ev?.name ?? '?'} (${cond}) crosses zero within its own rounding (${band.toPrecision(2)}) of the end of the range (${tEnd}), and it was never further from zero than ${peak.toPrecision(2)} over the range, so whether it crosses before the end cannot be resolved in double precision; write the model so that this quantity is computed without cancellation (a threshold as a state's own offset)`;
  }

  /** The message for an event function found within its own rounding of zero after an instant. */
  precisionMessage(k: number, at: number, fired: readonly number[]): string {
    const m = this.ws.model,
      w = m.watchInfo[k],
      ws = this.ws;
    const ev = w.kind === 'event' ? m.events[w.event] : null;
    const g = ws.gPrev[k];
    const cond = ev
      ? m.system.events[ev.index].condition
        ? toText(m.system.events[ev.index].condition!)
        : ev.name
      : 'a watched function';
    const head = `precision ran out at ${m.system.independent} = ${at}: after ${fired.map((e) => m.events[e].name).join(', ')}, the function of event ${ev?.name ?? '?'} (${cond}) is ${g}, within its own rounding (${ws.gBound[k].toPrecision(2)}) of zero and heading across, so whether and when it fires cannot be resolved in double precision`;
    // A scheduled instant met by a crossing within the rounding of the motion: no cancellation
    // to remove; what decides is that the two events read what the other writes.
    const scheduled = fired.filter((e) => m.events[e].watchIndex < 0).map((e) => m.events[e].name);
    if (scheduled.length > 0)
      return `${head}, and it reads or writes what ${scheduled.join(', ')} writes or reads, so their order decides the result; let the two events act on variables the other does not read, or schedule this one too (an \`at\` time) if its instant is known`;
    return `${head}; write the model so that this quantity is computed without cancellation (for bodies in a row: the gaps between them as states, in relative coordinates)`;
  }

  /**
   * Why a run cannot go on where watched function k (a state event's, a delta's argument, a
   * relation's) is not a number at `at`: a crossing where it is undefined cannot be seen (sqrt(x) - 0.5 from x
   * = -1 lost its crossing at x = 0.25 inside a step that began where it was NaN, status ok).
   */
  undefinedMessage(k: number, at: number): string {
    const m = this.ws.model,
      w = m.watchInfo[k];
    const advice = `write it so that it is defined all along the run, as sqrt(max(x, 0)) for sqrt(x), or start the run where it is defined`;
    if (w.kind === 'switch') {
      return `the condition ${relationText(m, w.index)} compares a quantity that is not a number at ${m.system.independent} = ${at} (a root or log of a negative number, or 0/0, with the state there), so it is neither true nor false there, and where it changes cannot be seen: ${advice}`;
    }
    const ev = w.kind === 'event' ? m.events[w.event] : null;
    const condition = ev ? m.system.events[ev.index].condition : undefined;
    const what = ev?.fromDelta ? `the argument of ${ev.name}` : `the function of event ${ev?.name ?? '?'}`;
    const text = condition && !ev?.fromDelta ? ` (${toText(condition)})` : '';
    return `${what}${text} is not a number at ${m.system.independent} = ${at} (a root or log of a negative number, or 0/0, with the state there), so whether it crosses zero cannot be seen: ${advice}`;
  }

  /**
   * Names the derivative that is not finite. The failing stage lies somewhere in the step
   * after t, so probe ahead along the last derivative (an Euler extrapolation) at growing
   * distances until a component of the right-hand side is NaN or infinite. t and tLimit
   * are the stepper's (counted from the time origin).
   */
  describeNonFinite(st: Stepper, t: number, tLimit: number): string {
    const ws = this.ws,
      m = ws.model;
    const probe = (s: number): string | null => {
      for (let i = 0; i < m.nStates; i++) ws.yTmp[i] = st.y[i] + (s - t) * st.dydt[i];
      m.rhs(ws.origin.abs(s), ws.yTmp, ws.p, ws.d, ws.sw, this.dydtProbe);
      for (let i = 0; i < m.nStates; i++)
        if (!Number.isFinite(this.dydtProbe[i])) return this.rhsName(i, this.dydtProbe[i]);
      return null;
    };
    const found = probe(t);
    if (found) return found;
    const span = tLimit - t;
    for (let f = 1e-15; f <= 1; f *= 2) {
      const hit = probe(t + f * span);
      if (hit) return `${hit} just after ${m.system.independent} = ${ws.origin.abs(t)}`;
    }
    // (the doubling stops short of the step's end, where a last stage may be: y' = log(x) with x
    // reaching 0 exactly at the end of the range was called an overflow of the state)
    const atEnd = probe(tLimit);
    if (atEnd) return `${atEnd} at the end of the step (${m.system.independent} = ${ws.origin.abs(tLimit)})`;
    return 'the state overflowed within the step, although the right-hand side is finite along it (values beyond the range of double precision, about 1.8e308): rescale the model or its parameters';
  }

  /**
   * Why the state (y, d) at t cannot be a result: a variable, or a right-hand side there, that
   * is not finite (the analytic path's closed forms overflow silently: y' = 1/T with T =
   * 1e-320 gives y = Infinity); null when all are finite.
   */
  nonFiniteAt(t: number, y: Float64Array, d: Float64Array): string | null {
    const ws = this.ws,
      m = ws.model,
      sys = m.system;
    // (the time as text only for a message: every run asks this twice)
    const at = () => `${sys.independent} = ${t}`;
    const beyond =
      'the solution has left the range of double precision (a parameter too large or too small, or a blow-up); check the model and its parameters';
    for (let i = 0; i < m.nStates; i++)
      if (!Number.isFinite(y[i])) return `${sys.states[i].standsFor} is ${y[i]} at ${at()}: ${beyond}`;
    for (let i = 0; i < m.discreteNames.length; i++)
      if (!Number.isFinite(d[i])) return `${m.discreteNames[i]} is ${d[i]} at ${at()}: ${beyond}`;
    m.rhs(t, y, ws.p, d, ws.sw, this.dydtProbe);
    for (let i = 0; i < m.nStates; i++)
      if (!Number.isFinite(this.dydtProbe[i]))
        return nonFiniteMessage(`${this.rhsName(i, this.dydtProbe[i])} at ${at()}`);
    return null;
  }

  /**
   * The warning for states that stayed below atol over the whole run and took both signs
   * (states, ascending; hi, lo: each one's largest and smallest value while below atol), and
   * for a failed run the state `escaped` (or −1) that left ±atol with the sign it took inside
   * (to the value `at`): their error was held to ±atol, not to rtol of their size, so their
   * sign may be the error's; and the atol that would control them.
   */
  uncontrolledMessage(
    states: readonly number[],
    hi: Float64Array,
    lo: Float64Array,
    rtol: number,
    atol: number,
    escaped = -1,
    at = 0,
    since?: Float64Array,
  ): string {
    const sys = this.ws.model.system;
    const name = (i: number) => sys.states[i].standsFor;
    const range = (i: number) => `from ${lo[i].toPrecision(2)} to ${hi[i].toPrecision(2)}`;
    // (a state read again once back below atol: since when)
    const from = (i: number) =>
      since !== undefined && since[i] === since[i] ? `, below it from ${sys.independent} = ${since[i]} on` : '';
    const whole = states.every((i) => from(i) === '');
    const SHOWN = 4;
    const parts: string[] = [];
    if (escaped >= 0)
      parts.push(
        `${name(escaped)} (${range(escaped)}) changed sign while below atol (${atol}) and then grew past it (to ${at.toPrecision(2)}) before the run failed`,
      );
    if (states.length > 0) {
      const more = states.length > SHOWN ? ` and ${states.length - SHOWN} more states` : '';
      parts.push(
        `${states
          .slice(0, SHOWN)
          .map((i) => `${name(i)} (${range(i)}${from(i)})`)
          .join(
            ', ',
          )}${more} stayed below atol (${atol}) ${whole ? 'over the whole run' : 'to the end of the run'} and changed sign`,
      );
    }
    const one = states.length + (escaped >= 0 ? 1 : 0) === 1;
    // the atol that holds the smallest of them to rtol of its size
    const sizes = [...states, ...(escaped >= 0 ? [escaped] : [])].map((i) => Math.max(hi[i], -lo[i]));
    const suggest = (rtol > 0 ? rtol : 1e-6) * minOf(sizes);
    return `${parts.join('; ')}: ${one ? 'its' : 'their'} error was held to ±atol, not to rtol of ${one ? 'its' : 'their'} size, so ${one ? 'its' : 'their'} sign may be the error's, and the solution may have followed it elsewhere (a concentration below zero); to control ${one ? 'it' : 'them'}, give a smaller atol (--atol), about ${suggest.toPrecision(1)} or below`;
  }

  /**
   * The message for a delta whose argument touches zero, or crosses it with zero rate (a
   * multiple root), near `at`; with `slow`, one that crosses so slowly that its weight is
   * known only to `slow.uncertainty` of itself, beyond the run's rtol (the analytic path
   * knows that figure: slow-delta.ts), unless that is the weight's own size or more.
   */
  touchMessage(k: number, at: number, slow?: { uncertainty: number; rtol: number }): string {
    const m = this.ws.model,
      w = m.watchInfo[k];
    const ev = w.kind === 'event' ? m.events[w.event] : null;
    const arg = ev && m.system.events[ev.index].condition ? toText(m.system.events[ev.index].condition!) : '?';
    const weight = `1/|d/d${m.system.independent} (${arg})|`;
    if (slow && slow.uncertainty < 1)
      return `the argument of ${ev?.name ?? 'a delta'} crosses zero near ${m.system.independent} = ${at} so slowly that the rounding of where it crosses leaves the delta's weight ${weight} known only to ${slow.uncertainty.toExponential(1)} of itself, more than rtol = ${slow.rtol.toExponential()} (or two roots lie closer than the arithmetic can tell apart): loosen rtol to accept that, or write the impulse where the argument crosses zero with a clearer rate`;
    return `the argument of ${ev?.name ?? 'a delta'} touches zero near ${m.system.independent} = ${at} without crossing it, as far as the run's tolerances can tell (a root of even multiplicity), or crosses it with zero rate (of odd multiplicity 3 or more) or so slowly that the run cannot tell the crossing from a touch (two roots closer than its tolerances or the arithmetic can tell apart): the delta has no weight there, since ${weight} is infinite or not determined; write the impulse where the argument crosses zero with a clear rate, or tighten rtol and atol if it does cross`;
  }

  /**
   * Why the state after the actions of `fired` at t cannot be a result: the first variable an
   * action left not finite (a jump sqrt(x - 2)*delta(t - 1) at x = 1 is NaN), named as the
   * user wrote it, with the events of the instant; null when all are finite. (Found at the end
   * of the run, "S1 is NaN at t = 3" named neither the jump nor its time.)
   */
  nonFiniteAfter(t: number, fired: readonly number[]): string | null {
    const ws = this.ws,
      m = ws.model,
      sys = m.system;
    const names = [...new Set(fired)].map((e) => `${m.events[e].name} (${m.events[e].source})`);
    const events = `${names.length === 1 ? 'event' : 'events'} ${names.join(', ')}`;
    const at = `${sys.independent} = ${t}`;
    const advice =
      'check the expression for the values at that instant (a root or log of a negative number, a division by zero)';
    for (let i = 0; i < m.nStates; i++)
      if (!Number.isFinite(ws.y[i]))
        return `the actions at ${at} leave ${sys.states[i].standsFor} = ${ws.y[i]}: ${events}; ${advice}`;
    for (let i = 0; i < m.discreteNames.length; i++)
      if (!Number.isFinite(ws.d[i]))
        return `the actions at ${at} leave ${this.discreteName(i)} = ${ws.d[i]}: ${events}; ${advice}`;
    return null;
  }

  /** Discrete slot i as the user wrote it: a step variable is the jumps of its variable. */
  private discreteName(i: number): string {
    const m = this.ws.model,
      steps = m.system.stepVariables;
    return i < steps.length ? `the jumps of ${steps[i].variable}` : m.discreteNames[i];
  }

  /**
   * The message for a crossing of watched function k found in a step [a, b] inside which the
   * function never left its tolerance band (crossing-noise.ts): a stiff step, or a
   * grazing approach (`stiff` false: the function dipped across and back).
   */
  toleranceMessage(
    k: number,
    a: number,
    b: number,
    band: number,
    reach: number,
    stiff: boolean,
    still = false,
    absolute = 0,
    wanderedFrom = NaN,
    returned: 'within' | 'after' | null = null,
    crept = false,
  ): string {
    const m = this.ws.model,
      t = m.system.independent;
    const { ev, cond } = this.watchedCondition(k);
    const rtol = this.rtol;
    // (within its band at every point of the step: no tolerance tells an exact zero from a
    // crossing within its noise, x - 0.5*t with x' = 0.5 after x := 0)
    if (still)
      return `crossing not resolved: event ${ev?.name ?? '?'}'s function (${cond}) stayed within ±${band.toPrecision(2)} of zero, what rtol ${rtol} allows its cancelling terms, over the whole step from ${t} = ${a} to ${b}, and touched or crossed zero inside: it may be zero along the motion, which never crosses, or cross within that noise, and a numerical method cannot tell which. Where the model's segments have closed forms, --method auto decides it exactly; otherwise write the condition so that its function is not zero along the motion`;
    // (the band shrinks with rtol: a tenth of what the function reached over the step)
    const needed = Math.max(1e-14, (0.1 * rtol * Math.max(reach, Number.MIN_VALUE)) / band);
    // (crept across within its band, too slowly for the step to show a motion: a zero the
    // motion approaches, crossing-noise.ts, creptWithin)
    if (crept)
      return `crossing not resolved at these tolerances: event ${ev?.name ?? '?'}'s function (${cond}) is known only to ±${band.toPrecision(2)} at rtol ${rtol} (its terms, some 1/rtol times that, cancel), and over the step from ${t} = ${a} to ${b}, in which it crossed zero, it stayed within that band, moving too slowly to cross it in the step: a function that tends to zero (a threshold at an equilibrium the motion approaches) is carried across by the states' errors alone, and such a crossing cannot be told from one. Where the model's segments have closed forms, --method auto decides it exactly; otherwise tighten rtol and atol, or move the threshold off the equilibrium`;
    if (!stiff)
      return `crossing not resolved at these tolerances: event ${ev?.name ?? '?'}'s function (${cond}) is known only to ±${band.toPrecision(2)} at rtol ${rtol}, and over the step from ${t} = ${a} to ${b} it went no more than ${Math.max(0, reach).toPrecision(2)} across zero and back: whether it crosses (a grazing approach) cannot be told from the errors the tolerances allow. Tighten rtol (to ${needed.toPrecision(1)} or below) and atol`;
    // (a crossing within atol through the function, after one within it that the function
    // has not left since: crossing-noise.ts, judge. A tighter rtol does nothing for it)
    // (a crossing within atol refuted by the motion after it: crossing-noise.ts, follow)
    if (absolute > 0 && returned !== null)
      return `crossing not resolved at these tolerances: event ${ev?.name ?? '?'}'s function (${cond}) is known only to ±${band.toPrecision(2)} over the stiff step from ${t} = ${a} to ${b}, what atol ${this.atol} allows the states it reads (a state near zero carries an error of up to atol whatever its size), and it came back across zero to the side it crossed from at ${t} = ${wanderedFrom} without having left that band since: it wanders across zero within the states' errors, around a zero the motion approaches, and that crossing${returned === 'after' ? ` (its event fired at ${t} = ${wanderedFrom})` : ''} cannot be told from that noise. Lower atol well below the values those states have where the function crosses zero`;
    if (absolute > 0)
      return `crossing not resolved at these tolerances: event ${ev?.name ?? '?'}'s function (${cond}) is known only to ±${band.toPrecision(2)} over the stiff step from ${t} = ${a} to ${b}, what atol ${this.atol} allows the states it reads (a state near zero carries an error of up to atol whatever its size), and it crossed zero there again without having left that band since it crossed at ${t} = ${wanderedFrom}: it wanders across zero within the states' errors, and neither crossing can be told from that noise. Lower atol well below the values those states have where the function crosses zero`;
    return `crossing not resolved at these tolerances: event ${ev?.name ?? '?'}'s function (${cond}) is known only to ±${band.toPrecision(2)} at rtol ${rtol} (its terms, some 1/rtol times that, cancel), and over the stiff step from ${t} = ${a} to ${b}, in which it seemed to cross zero, it showed no more than ${Math.max(0, reach).toPrecision(2)} on either side of zero: the crossing cannot be told from the noise of the states' errors. Tighten rtol (to ${needed.toPrecision(1)} or below) and atol, or write the function without the cancellation (on a state, rather than on the derivative of a stiff one)`;
  }

  /** The event of watched function k (if it is an event's) and its condition as text. */
  private watchedCondition(k: number): { ev: CompiledModel['events'][number] | null; cond: string } {
    const m = this.ws.model,
      w = m.watchInfo[k];
    const ev = w.kind === 'event' ? m.events[w.event] : null;
    const cond =
      ev && m.system.events[ev.index].condition ? toText(m.system.events[ev.index].condition!) : 'its function';
    return { ev, cond };
  }

  /**
   * The message for a state event function held at zero with zero rate and pushed across;
   * `since` > 0: found at zero again that long after its event fired, within the tie of t
   * (whatever its rate: a reset 2 ulps of t before its threshold, x' = 1, is no zero rate).
   */
  contactMessage(k: number, at: number, fromStart = false, since = 0): string {
    const m = this.ws.model;
    const { ev, cond } = this.watchedCondition(k);
    if (fromStart)
      return `persisting contact at the start, ${m.system.independent} = ${at}: the function of event ${ev?.name ?? '?'}, ${cond}, starts at zero with zero rate and the motion pushes it across (a ball at rest on the floor, bodies in contact pushed together), so the event never fires and the motion passes through; deltastep does not step through it, and holds as a constraint (option zeno = continue) only a contact that the event's own impact made. Start the motion off the contact (dropped from a small height, the body comes to rest and is held with zeno = continue), or model the contact phase explicitly (a discrete mode with the joint motion)`;
    const t = m.system.independent;
    if (since > 0)
      return `persisting contact at ${t} = ${at}: after event ${ev?.name ?? '?'}, ${cond} is at zero again ${since} later, within the tie of ${t} (the 4 ulps of ${t} that make one instant), and heads across: no flight in between that ${t} resolves (bodies that should move together, a ball at rest on the floor, or resets of a function closer together than that); deltastep does not step through it. Model the contact phase explicitly (a discrete mode with the joint motion), let the bodies separate, or count ${t} from an origin near the events`;
    return `persisting contact at ${m.system.independent} = ${at}: after event ${ev?.name ?? '?'}, ${cond} stays at zero with zero rate while the motion pushes it across (bodies that should move together, or a ball at rest on the floor); deltastep does not step through it. Model the contact phase explicitly (a discrete mode with the joint motion), or let the bodies separate`;
  }
}

function jumpMessage(equation: string): string {
  return `${equation} jumps within the last step, again and again: a discontinuity that is not written with if, step or sign (the integrator locates only switches written with those, e.g. atan2(x, 0) is pi/2*sign(x)), or a singularity of the solution`;
}

function nonFiniteMessage(what: string): string {
  return `${what}: the solution cannot be continued there (a square root or logarithm of a negative number, a division by zero); check the model near this point`;
}

/** whether the steps are taken by an implicit method (rodas, radau5, or auto while it uses one) */
function implicit(stepper: Stepper): boolean {
  const m = stepper.method === 'auto' ? stepper.stats.method : stepper.method;
  return m === 'rodas' || m === 'radau5';
}
