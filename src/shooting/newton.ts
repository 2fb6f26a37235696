/**
 * Shooting: find the `unknown`s so that the boundary conditions hold.
 *
 * Each residual evaluation ("shot") is one simulation of the already compiled model (a reused
 * {@link Simulator}: no re-parsing, no recompiling), with the boundary points as probes in
 * the stop queue so the integrator lands on them exactly. An interior delta is just an event:
 * the rope's kink needs no interface condition.
 *
 * Shots are the whole cost, and the Jacobian is most of them. By default
 * (`jacobian: 'broyden'`) it is formed by forward differences once (n shots: the residual at
 * the iterate is already known), then corrected after every accepted step by Broyden's "good"
 * rank-1 update, which costs no shot, so a later iteration costs one shot. Broyden converges
 * superlinearly rather than quadratically, which takes a few more iterations than Newton but
 * saves the 2n shots of every central-difference Jacobian (the benchmark rope W4: 15 shots
 * instead of 31). The secant Jacobian is replaced by forward differences at the same iterate
 * - when its step does not reduce the residual (no backtracking along it: a stale secant
 *   model is cheaper to refresh than to halve), or when it is singular; so only a fresh
 *   Jacobian can end the iteration with `failed`, `singular` or (no decrease) `converged_step`;
 * - once, when the residual comes within 1e3 of the tolerance, so that the last step is a
 *   Newton step (a secant step can stop just under the tolerance: the unknowns would be up
 *   to ten times less accurate). The unknowns then end as accurate as with central
 *   differences, though the last residual is not always as deep (rope_no_load: 3.7e-11
 *   against 1.6e-12; both far inside the tolerance, the unknowns agree to 1e-11).
 * `jacobian: 'central'` keeps the former method: central differences at every iteration
 * (2n shots each), quadratic convergence, for comparison or for a problem where the secant
 * updates do not pay. The statuses and stopping tests are the same for both.
 *
 * Difference steps are scaled to each unknown and to the integration tolerance, so that the
 * difference error and the integration noise balance. Steps are solved by LU (ml-matrix), with
 * backtracking on the residual norm. The iteration stops when the residuals are at the level
 * the integration tolerances can resolve, or when the step is.
 */
import { LuDecomposition, Matrix } from 'ml-matrix';
import { ShootInputError } from './errors.js';
import type { CompiledModel } from '../codegen/compile.js';
import { Simulator, type SimulateOptions, type SimulationResult } from '../driver/index.js';
import { checkOptions, count, oneOf, resolveSettings, type Naming, type OptionSpec } from '../driver/settings.js';

/** How the Newton iteration gets its Jacobian (see {@link ShootOptions.jacobian}). */
export type ShootJacobian = 'broyden' | 'central';

export interface ShootOptions extends SimulateOptions {
  /** Newton iterations before giving up with `max_iter` (default 50) */
  maxIterations?: number;
  /**
   * The Jacobian of the residuals with respect to the unknowns.
   * - `'broyden'` (default): forward differences once (n shots), then Broyden's rank-1 update
   *   after each accepted step (no shots); formed again by forward differences whenever its
   *   step fails to reduce the residual or it is singular, and once for the last step, when
   *   the residual is within 1e3 of the tolerance. Superlinear convergence at about one shot
   *   per iteration: the fewest shots, with the accuracy of `'central'`.
   * - `'central'`: central differences at every iteration (2n shots each); quadratic
   *   convergence, about twice the shots. (The former method.)
   */
  jacobian?: ShootJacobian;
}

export type ShootStatus = 'converged' | 'converged_step' | 'max_iter' | 'singular' | 'failed';

export interface ShootIteration {
  k: number;
  unknowns: Record<string, number>;
  residualNorm: number;
  /** the Jacobian the step from this iterate was computed with: `'central'` or `'forward'`
   * differences, or the `'broyden'` update of the previous one; absent where no step was
   * computed (the converged iterate) */
  jacobian?: 'central' | 'forward' | 'broyden';
  /** why the Broyden Jacobian was replaced here by forward differences: its step did not
   * reduce the residual (`'no_decrease'`), it was singular or gave a step that is not finite
   * (`'singular'`), or the residual is close to the tolerance and the last step should be a
   * Newton step (`'final_step'`) */
  refreshed?: 'no_decrease' | 'singular' | 'final_step';
}

