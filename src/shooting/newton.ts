/**
 * Shooting: find the `unknown`s so that the boundary conditions hold, by Newton's method on
 * the residual of residual.ts (one simulation per evaluation). This file is the driver; the
 * Jacobians are in jacobian.ts, the step and its line search in line-search.ts.
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
 *   Jacobian can end the iteration with `failed`, `singular` or (no decrease) `stalled`;
 * - once, when the residual comes within 1e3 of the tolerance, so that the last step is a
 *   Newton step (a secant step can stop just under the tolerance: the unknowns would be up
 *   to ten times less accurate). The unknowns then end as accurate as with central
 *   differences, though the last residual is not always as deep (rope_no_load: 3.7e-11
 *   against 1.6e-12; both far inside the tolerance, the unknowns agree to 1e-11).
 * `jacobian: 'central'` keeps the former method: central differences at every iteration
 * (2n shots each), quadratic convergence, for comparison or for a problem where the secant
 * updates do not pay. The statuses and stopping tests are the same for both.
 *
 * Steps are solved by LU, with backtracking on the residual norm. The iteration converges
 * when the residuals are at the level the integration tolerances can resolve, and only then:
 * steps that shrink to that level with the residual above it end it as `stalled`.
 */
import { ShootInputError } from './errors.js';
import { ModelError } from '../expression/errors.js';
import { ulpOf } from '../driver/ulp.js';
import { luFactor, luSolve } from '../integrators/lu.js';
import type { CompiledModel } from '../codegen/compile.js';
import type { SimulateOptions, SimulationResult } from '../driver/index.js';
import { checkOptions, count, oneOf, resolveSettings, type Naming, type OptionSpec } from '../driver/settings.js';
import { checkConditions, conditionConflict } from './diagnosis.js';
import { boundsOf, type Bounds } from './bounds.js';
import { broydenUpdate, DifferenceJacobian } from './jacobian.js';
import { LineSearch } from './line-search.js';
import { byName as recordOf, maxAbs, ShootingResidual } from './residual.js';

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
  /**
   * Bounds on the unknowns, by name (`{ H: 0 }`): the iterates stay within them, a step that
   * would leave them is cut back to them, and no shot is fired outside (as SciPy's
   * `least_squares(bounds=...)`). The first guess must lie within; an unknown without a bound
   * is free. A solution outside the bounds is not found: the iteration stalls at the bound.
   */
  lower?: ReadonlyMap<string, number> | Readonly<Record<string, number>>;
  upper?: ReadonlyMap<string, number> | Readonly<Record<string, number>>;
}

/**
 * `converged`: every residual within its tolerance (what the integration resolves, 10 atol +
 * rtol |value|); nothing else is. `stalled`: the steps shrank to the noise floor with the
 * residual above it (no solution near there, or a poor guess); `max_iter`, `singular`,
 * `failed` (a simulation failed, or no step reduces the residual): the message says which.
 */
export type ShootStatus = 'converged' | 'stalled' | 'max_iter' | 'singular' | 'failed';

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
   * column and every backtracking trial; not the final run that makes `solution`, nor the
   * check of a converged residual with the integration refined */
  residualEvaluations: number;
  /** difference Jacobians formed (the first, and each refresh; for `'central'` one per iteration) */
  jacobianEvaluations: number;
  /**
   * What a converged result should be read with (empty otherwise): an unknown the conditions
   * fix only to ±X, far beyond what the tolerances fix a well-posed one to (the residual
   * nearly flat in it at the solution: a double root). The solution's own run has its own.
   */
  warnings: string[];
  solution: SimulationResult | null;
}

export { ShootInputError };

const boundValues: OptionSpec = {
  allowed: 'numbers by name, a Map or an object such as { H: 0 }',
  ok: (v) => {
    const all =
      v instanceof Map ? [...v] : typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.entries(v) : null;
    return all !== null && all.every(([k, x]) => typeof k === 'string' && typeof x === 'number' && !Number.isNaN(x));
  },
};

