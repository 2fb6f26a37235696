/**
 * Why a run cannot go on, in the user's words: which variable and expression is not finite,
 * which equation jumps without a switch, whether the problem is stiff, which event function
 * the arithmetic cannot resolve, which contact persists. Used only when a run is failing.
 */
import { toText } from '../expression/expr.js';
import type { Stepper } from '../integrators/stepper.js';
import type { Workspace } from './workspace.js';

export class Diagnosis {
  private readonly dydtProbe: Float64Array;

  constructor(private readonly ws: Workspace) {
    this.dydtProbe = new Float64Array(ws.y.length);
  }

  /**
   * Why a run has hit its step limit or cannot finish at its step size: a right-hand side
   * that is not finite just ahead (which variable, which expression), a jump not written with
   * if/step/sign (chatter), stiffness under an explicit method, a collapse, or just a range
   * too long for maxSteps. The stepper may take a few more steps to tell (the run is failing;
   * where it is reported does not change).
   */
  stepsCause(stepper: Stepper, t0: number, t: number, tEnd: number): string {
    const ws = this.ws;
    const h = Math.abs(stepper.hLast),
      span = Math.abs(tEnd - t0);
    const remaining = Math.abs(tEnd - t);
    let cause = this.quickCause(stepper);
    // A jump inside the step shows in some step of a chattering run, not every one.
    const endLocal = ws.origin.local(tEnd);
    for (let i = 0; i < 32 && !cause && stepper.t !== endLocal; i++) {
      if (stepper.step(endLocal) !== 'accepted') break;
      cause = this.quickCause(stepper);
    }
    if (cause) return cause;
    if (h < 1e-12 * span)
      return 'the step size collapsed: the solution changes too fast here (a singularity, or an extremely stiff problem)';
    return `at this step size the rest of the range (${remaining}) needs about ${Math.ceil(remaining / Math.max(h, Number.MIN_VALUE))} more steps; raise maxSteps (--max-steps) or shorten the range`;
  }

  /**
   * A definite reason, from the last step alone (nothing is stepped), why steps are short:
   * a right-hand side not finite just ahead, a jump inside the step, stiffness; or null
   * (a transient, perhaps, that the run may yet leave behind).
   */
  quickCause(stepper: Stepper): string | null {
    const nonFinite = this.probeNonFinite(stepper);
    if (nonFinite)
      return `${nonFinite}: the solution cannot be continued there (a square root or logarithm of a negative number, a division by zero); check the model near this point`;
    // dopri5's own test (Hairer's, over the last steps) outranks the one-step estimate: a stiff
    // component held at the stability border zigzags, which the jump test would take for a switch
    const own = stepper as Stepper & { looksStiff?: boolean; hLambda?: number };
    const stiffness = own.looksStiff ? Math.max(own.hLambda ?? 0, 1.01) : this.stiffnessRatio(stepper);
    const abrupt = own.looksStiff ? null : this.abruptEquation(stepper, stiffness);
    if (abrupt)
      return `${abrupt} jumps within the last step, again and again: a discontinuity that is not written with if, step or sign (the integrator locates only switches written with those, e.g. atan2(x, 0) is pi/2*sign(x)), or a singularity of the solution`;
    if (stiffness > 1)
      return `the problem looks stiff (step size times the largest rate of change of the right-hand side: ${stiffness.toPrecision(3)}), so the explicit method ${stepper.method} is held to tiny steps by stability, not accuracy: run it with --method rodas (implicit, with the exact Jacobian) or --method auto (the default: it switches to rodas where the problem is stiff)`;
    return null;
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
   * over the change of y); above about 1 an explicit method is limited by stability.
   */
  private stiffnessRatio(stepper: Stepper): number {
    const ws = this.ws,
      m = ws.model;
    if (stepper.hLast === 0 || m.nStates === 0) return 0;
    m.rhs(ws.origin.abs(stepper.tPrev), stepper.yPrev, ws.p, ws.d, ws.sw, this.dydtProbe);
    let df = 0,
      dy = 0;
    for (let i = 0; i < m.nStates; i++) {
      df += (stepper.dydt[i] - this.dydtProbe[i]) ** 2;
      dy += (stepper.y[i] - stepper.yPrev[i]) ** 2;
    }
    return dy > 0 ? (Math.abs(stepper.hLast) * Math.sqrt(df)) / Math.sqrt(dy) : 0;
  }

