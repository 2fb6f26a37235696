/**
 * The Jacobian of the shooting residual, dR/du, n×n row-major in a Float64Array (J[i*n + j]):
 * by central differences (2n shots), forward differences (n shots: R(u) is known) or
 * Broyden's update of the previous one along the step taken (no shot).
 *
 * Difference steps are scaled to each unknown and to the integration tolerance, so that the
 * truncation error and the integration noise in the residuals balance: noise is the relative
 * error the integration leaves in a residual, max(rtol, eps).
 */
import { inward, type Bounds } from './bounds.js';
import type { ShootingResidual } from './residual.js';

/** Shortenings of a central difference step whose shots failed (h/4 each: h/64 at the last). */
const CENTRAL_RETRIES = 3;

/** Work arrays for the difference Jacobians, allocated once per shooting problem. */
export class DifferenceJacobian {
  private readonly up: Float64Array;
  private readonly um: Float64Array;
  private readonly Rp: Float64Array;
  private readonly Rm: Float64Array;
  /** central differences: truncation ~h^2 against noise/h, balanced at h ~ noise^(1/3) */
  private readonly centralStep: number;
  /**
   * forward differences: truncation ~h against noise/h, balanced at h ~ noise^(1/2). The
   * Jacobian is then good to about sqrt(noise) (1e-5 at rtol 1e-10), which costs a Newton
   * step nothing visible: the residual still drops by that factor or more.
   */
  private readonly forwardStep: number;
  /** difference Jacobians formed */
  evaluations = 0;

  constructor(
    private readonly residual: ShootingResidual,
    rtol: number,
    /** the unknowns' bounds: no difference step leaves them */
    private readonly bounds: Bounds | null = null,
  ) {
    const n = residual.n;
    this.up = new Float64Array(n);
    this.um = new Float64Array(n);
    this.Rp = new Float64Array(n);
    this.Rm = new Float64Array(n);
    const noise = Math.max(rtol, Number.EPSILON);
    this.centralStep = Math.cbrt(noise);
    this.forwardStep = Math.sqrt(noise);
  }

  /** Central differences at u into J, 2n shots; false when a simulation failed. */
  central(u: Float64Array, J: Float64Array): boolean {
    const n = this.residual.n,
      { up, um, Rp, Rm } = this;
    for (let j = 0; j < n; j++) {
      let h = this.centralStep * Math.max(1, Math.abs(u[j]));
      // The step is scaled to max(1, |u|): for a small unknown near where the runs stop (the
      // solution of Troesch's problem at mu = 5 blows up just past x = 1 for s = 0.057, the
      // solution has s = 0.0458), u + h left the model's reach and the whole Jacobian failed,
      // though the iterate ran. A shorter difference is still a difference: the step is
      // shortened (by 4, a few times, down to about the forward step) before giving up.
      for (let tries = 0; ; tries++) {
        up.set(u);
        um.set(u);
        up[j] += h;
        um[j] -= h;
        // (at a bound, both points inside it: a difference over the same width, off-centre)
        if (this.bounds) {
          up[j] = Math.min(up[j], this.bounds.upper[j]);
          um[j] = Math.max(up[j] - 2 * h, this.bounds.lower[j]);
          up[j] = Math.min(um[j] + 2 * h, this.bounds.upper[j]);
        }
        const okP = this.residual.evaluate(up, Rp),
          okM = okP && this.residual.evaluate(um, Rm);
        if (okP && okM) break;
        if (tries === CENTRAL_RETRIES) return false;
        h /= 4;
      }
      for (let i = 0; i < n; i++) J[i * n + j] = (Rp[i] - Rm[i]) / (up[j] - um[j]);
    }
    this.evaluations++;
    return true;
  }

  /** Forward differences at u (where the residual is R) into J, n shots; false when a simulation failed. */
  forward(u: Float64Array, R: Float64Array, J: Float64Array): boolean {
    const n = this.residual.n,
      { up, Rp } = this;
    for (let j = 0; j < n; j++) {
      const h = inward(this.bounds, u, j, this.forwardStep * Math.max(1, Math.abs(u[j])));
      up.set(u);
      up[j] += h;
      // One-sided, so either side will do: where the run fails on one side (a limit of the
      // model just past the iterate), take the other (inside the bounds) before giving up.
      if (!this.residual.evaluate(up, Rp)) {
        up[j] = u[j] - h;
        const outside = this.bounds !== null && (up[j] < this.bounds.lower[j] || up[j] > this.bounds.upper[j]);
        if (outside || !this.residual.evaluate(up, Rp)) return false;
      }
      // A step that changes no residual at all, not even by rounding, may have gone off the
      // edge of where the unknown acts, not shown that nothing depends on it: a load's
      // position `delta(x - a)` at the end of the range, a = 10 on [0, 10], moved to 10 + h
      // leaves the range (y(10) = F (10 - a) for a <= 10, 0 beyond: the same value at both
      // points), and the Jacobian was called singular, "no condition depends on a". Try the
      // other side (inside the bounds) before taking the column as zero.
      if (Rp.every((r, i) => r === R[i])) {
        const other = u[j] - (up[j] - u[j]);
        const inside = this.bounds === null || (other >= this.bounds.lower[j] && other <= this.bounds.upper[j]);
        if (inside) {
          const keep = up[j];
          up[j] = other;
          if (!this.residual.evaluate(up, Rp)) {
            up[j] = keep;
            Rp.set(R);
          }
        }
      }
      const dh = up[j] - u[j]; // the step as represented in doubles
      for (let i = 0; i < n; i++) J[i * n + j] = (Rp[i] - R[i]) / dh;
    }
    this.evaluations++;
    return true;
  }
}

/**
 * Broyden's good update: the least change of J (Frobenius norm) that makes it satisfy the
 * secant equation J s = R1 - R0 along the step s = u1 - u0 actually taken. It costs no shot.
 * `s` is work space of length n.
 */
export function broydenUpdate(
  J: Float64Array,
  n: number,
  u0: Float64Array,
  u1: Float64Array,
  R0: Float64Array,
  R1: Float64Array,
  s: Float64Array,
): void {
  let ss = 0;
  for (let i = 0; i < n; i++) {
    s[i] = u1[i] - u0[i];
    ss += s[i] * s[i];
  }
  if (!(ss > 0)) return;
  for (let i = 0; i < n; i++) {
    let js = 0;
    for (let j = 0; j < n; j++) js += J[i * n + j] * s[j];
    const c = (R1[i] - R0[i] - js) / ss;
    for (let j = 0; j < n; j++) J[i * n + j] += c * s[j];
  }
}
