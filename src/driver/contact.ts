/**
 * A persisting contact held as a constraint (option zeno = continue, EVENTS.md 2): a state
 * event's function g stays at zero while the motion pushes it across (masses pushed
 * together, a ball at rest on the floor after its bounces accumulate).
 *
 * The contact force acts in the direction of the event's own impulse: B is what the event's
 * action changed per unit change of g's rate R, recorded when it last fired (for Newton's law
 * between two masses, the two velocities in the ratio of the inverse masses). With the
 * gradient of R and its explicit time derivative from the compiler, the force λ·B that keeps
 * R at zero is exact: λ = -(dR/dt along f) / (dR/dy · B). The contact holds while that force
 * pushes (λ·(dR/dy · B) has the sign of the side g came from) and lets go where it changes
 * sign.
 */
import type { ConstraintFunctions } from '../codegen/compile.js';
import type { Workspace } from './workspace.js';

export class HeldContact {
  /** the force's multiplier at the last right-hand side evaluated, and dR/dy · B there */
  lambda = 0;
  gB = 0;
  private readonly grad: Float64Array;
  /** the components of B that are not zero */
  private readonly bIdx: Int32Array;

  /**
   * @param k the watched function held at zero
   * @param B the impulse direction per unit change of k's rate (states; step variables mapped
   *   onto the states they are added to)
   * @param side the side of zero g came from (+1 or -1)
   */
  constructor(
    private readonly ws: Workspace,
    readonly k: number,
    readonly event: number,
    private readonly B: Float64Array,
    private readonly fns: ConstraintFunctions,
    readonly side: number,
  ) {
    this.grad = new Float64Array(fns.idx.length);
    this.bIdx = Int32Array.from(Array.from(B.keys()).filter((i) => B[i] !== 0));
  }

  /** dR/dy · v for the states R reads, with the gradient at (t, y) */
  private dot(t: number, y: Float64Array, v: Float64Array): number {
    const ws = this.ws,
      idx = this.fns.idx,
      grad = this.grad;
    this.fns.grad(t, y, ws.p, ws.d, ws.sw, grad);
    let s = 0;
    for (let j = 0; j < idx.length; j++) s += grad[j] * v[idx[j]];
    return s;
  }

  /** Adds the contact force to dydt = f(t, y) (called inside every right-hand side evaluation). */
  apply(t: number, y: Float64Array, dydt: Float64Array): void {
    const ws = this.ws,
      idx = this.fns.idx,
      grad = this.grad,
      B = this.B;
    const acceleration = this.dot(t, y, dydt) + this.fns.dt(t, y, ws.p, ws.d, ws.sw);
    let gB = 0;
    for (let j = 0; j < idx.length; j++) gB += grad[j] * B[idx[j]];
    const lambda = gB !== 0 ? -acceleration / gB : 0;
    this.lambda = lambda;
    this.gB = gB;
    for (let j = 0; j < this.bIdx.length; j++) {
      const i = this.bIdx[j];
      dydt[i] += lambda * B[i];
    }
  }

  /** Whether the force at the last evaluation still pushes (holds the contact). */
  get pushing(): boolean {
    return this.lambda * this.gB * this.side > 0;
  }

  /** Sets g's rate at (t, y) to zero along B (the plastic limit of the impacts that led here). */
  project(t: number, y: Float64Array): void {
    const ws = this.ws,
      m = ws.model;
    const rate = m.rateOne[this.k](t, y, ws.p, ws.d, ws.sw);
    const gB = this.dot(t, y, this.B);
    if (!(gB !== 0) || !(rate === rate)) return;
    const mu = -rate / gB;
    for (let j = 0; j < this.bIdx.length; j++) {
      const i = this.bIdx[j];
      y[i] += mu * this.B[i];
    }
  }
}

/**
 * The direction an event's action moved the state, per unit change of its function's rate:
 * (post - pre) / (R post - R pre), with the jumps of step variables carried onto the states
 * they are added to. Null when the action did not change the rate.
 */
export function impulseDirection(
  ws: Workspace,
  stepToState: Int32Array,
  ratePre: number,
  ratePost: number,
): Float64Array | null {
  const dR = ratePost - ratePre;
  if (!(Math.abs(dR) > 0) || !Number.isFinite(dR)) return null;
  const n = ws.model.nStates;
  const B = new Float64Array(ws.y.length);
  // (yOut and dOut: the state after the actions as firing left it, before the jumps were
  // folded into their states, step-fold.ts: near an accumulation the jumps are 1e-12 beside
  // velocities of 3, and folded they kept 4 digits: B off by 2e-4 relative, the held
  // contact's force off the impulse's ratio, momentum lost at 1e-4 over a second on rk4)
  for (let i = 0; i < n; i++) B[i] = (ws.yOut[i] - ws.yPre[i]) / dR;
  for (let j = 0; j < stepToState.length; j++) B[stepToState[j]] += (ws.dOut[j] - ws.dPre[j]) / dR;
  return B;
}