  /**
   * The equation whose right-hand side jumps inside the last step, or null: at the midpoint
   * of the step's chord a smooth (or stiff, but smooth) right-hand side is close to the mean
   * of its end values; one with a jump inside equals one of them, half the jump away.
   */
  private abruptEquation(stepper: Stepper, stiffnessRatio: number): string | null {
    const m = this.ws.model,
      ws = this.ws,
      sys = m.system,
      n = m.nStates;
    if (stepper.hLast === 0 || n === 0) return null;
    const f0 = this.dydtProbe,
      mid = ws.yTmp;
    m.rhs(ws.origin.abs(stepper.tPrev), stepper.yPrev, ws.p, ws.d, ws.sw, f0);
    const f0copy = Float64Array.from(f0.subarray(0, n));
    for (let i = 0; i < n; i++) mid[i] = 0.5 * (stepper.yPrev[i] + stepper.y[i]);
    m.rhs(ws.origin.abs(0.5 * (stepper.tPrev + stepper.t)), mid, ws.p, ws.d, ws.sw, f0);
    let best = -1,
      worst = 0.25,
      inside = -1;
    const h = stepper.t - stepper.tPrev;
    for (let i = 0; i < n; i++) {
      const a = f0copy[i],
        b = stepper.dydt[i];
      const jump = Math.abs(b - a);
      const off = Math.abs(f0[i] - 0.5 * (a + b));
      if (jump > 0 && off / jump > worst) {
        worst = off / jump;
        best = i;
      }
      // The mean slope over the step far outside the slopes at its ends: the stages saw a
      // different right-hand side inside (x' = 0.5 - atan2(x, 0) chattering about x = 0).
      const slope = (stepper.y[i] - stepper.yPrev[i]) / h;
      const outside = Math.max(Math.min(a, b) - slope, slope - Math.max(a, b));
      if (outside > 0.25 * (Math.abs(a) + Math.abs(b)) && inside < 0) inside = i;
    }
    // (inside the step only: a stiff component seen by an explicit method looks the same)
    if (best < 0 && (stiffnessRatio > 1 || inside < 0)) return null;
    if (best < 0) best = inside;
    const eq = sys.equations.find((q) => q.state === sys.states[best].name);
    return `the right-hand side of ${sys.states[best].standsFor}'${eq ? ` = ${toText(eq.rhs)}` : ''}`;
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
    return `precision ran out at ${m.system.independent} = ${at}: after ${fired.map((e) => m.events[e].name).join(', ')}, the function of event ${ev?.name ?? '?'} (${cond}) is ${g}, within its own rounding (${ws.gBound[k].toPrecision(2)}) of zero and heading across, so whether and when it fires cannot be resolved in double precision; write the model so that this quantity is computed without cancellation (for bodies in a row: the gaps between them as states, in relative coordinates)`;
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
    return 'the right-hand side became NaN or infinite within the step';
  }

  /** The message for a state event function held at zero with zero rate and pushed across. */
  contactMessage(k: number, at: number): string {
    const m = this.ws.model,
      w = m.watchInfo[k];
    const ev = w.kind === 'event' ? m.events[w.event] : null;
    const cond =
      ev && m.system.events[ev.index].condition ? toText(m.system.events[ev.index].condition!) : 'its function';
    return `persisting contact at ${m.system.independent} = ${at}: after event ${ev?.name ?? '?'}, ${cond} stays at zero with zero rate while the motion pushes it across (bodies that should move together, or a ball at rest on the floor); deltastep does not step through it. Model the contact phase explicitly (a discrete mode with the joint motion), or let the bodies separate`;
  }
}