export interface ShootResult {
  converged: boolean;
  status: ShootStatus;
  message: string | null;
  unknowns: Record<string, number>;
  residuals: Record<string, number>;
  iterations: ShootIteration[];
  /** shots (simulations) spent finding the unknowns: every residual, every difference-Jacobian
   * column and every backtracking trial; not the final run that makes `solution` */
  residualEvaluations: number;
  /** difference Jacobians formed (the first, and each refresh; for `'central'` one per iteration) */
  jacobianEvaluations: number;
  solution: SimulationResult | null;
}

export { ShootInputError };

/** The options shoot adds to a run's. */
const SHOOT_OPTIONS: ReadonlyMap<string, OptionSpec> = new Map([
  ['maxIterations', count],
  [
    'jacobian',
    oneOf(
      ['broyden', 'central'],
      'broyden (the default: one difference Jacobian, then Broyden updates) or central (central differences at every iteration)',
    ),
  ],
]);

/** Checks shoot's options (a run's and its own) once, at the boundary (settings.ts). */
export function checkShootOptions(options: unknown, naming: Naming = 'library'): void {
  checkOptions(options, naming, SHOOT_OPTIONS);
}

function record(names: string[], values: ArrayLike<number>): Record<string, number> {
  const r = Object.create(null) as Record<string, number>;
  names.forEach((n, i) => {
    r[n] = values[i];
  });
  return r;
}

const maxAbs = (v: ArrayLike<number>) => {
  let m = 0;
  for (let i = 0; i < v.length; i++) m = Math.max(m, Math.abs(v[i]));
  return Number.isNaN(m) ? Infinity : m;
};