/** The options shoot adds to a run's. */
const SHOOT_OPTIONS: ReadonlyMap<string, OptionSpec> = new Map([
  ['lower', boundValues],
  ['upper', boundValues],
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

/**
 * The boundary conditions against the run's range and each other (diagnosis.ts), before any
 * shot; the command line calls it to name its flags.
 */
export function checkShootConditions(model: CompiledModel, options: SimulateOptions, naming: Naming = 'library'): void {
  const unknowns = model.system.parameters.filter((q) => q.unknown).map((q) => q.name);
  checkConditions(model, options, unknowns, naming);
}

/**
 * As many boundary conditions as unknowns, or a model error at the place to change (the
 * library's as the command line's: a count alone named no line).
 */
export function checkShootable(model: CompiledModel): void {
  const sys = model.system;
  const unknowns = sys.parameters.filter((q) => q.unknown);
  const bcs = sys.boundaryConditions;
  if (unknowns.length === bcs.length && unknowns.length > 0) return;
  const span = bcs.length > unknowns.length ? bcs[unknowns.length].span : (unknowns[bcs.length]?.span ?? null);
  throw new ModelError(
    sys.file,
    sys.source,
    span,
    unknowns.length === 0
      ? 'the model has no unknowns to shoot for'
      : `${unknowns.length} unknown(s) but ${bcs.length} boundary condition(s)`,
    unknowns.length === 0
      ? "Declare what shooting should find with 'unknown NAME = GUESS'."
      : 'Shooting needs as many boundary conditions (y(A) = VALUE with A after the start) as unknowns.',
  );
}

export function shoot(model: CompiledModel, shootOptions: ShootOptions = {}): ShootResult {
  checkShootOptions(shootOptions);
  const { jacobian = 'broyden', maxIterations = 50, lower, upper, ...options } = shootOptions;
  const sys = model.system;
  checkShootable(model);
  // An unknown that sets an array's size or a range (N of `x[1:N]`, or of a parameter a range
  // reads) shapes the model: it is fixed when the model is written out, and every Newton
  // iterate between integers would be another model. Refuse before any shot (the Jacobian's
  // first difference was refused deep inside, advising to compile with N = 1.998).
  const shaping = sys.parameters.filter((q) => q.unknown && sys.structural?.includes(q.name)).map((q) => q.name);
  if (shaping.length > 0)
    throw new ShootInputError(
      `${shaping.map((k) => `'${k}'`).join(', ')} ${shaping.length > 1 ? 'set' : 'sets'} the shape of ${sys.model} (an array's size or a range uses ${shaping.length > 1 ? 'them' : 'it'}), and an array size cannot be an unknown: shooting varies its unknowns continuously. Declare ${shaping.length > 1 ? 'them' : 'it'} a parameter and shoot once per value (--set ${shaping[0]}=...)`,
    );
  const { rtol, atol } = resolveSettings(model, options);
  const residual = new ShootingResidual(model, options, rtol, atol);
  checkConditions(model, options, residual.names);
  const bounds = boundsOf(residual.names, residual.guess(), lower, upper);
  return new Newton(residual, jacobian, maxIterations, rtol, bounds, true).solve();
}

// Backtracking trials (lambda = 1, 1/2, 1/4, ...). A difference Jacobian gets the full search,
// as it always had. A Broyden Jacobian gets one trial: when its full step does not reduce the
// residual, the secant model has gone stale, and n shots for a fresh Jacobian (then the full
// search) buy more than halving a doubtful direction (measured on the ropes from random
// guesses: fewer shots in all than with 2 or 4 trials, same accuracy).
const TRIALS_DIFFERENCE = 12,
  TRIALS_BROYDEN = 1;
// The stopping test accepts any residual under the tolerance, and the unknowns are then off by
// up to about |J^-1| times it. Newton's quadratic convergence leaves the last residual far
// below the tolerance; Broyden's superlinear steps (the residual shrinks by only 1e-1..1e-3
// per step near the end) can stop just under it: up to ten times less accurate (measured on
// the ropes from random guesses: 2e-10 against 3e-11 relative in H at worst). So once the
// residual is within 1e3 of the tolerance (where the step test also starts to trust it), the
// step is taken once with a fresh forward-difference Jacobian: it gains a factor of about
// sqrt(noise) ~ 1e-5, so the unknowns end as accurate as with central differences. It costs
// n shots once.
const FINAL_ZONE = 1e3;
// The residual's rounding taken as this many times the change one rounding unit of the
// unknowns makes (see Newton.roundingFloor).
const ROUNDINGS = 4;
// An unknown is reported as poorly determined when the residuals' tolerances let it move more
// than this many times rtol (1 + |u|) (see Newton.spread): ordinary conditions give up to 2.9.
const POORLY = 30;

/** How one iteration ends: go on from the new iterate, or the result. */
type IterationEnd = { kind: 'next' } | { kind: 'done'; result: ShootResult };

/** The Newton iteration over arrays allocated once. */
class Newton {
  private readonly n: number;
  private readonly u: Float64Array;
  private readonly R: Float64Array;
  /** the Jacobian, n×n row-major: a difference Jacobian or its Broyden updates */
  private readonly J: Float64Array;
  /** J is a difference Jacobian at the current iterate, not a secant update */
  private fresh = false;
  private finalNewtonStep = false;
  private readonly differences: DifferenceJacobian;
  private readonly line: LineSearch;
  private readonly s: Float64Array;
  private readonly iterations: ShootIteration[] = [];
  /** what a converged result says beside it (poorlyDetermined) */
  private readonly warnings: string[] = [];

  constructor(
    private readonly res: ShootingResidual,
    private readonly method: ShootJacobian,
    private readonly maxIterations: number,
    private readonly rtol: number,
    private readonly bounds: Bounds | null,
    /** confirm a converged residual with the integration refined (see {@link confirm}) */
    private readonly confirming: boolean,
  ) {
    const n = (this.n = res.n);
    this.u = res.guess();
    this.R = new Float64Array(n);
    this.J = new Float64Array(n * n);
    this.s = new Float64Array(n);
    this.differences = new DifferenceJacobian(res, rtol, bounds);
    this.line = new LineSearch(res, bounds);
  }

  solve(): ShootResult {
    if (!this.res.evaluate(this.u, this.R))
      return this.finish('failed', `the first guess does not simulate: ${this.res.lastFailure}. Try another guess.`);
    for (let k = 0; ; k++) {
      const norm = maxAbs(this.R);
      const iterate: ShootIteration = { k, unknowns: this.res.record(this.u), residualNorm: norm };
      this.iterations.push(iterate);
      if (this.res.within(this.R)) {
        if (!this.confirming) return this.finish('converged', null);
        const J = this.finalJacobian(k);
        const unresolved = J !== null ? this.roundingFloor(J) : null;
        if (unresolved)
          return this.finish(
            'stalled',
            `the residual is within its tolerance at ${this.at()} (iteration ${k}) only by a rounding accident: ${unresolved}`,
          );
        // (said only if it converges: confirm may still find the answer the error's)
        const poor = this.poorlyDetermined(J);
        if (poor !== null) this.warnings.push(poor);
        return this.confirm(k);
      }
      if (k >= this.maxIterations)
        return this.finish(
          'max_iter',
          `no convergence in ${this.maxIterations} iterations (residual ${norm.toExponential(2)}); try a better guess or looser tolerances`,
        );
      const end = this.iterate(k, iterate, norm);
      if (end.kind === 'done') return end.result;
    }
  }

  /** One iteration from the iterate k: a Jacobian, a step along its direction, the update. */
  private iterate(k: number, iterate: ShootIteration, norm: number): IterationEnd {
    if (!this.jacobianFor(k, iterate, norm)) return this.done('failed', this.jacobianFailure());
    // With a Broyden Jacobian, a second pass with a fresh one at the same iterate when it is
    // singular or its step fails; only a difference Jacobian can end the iteration here.
    for (;;) {
      const direction = this.line.direction(this.J, this.R);
      if (direction !== 'ok' && !this.fresh) {
        // Secant updates can drift to a singular matrix that the true Jacobian is not.
        if (!this.refresh(iterate, 'singular')) return this.done('failed', this.jacobianFailure());
        continue;
      }
      if (direction === 'singular')
        return this.done(
          'singular',
          `the Jacobian is singular at iteration ${k}: ${this.conflict(k) ?? `the boundary conditions do not depend on (some of) the unknowns ${this.res.names.join(', ')} here; try another guess`}`,
        );
      if (direction === 'notFinite')
        return this.done('singular', `the Newton step is not finite at iteration ${k}; try another guess`);
      if (this.line.search(this.u, norm, this.fresh ? TRIALS_DIFFERENCE : TRIALS_BROYDEN)) break;
      if (!this.fresh) {
        // The Broyden step led nowhere: refresh the Jacobian here before judging the iterate.
        if (!this.refresh(iterate, 'no_decrease')) return this.done('failed', this.jacobianFailure());
        continue;
      }
      // No decrease with a fresh Jacobian, and the residual (checked above) is not within the
      // tolerance: the step shrank to nothing (a minimum of the residual that is not zero),
      // or the direction is bad, or it leads past a bound.
      const blocked = this.blockedBy();
      if (blocked) return this.done('stalled', this.stalledMessage(k, blocked));
      if (this.line.stepSize() <= 1e3 * this.rtol * (1 + maxAbs(this.u)))
        return this.done('stalled', this.stalledMessage(k, 'no step along the Newton direction reduces it'));
      // (a Jacobian near singular because two conditions fix one combination of the unknowns)
      const conflict = this.conflict(k);
      if (conflict) return this.done('singular', `the Jacobian is nearly singular at iteration ${k}: ${conflict}`);
      const failure = this.res.lastFailure;
      return this.done(
        'failed',
        `the Newton step does not reduce the residual (${norm.toExponential(2)}) at iteration ${k}${failure ? `: ${failure}` : ''}; try another guess`,
      );
    }
    return this.accept(k, norm);
  }

  /** Takes the accepted trial as the new iterate (updating a Broyden Jacobian on the way). */
  private accept(k: number, norm: number): IterationEnd {
    const { u, R, line } = this;
    const stepSize = line.stepSize();
    if (this.fresh && norm <= FINAL_ZONE * this.res.maxTolerance(R)) this.finalNewtonStep = true;
    if (this.method === 'broyden') broydenUpdate(this.J, this.n, u, line.trial, R, line.Rtrial, this.s);
    u.set(line.trial);
    R.set(line.Rtrial);
    // Steps at the noise floor of the integration: converged if the residual is within the
    // tolerance (the next iteration says so), stalled if not. A short step is at the noise
    // floor only if it no longer pays: one that at least halved the residual is still Newton
    // converging, with a short step because the residual is steep in the unknowns (Troesch's
    // problem at mu = 5: |dR/ds| ~ 53, a step of 7e-6 took the residual from 4e-4 to 2.3e-5,
    // and the next one meets the tolerance). Where the residual is noise, a step cannot keep
    // halving it, and the iteration ends here or in the line search.
    const progressing = maxAbs(R) <= 0.5 * norm;
    if (!progressing && stepSize <= 10 * this.rtol * (1 + maxAbs(u)) && maxAbs(R) <= 1e3 * this.res.maxTolerance(R)) {
      if (this.res.within(R)) return { kind: 'next' };
      this.iterations.push({ k: k + 1, unknowns: this.res.record(u), residualNorm: maxAbs(R) });
      return this.done('stalled', this.stalledMessage(k + 1, `the steps have shrunk to ${stepSize.toExponential(1)}`));
    }
    return { kind: 'next' };
  }

  /**
   * The residual within its tolerance at iterate k: converged, if the conditions, not the
   * integration's error, make it so. A residual is the conditions' misfit plus the
   * integration's error, and where the conditions do not depend on the unknowns (y'' = -y,
   * y(0) = 0, y'(0) = s, y(pi) = 1: y(pi) = s sin(pi) = 0 for every s) the error alone can
   * make a zero: a stepper's y(pi) is s (sin(pi) + e), e of the order of rtol, which is 1 at
   * s = 1/e ~ 1e7, a residual of 1e-9 "within the tolerance". So the residual is taken once
   * more with the integration refined (tolerances 100 times tighter, or half the fixed
   * step): still within the tolerance, converged. If not, the same iteration is run on the
   * refined residual from the unknowns found: a solution of the conditions moves by the
   * integration's error (of order rtol); one that the error made moves by about its whole size
   * (s -> 1/e', a hundred times further) or stalls. Its last iterate must lie within a tenth of
   * 1 + |u| (the scale of the step tests) with its residual within this iteration's tolerance.
   * (A difference Jacobian cannot tell: at such an iterate its columns are the error's noise,
   * 3e-6 for the 1/s = 9e-8 of the smooth error.) The refined shots are outside
   * residualEvaluations, as the solution's run is.
   */
  private confirm(k: number): ShootResult {
    const { n, u, res } = this;
    const fine = res.refined(u);
    const R = new Float64Array(n);
    // (a refined shot that fails, more steps than allowed, says nothing against the iterate)
    if (!fine.evaluate(u, R) || fine.within(R)) return this.finish('converged', null);
    const again = new Newton(fine, this.method, this.maxIterations, fine.rtol, this.bounds, false).solve();
    const names = res.names;
    let worst = 0;
    for (let i = 0; i < n; i++) {
      const d = Math.abs(again.unknowns[names[i]] - u[i]) / (1 + Math.abs(u[i]));
      if (!(d <= Math.abs(again.unknowns[names[worst]] - u[worst]) / (1 + Math.abs(u[worst])))) worst = i;
    }
    const name = names[worst],
      moved = Math.abs(again.unknowns[name] - u[worst]);
    // (its last iterate, converged or stalled at the refined tolerances' rounding, counts if it
    // lies near and meets this iteration's tolerances: refined, those are what converged means)
    const last = Float64Array.from(res.labels, (label) => again.residuals[label]);
    if (moved <= 0.1 * (1 + Math.abs(u[worst])) && res.within(last)) return this.finish('converged', null);
    const at = names.map((nm, i) => `${nm} = ${u[i]}`).join(', ');
    const there = again.converged
      ? `the same conditions are met at ${name} = ${again.unknowns[name]} instead`
      : `no solution is found from there (${again.status})`;
    return this.finish(
      'singular',
      `the residual is within its tolerance at ${at} (iteration ${k}), but only through the integration's error: with the integration refined (tolerances 100 times tighter, or half the fixed step), ${there}. The boundary conditions do not depend on the unknowns there at what the integration resolves (they may have no solution); try another guess`,
    );
  }

  /** Which bound the Newton direction leads past from an iterate on it, in words; null if none. */
  private blockedBy(): string | null {
    const { bounds, u } = this,
      du = this.line.du;
    if (!bounds) return null;
    for (let i = 0; i < this.n; i++) {
      const side =
        u[i] <= bounds.lower[i] && du[i] < 0 ? 'lower' : u[i] >= bounds.upper[i] && du[i] > 0 ? 'upper' : null;
      if (side)
        return `the Newton step leads past the ${side} bound of ${this.res.names[i]} (${u[i]}), where the iterate stands; the solution may lie beyond it`;
    }
    return null;
  }

  /** The Jacobian for iterate k into J; false when a simulation it needed failed. */
  private jacobianFor(k: number, iterate: ShootIteration, norm: number): boolean {
    if (this.method === 'central') {
      iterate.jacobian = 'central';
      this.fresh = true;
      return this.differences.central(this.u, this.J);
    }
    if (k === 0) {
      iterate.jacobian = 'forward';
      this.fresh = true;
      return this.differences.forward(this.u, this.R, this.J);
    }
    iterate.jacobian = 'broyden';
    this.fresh = false;
    if (!this.finalNewtonStep && norm <= FINAL_ZONE * this.res.maxTolerance(this.R))
      return this.refresh(iterate, 'final_step');
    return true;
  }

  /** A forward-difference Jacobian at this iterate in place of the secant one. */
  private refresh(iterate: ShootIteration, reason: NonNullable<ShootIteration['refreshed']>): boolean {
    iterate.jacobian = 'forward';
    iterate.refreshed = reason;
    this.fresh = true;
    return this.differences.forward(this.u, this.R, this.J);
  }

  /** Where the iteration stalled: the residual it reached against the tolerance, and the condition furthest off. */
  private stalledMessage(k: number, why: string): string {
    const { R, res } = this;
    let worst = 0;
    for (let i = 1; i < this.n; i++)
      if (Math.abs(R[i]) / res.tolerance(i, R[i]) > Math.abs(R[worst]) / res.tolerance(worst, R[worst])) worst = i;
    const head = `the iteration stalled at iteration ${k}: the residual of ${res.labels[worst]} is ${R[worst].toExponential(2)}, above its tolerance ${res.tolerance(worst, R[worst]).toExponential(1)}, and ${why}`;
    // (J here is the difference Jacobian the last step was computed with, or its update)
    const unresolved = this.roundingFloor(this.J);
    if (unresolved) return `${head}; ${unresolved}`;
    const nearby = this.confirming ? this.refinedSolution() : null;
    if (nearby)
      return `${head}. With the integration refined (tolerances 100 times tighter, or half the fixed step) the conditions are met at ${nearby}: the residual here is the integration's error, which the conditions amplify (they are sensitive to the unknowns); tighten the tolerances (rtol, atol) or shorten the range`;
    return `${head}. The boundary conditions may have no solution near ${this.at()} (the residual has a minimum that is not zero there); if one is expected, try another guess`;
  }

  /**
   * At a stall, whether the conditions are met nearby once the integration is refined (the
   * iteration of {@link confirm} on the refined residual, from the iterate): where they
   * amplify the integration's error (y'' = 400 y on [0, 1] with y(1) = 0 given: dR/ds =
   * sinh(20)/20 = 1.2e7), the residual stalls at that error with a solution right there, and
   * "may have no solution" would be false. The unknowns found, in words, or null. (Its shots
   * are outside residualEvaluations, as the confirmation's.)
   */
  private refinedSolution(): string | null {
    const { n, u, res } = this;
    const fine = res.refined(u);
    if (fine.rtol >= this.rtol) return null;
    const again = new Newton(fine, this.method, this.maxIterations, fine.rtol, this.bounds, false).solve();
    // (converged, or stalled at the refined tolerances' rounding floor with the residual
    // within this iteration's tolerances, as confirm counts it)
    const last = Float64Array.from(res.labels, (label) => again.residuals[label]);
    if (!again.converged && !(again.status === 'stalled' && res.within(last))) return null;
    for (let i = 0; i < n; i++)
      if (!(Math.abs(again.unknowns[res.names[i]] - u[i]) <= 0.1 * (1 + Math.abs(u[i])))) return null;
    return res.names.map((name) => `${name} = ${again.unknowns[name]}`).join(', ');
  }

  private at(): string {
    return this.res.names.map((name, i) => `${name} = ${this.u[i]}`).join(', ');
  }

  /**
   * The Jacobian at the converged iterate k, for the checks of the answer (whether its
   * residual can be resolved at all in doubles, {@link roundingFloor}; how well it fixes the
   * unknowns, {@link poorlyDetermined}): the last step's; at iteration 0 no step was taken, and
   * a forward-difference Jacobian is formed for it (n shots, not counted: like the
   * confirmation's, they are a check of the answer, not its search). null if that failed.
   */
  private finalJacobian(k: number): Float64Array | null {
    if (k > 0) return this.J;
    const shots = this.res.shots,
      evaluations = this.differences.evaluations;
    const J = new Float64Array(this.n * this.n);
    const ok = this.differences.forward(this.u, this.R, J);
    this.res.shots = shots;
    this.differences.evaluations = evaluations;
    return ok ? J : null;
  }

  /**
   * The residuals' rounding floor: one rounding unit of each unknown moves residual i by
   * sum_j |J_ij| ulp(u_j), and a residual computed from the unknowns carries a rounding error
   * of that order (the cancellation that makes it small: cosh(40) + (s/40) sinh(40) at s =
   * -40 is 1.2e17 - 1.2e17, each term off by 16). Where that floor exceeds a residual's
   * tolerance, no double value of the unknowns can be told to meet the condition: the problem
   * is too ill-conditioned for single shooting over its range (y'' = k^2 y on [0, 1] with y(1)
   * given: dR/ds = sinh(k)/k, 2.9e15 at k = 40, a floor of 20). The analytic path's exact
   * propagators found a residual of exactly 0 there by that accident and reported converged,
   * with rows off by 0.125 at x = 0.875; the steppers stalled with "may have no solution",
   * which there is. A message (the largest ratio's condition and unknown) or null.
   */
  private roundingFloor(J: Float64Array): string | null {
    const { n, u, R, res } = this;
    let worst = -1,
      ratio = 1,
      floorOfWorst = 0;
    for (let i = 0; i < n; i++) {
      let floor = 0;
      for (let j = 0; j < n; j++) floor += Math.abs(J[i * n + j]) * ulpOf(u[j]);
      // (a residual computed along a run carries more than the one rounding of its last
      // operation: every step's rounding, amplified as the error is; measured on y'' = 625 y
      // with dop853, its scatter over s within a few ulps was 3 to 6 times the one-ulp change)
      const r = (ROUNDINGS * floor) / res.tolerance(i, R[i]);
      if (r > ratio) {
        ratio = r;
        worst = i;
        floorOfWorst = floor;
      }
    }
    if (worst < 0) return null;
    let j = 0;
    for (let m = 1; m < n; m++)
      if (Math.abs(J[worst * n + m]) * ulpOf(u[m]) > Math.abs(J[worst * n + j]) * ulpOf(u[j])) j = m;
    const name = res.names[j],
      label = res.labels[worst];
    const one = Math.abs(J[worst * n + j]) * ulpOf(u[j]);
    const all = n > 1 ? ` (those of all the unknowns together by ${floorOfWorst.toExponential(1)})` : '';
    return `the conditions are too ill-conditioned for single shooting in double precision: one rounding unit of ${name} (${ulpOf(u[j]).toExponential(1)}) moves the residual of ${label} by ${one.toExponential(1)}${all}, its derivative in ${name} being ${J[worst * n + j].toExponential(1)}, and the residual computed along the run carries a rounding error of ${ROUNDINGS} times that or more, ${(ROUNDINGS * floorOfWorst).toExponential(1)}, above its tolerance ${res.tolerance(worst, R[worst]).toExponential(1)}: no value of the unknowns can be told to meet it. Split the range into shorter pieces (more unknowns and conditions that join them), rescale the model, or loosen the tolerances above that`;
  }

  /** What in the conditions themselves makes the (difference) Jacobian singular at iteration k, if anything. */
  private conflict(k: number): string | null {
    const { R, res } = this;
    const theta = 10 * Math.sqrt(Math.max(this.rtol, Number.EPSILON));
    const later = k > 0 ? `${res.names.map((name, i) => `${name} = ${this.u[i]}`).join(', ')} (iteration ${k})` : null;
    const tolerance = (i: number) => res.tolerance(i, R[i]);
    return conditionConflict(
      { J: this.J, n: this.n, R, tolerance, names: res.names, labels: res.labels, theta, overridden: res.overridden },
      later,
    );
  }

  /**
   * How far each unknown can move with every residual still within its tolerance, to first
   * order: sum_i |(J^-1)_ji| tol_i, with J the Jacobian at the converged iterate (`J`); null
   * where J is singular. The stopping test accepts any residual within the tolerance, so this
   * is what the conditions fix the unknowns to. Ordinarily it is a few times rtol (1 + |u|) (at
   * most 2.9 times over the 122 converged shots of the shooting tests); where the residual is
   * flat in an unknown at the solution it is far more: a double root (x'' = -4x + 2 delta(t -
   * a), x(0) = x'(0) = 0, x(2) = 1: the residual is sin(2(2 - a)) - 1 = -2 (a - a*)^2 + ...,
   * a* = 2 - pi/4) is met by every a within sqrt(tol/2) of a*, and the iteration stopped at
   * a* - 4.6e-4 at the default tolerances, status converged, with no word.
   */
  private spread(J: Float64Array): Float64Array | null {
    const { n, R, res } = this;
    const a = Float64Array.from(J),
      piv = new Int32Array(n);
    if (!luFactor(a, n, piv)) return null;
    const out = new Float64Array(n);
    const e = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      e.fill(0);
      e[i] = 1;
      luSolve(a, n, piv, e);
      const tol = res.tolerance(i, R[i]);
      for (let j = 0; j < n; j++) out[j] += Math.abs(e[j]) * tol;
    }
    for (let j = 0; j < n; j++) if (!Number.isFinite(out[j])) return null;
    return out;
  }

  /**
   * The warning for the unknowns the conditions fix only loosely at the converged iterate
   * (their {@link spread} above POORLY times rtol (1 + |u|)), or null: each with the spread
   * X, so that the caller knows its value is good to about ±X and no better.
   */
  private poorlyDetermined(J: Float64Array | null): string | null {
    if (J === null) return null;
    const spread = this.spread(J);
    if (spread === null) return null;
    const { n, u, res } = this;
    const parts: string[] = [];
    let worst = 0;
    for (let j = 0; j < n; j++) {
      const ratio = spread[j] / (this.rtol * (1 + Math.abs(u[j])));
      if (!(ratio > POORLY)) continue;
      worst = Math.max(worst, ratio);
      parts.push(`${res.names[j]} = ${u[j]} only to about ±${spread[j].toExponential(1)}`);
    }
    if (parts.length === 0) return null;
    const one = parts.length === 1;
    return `the boundary conditions determine ${parts.join(', ')}: every value within that keeps the residuals within their tolerances (up to ${worst.toPrecision(2)} times rtol (1 + |value|), where a well-posed condition fixes an unknown to a few times that), so the residual is nearly flat in ${one ? 'it' : 'them'} at the solution: a double root (the condition touches its target there, as at the top of a sine) or a condition that hardly depends on ${one ? 'it' : 'them'}. Tighter tolerances shrink the spread (at a double root only as their square root); a condition whose residual crosses zero with a clear slope fixes ${one ? 'it' : 'them'} better`;
  }

  private jacobianFailure(): string {
    return `a simulation near the iterate failed while forming the Jacobian: ${this.res.lastFailure}. Try another guess.`;
  }

  private done(status: ShootStatus, message: string | null): IterationEnd {
    return { kind: 'done', result: this.finish(status, message) };
  }

  /** The result: the last iterate, its residuals, the history, and the run at the unknowns found. */
  private finish(status: ShootStatus, message: string | null): ShootResult {
    const solution = this.res.solution(this.u);
    return {
      converged: status === 'converged',
      status,
      message,
      unknowns: this.res.record(this.u),
      residuals: recordOf(this.res.labels, this.R),
      iterations: this.iterations,
      residualEvaluations: this.res.shots,
      jacobianEvaluations: this.differences.evaluations,
      warnings: status === 'converged' ? this.warnings : [],
      solution,
    };
  }
}