export function shoot(model: CompiledModel, shootOptions: ShootOptions = {}): ShootResult {
  checkShootOptions(shootOptions);
  const { jacobian: method = 'broyden', maxIterations = 50, ...options } = shootOptions;
  const sys = model.system;
  const unknownNames = sys.parameters.filter((q) => q.unknown).map((q) => q.name);
  const n = unknownNames.length;
  const bcs = model.boundary;
  if (n === 0) throw new ShootInputError(`${sys.model} has no unknowns: declare them with 'unknown NAME = GUESS'`);
  if (bcs.length !== n)
    throw new ShootInputError(
      `${sys.model} has ${n} unknown(s) and ${bcs.length} boundary condition(s); shooting needs as many conditions as unknowns`,
    );

  const baseSet = new Map(options.set instanceof Map ? options.set : Object.entries(options.set ?? {}));
  const guess = model.parameters(baseSet);
  const u = new Float64Array(n);
  unknownNames.forEach((name, i) => {
    u[i] = guess[model.paramNames.indexOf(name)];
  });

  const simulator = new Simulator(model);
  const { rtol, atol } = resolveSettings(model, options);
  let shots = 0;
  let lastFailure: string | null = null;

  /** R(u) into out; false when the simulation fails. */
  const residual = (uu: Float64Array, out: Float64Array): boolean => {
    const set = new Map(baseSet);
    unknownNames.forEach((name, i) => set.set(name, uu[i]));
    const p = model.parameters(set);
    const probes = bcs.map((bc) => bc.at(NaN, EMPTY, p, EMPTY, EMPTY));
    shots++;
    const run = simulator.run({ ...options, set, record: false, eventValues: false, probes });
    if (run.status === 'failed' || run.status === 'zeno') {
      lastFailure = `the simulation for ${unknownNames.map((nm, i) => `${nm} = ${uu[i]}`).join(', ')} ended with status ${run.status}: ${run.message}`;
      out.fill(NaN);
      return false;
    }
    const got = run.probes!;
    for (let i = 0; i < n; i++) {
      const probe = got.find((q) => q.t === probes[i]);
      if (!probe) {
        lastFailure = `the run stopped before ${sys.independent} = ${probes[i]}, where ${bcs[i].label} is to hold`;
        out.fill(NaN);
        return false;
      }
      out[i] = bcs[i].state(probes[i], probe.y, p, probe.d, EMPTY_SW) - bcs[i].value(NaN, EMPTY, p, EMPTY, EMPTY);
    }
    return out.every(Number.isFinite);
  };

  const R = new Float64Array(n),
    Rtrial = new Float64Array(n),
    Rp = new Float64Array(n),
    Rm = new Float64Array(n);
  const iterations: ShootIteration[] = [];
  let jacobians = 0;
  const finish = (status: ShootStatus, message: string | null): ShootResult => {
    const set = new Map(baseSet);
    unknownNames.forEach((name, i) => set.set(name, u[i]));
    const solution = simulator.run({ ...options, set });
    return {
      converged: status === 'converged' || status === 'converged_step',
      status,
      message,
      unknowns: record(unknownNames, u),
      residuals: record(
        bcs.map((b) => b.label),
        R,
      ),
      iterations,
      residualEvaluations: shots,
      jacobianEvaluations: jacobians,
      solution,
    };
  };

  if (!residual(u, R)) return finish('failed', `the first guess does not simulate: ${lastFailure}. Try another guess.`);
  // What the integration can resolve: residuals are state values, accurate to about atol + rtol*|value|.
  const residualTol = (i: number) =>
    10 * atol + rtol * Math.max(1, Math.abs(R[i] + bcs[i].value(NaN, EMPTY, model.parameters(baseSet), EMPTY, EMPTY)));
  const maxResidualTol = () => Math.max(...R.map((_, i) => residualTol(i)));
  // Relative noise of a residual: what the integration tolerance leaves in it.
  const noise = Math.max(rtol, Number.EPSILON);
  // Central differences: truncation error ~h^2 against noise/h, balanced at h ~ noise^(1/3).
  const centralStep = Math.cbrt(noise);
  // Forward differences: truncation error ~h against noise/h, balanced at h ~ noise^(1/2). The
  // Jacobian is then good to about sqrt(noise) (1e-5 at rtol 1e-10), which costs a Newton step
  // nothing visible: the residual still drops by that factor or more.
  const forwardStep = Math.sqrt(noise);
  const jacobianFailure = () =>
    `a simulation near the iterate failed while forming the Jacobian: ${lastFailure}. Try another guess.`;

  const J = new Matrix(n, n);

  /** Central differences at u into J, 2n shots; false when a simulation failed. */
  const centralJacobian = (): boolean => {
    for (let j = 0; j < n; j++) {
      const h = centralStep * Math.max(1, Math.abs(u[j]));
      const up = u.slice(),
        um = u.slice();
      up[j] += h;
      um[j] -= h;
      const okP = residual(up, Rp),
        okM = residual(um, Rm);
      if (!okP || !okM) return false;
      for (let i = 0; i < n; i++) J.set(i, j, (Rp[i] - Rm[i]) / (up[j] - um[j]));
    }
    jacobians++;
    return true;
  };

  /** Forward differences at u into J, n shots (R(u) is known); false when a simulation failed. */
  const forwardJacobian = (): boolean => {
    for (let j = 0; j < n; j++) {
      const h = forwardStep * Math.max(1, Math.abs(u[j]));
      const up = u.slice();
      up[j] += h;
      // One-sided, so either side will do: where the run fails on one side (a limit of the
      // model just past the iterate), take the other before giving up.
      if (!residual(up, Rp)) {
        up[j] = u[j] - h;
        if (!residual(up, Rp)) return false;
      }
      const dh = up[j] - u[j]; // the step as represented in doubles
      for (let i = 0; i < n; i++) J.set(i, j, (Rp[i] - R[i]) / dh);
    }
    jacobians++;
    return true;
  };

  // Backtracking trials (lambda = 1, 1/2, 1/4, ...). A difference Jacobian gets the full search,
  // as it always had. A Broyden Jacobian gets one trial: when its full step does not reduce the
  // residual, the secant model has gone stale, and n shots for a fresh Jacobian (then the full
  // search) buy more than halving a doubtful direction (measured on the ropes from random
  // guesses: fewer shots in all than with 2 or 4 trials, same accuracy).
  const trialsDifference = 12,
    trialsBroyden = 1;
  // The stopping test accepts any residual under the tolerance, and the unknowns are then off by
  // up to about |J^-1| times it. Newton's quadratic convergence leaves the last residual far
  // below the tolerance; Broyden's superlinear steps (the residual shrinks by only 1e-1..1e-3
  // per step near the end) can stop just under it: up to ten times less accurate (measured on
  // the ropes from random guesses: 2e-10 against 3e-11 relative in H at worst). So once the
  // residual is within 1e3 of the tolerance (where the step test also starts to trust it), the
  // step is taken once with a fresh forward-difference Jacobian: it gains a factor of about
  // sqrt(noise) ~ 1e-5, so the unknowns end as accurate as with central differences. It costs
  // n shots once.
  const finalZone = 1e3;
  let finalNewtonStep = false;
  const trial = new Float64Array(n);
  const s = new Float64Array(n);

  for (let k = 0; ; k++) {
    const norm = maxAbs(R);
    const iterate: ShootIteration = { k, unknowns: record(unknownNames, u), residualNorm: norm };
    iterations.push(iterate);
    if (R.every((r, i) => Math.abs(r) <= residualTol(i))) return finish('converged', null);
    if (k >= maxIterations)
      return finish(
        'max_iter',
        `no convergence in ${maxIterations} iterations (residual ${norm.toExponential(2)}); try a better guess or looser tolerances`,
      );

    /** J is a difference Jacobian at this iterate, not a secant update. */
    let fresh: boolean;
    const refresh = (reason: NonNullable<ShootIteration['refreshed']>): boolean => {
      iterate.jacobian = 'forward';
      iterate.refreshed = reason;
      fresh = true;
      return forwardJacobian();
    };
    if (method === 'central') {
      iterate.jacobian = 'central';
      fresh = true;
      if (!centralJacobian()) return finish('failed', jacobianFailure());
    } else if (k === 0) {
      iterate.jacobian = 'forward';
      fresh = true;
      if (!forwardJacobian()) return finish('failed', jacobianFailure());
    } else {
      iterate.jacobian = 'broyden';
      fresh = false;
      if (!finalNewtonStep && norm <= finalZone * maxResidualTol() && !refresh('final_step'))
        return finish('failed', jacobianFailure());
    }

    // With a Broyden Jacobian, a second pass with a fresh one at the same iterate when it is
    // singular or its step fails; only a difference Jacobian can end the iteration here.
    let lambda = 1;
    let du: number[];
    for (;;) {
      const lu = new LuDecomposition(J);
      const singular = lu.isSingular();
      du = singular ? [] : lu.solve(Matrix.columnVector(Array.from(R, (r) => -r))).to1DArray();
      const finite = !singular && du.every(Number.isFinite);
      if (!finite && !fresh) {
        // Secant updates can drift to a singular matrix that the true Jacobian is not.
        if (!refresh('singular')) return finish('failed', jacobianFailure());
        continue;
      }
      if (singular)
        return finish(
          'singular',
          `the Jacobian is singular at iteration ${k}: the boundary conditions do not depend on (some of) the unknowns ${unknownNames.join(', ')} here; try another guess`,
        );
      if (!finite) return finish('singular', `the Newton step is not finite at iteration ${k}; try another guess`);

      // Backtracking: halve the step until the residual norm decreases.
      lambda = 1;
      let accepted = false;
      const trials = fresh ? trialsDifference : trialsBroyden;
      for (let t = 0; t < trials; t++) {
        for (let i = 0; i < n; i++) trial[i] = u[i] + lambda * du[i];
        if (residual(trial, Rtrial) && maxAbs(Rtrial) < (1 - 1e-4 * lambda) * norm) {
          accepted = true;
          break;
        }
        lambda /= 2;
      }
      if (accepted) break;
      if (!fresh) {
        // The Broyden step led nowhere: refresh the Jacobian here before judging the iterate.
        if (!refresh('no_decrease')) return finish('failed', jacobianFailure());
        continue;
      }
      // No decrease with a fresh Jacobian: at the noise floor of the integration, or a bad direction.
      if (maxAbs(du.map((x) => x * lambda)) <= 1e3 * rtol * (1 + maxAbs(u))) return finish('converged_step', null);
      return finish(
        'failed',
        `the Newton step does not reduce the residual (${norm.toExponential(2)}) at iteration ${k}${lastFailure ? `: ${lastFailure}` : ''}; try another guess`,
      );
    }
    const stepSize = maxAbs(du.map((x) => x * lambda));
    if (fresh && norm <= finalZone * maxResidualTol()) finalNewtonStep = true;

    if (method === 'broyden') {
      // Broyden's good update: the least change of J (Frobenius norm) that makes it satisfy the
      // secant equation J s = R(u + s) - R(u) along the step s actually taken. It costs no shot.
      let ss = 0;
      for (let i = 0; i < n; i++) {
        s[i] = trial[i] - u[i];
        ss += s[i] * s[i];
      }
      if (ss > 0) {
        for (let i = 0; i < n; i++) {
          let js = 0;
          for (let j = 0; j < n; j++) js += J.get(i, j) * s[j];
          const c = (Rtrial[i] - R[i] - js) / ss;
          for (let j = 0; j < n; j++) J.set(i, j, J.get(i, j) + c * s[j]);
        }
      }
    }
    u.set(trial);
    R.set(Rtrial);
    if (stepSize <= 10 * rtol * (1 + maxAbs(u)) && maxAbs(R) <= 1e3 * maxResidualTol()) {
      iterations.push({ k: k + 1, unknowns: record(unknownNames, u), residualNorm: maxAbs(R) });
      return finish('converged_step', null);
    }
  }
}

const EMPTY = new Float64Array(0);
const EMPTY_SW = new Float64Array(0);
