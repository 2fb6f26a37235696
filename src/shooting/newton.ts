/**
 * Shooting: find the `unknown`s so that the boundary conditions hold.
 *
 * Each residual evaluation is one simulation of the already compiled model (a reused
 * {@link Simulator}: no re-parsing, no recompiling), with the boundary points as probes in
 * the stop queue so the integrator lands on them exactly. An interior delta is just an event:
 * the rope's kink needs no interface condition.
 *
 * Newton's method with a central-difference Jacobian (steps scaled to each unknown and to the
 * integration tolerance, so that the difference error and the integration noise balance),
 * solved by LU (ml-matrix), with backtracking on the residual norm. It stops when the
 * residuals are at the level the integration tolerances can resolve, or when the step is.
 */
import { LuDecomposition, Matrix } from 'ml-matrix';
import type { CompiledModel } from '../transform/compile.js';
import { Simulator, type SimulateOptions, type SimulationResult } from '../numeric/simulate.js';

export interface ShootOptions extends SimulateOptions {
  maxIterations?: number;
}

export type ShootStatus = 'converged' | 'converged_step' | 'max_iter' | 'singular' | 'failed';

export interface ShootIteration { k: number; unknowns: Record<string, number>; residualNorm: number }

export interface ShootResult {
  converged: boolean;
  status: ShootStatus;
  message: string | null;
  unknowns: Record<string, number>;
  residuals: Record<string, number>;
  iterations: ShootIteration[];
  /** shots (simulations) spent, Jacobians included */
  residualEvaluations: number;
  solution: SimulationResult | null;
}

export class ShootInputError extends Error {}

function record(names: string[], values: ArrayLike<number>): Record<string, number> {
  const r = Object.create(null) as Record<string, number>;
  names.forEach((n, i) => { r[n] = values[i]; });
  return r;
}

const maxAbs = (v: ArrayLike<number>) => { let m = 0; for (let i = 0; i < v.length; i++) m = Math.max(m, Math.abs(v[i])); return Number.isNaN(m) ? Infinity : m; };

export function shoot(model: CompiledModel, options: ShootOptions = {}): ShootResult {
  const sys = model.system;
  const unknownNames = sys.parameters.filter((q) => q.unknown).map((q) => q.name);
  const n = unknownNames.length;
  const bcs = model.boundary;
  if (n === 0) throw new ShootInputError(`${sys.model} has no unknowns: declare them with 'unknown NAME = GUESS'`);
  if (bcs.length !== n) throw new ShootInputError(`${sys.model} has ${n} unknown(s) and ${bcs.length} boundary condition(s); shooting needs as many conditions as unknowns`);

  const baseSet = new Map(options.set instanceof Map ? options.set : Object.entries(options.set ?? {}));
  const guess = model.parameters(baseSet);
  const u = new Float64Array(n);
  unknownNames.forEach((name, i) => { u[i] = guess[model.paramNames.indexOf(name)]; });

  const simulator = new Simulator(model);
  const rtol = options.rtol ?? (sys.options.get('rtol')?.value as number | undefined) ?? 1e-6;
  const atol = options.atol ?? (sys.options.get('atol')?.value as number | undefined) ?? 1e-9;
  let shots = 0;
  let lastFailure: string | null = null;

  /** R(u) into out; false when the simulation fails. */
  const residual = (uu: Float64Array, out: Float64Array): boolean => {
    const set = new Map(baseSet);
    unknownNames.forEach((name, i) => set.set(name, uu[i]));
    const p = model.parameters(set);
    const probes = bcs.map((bc) => bc.at(NaN, EMPTY, p, EMPTY, EMPTY));
    shots++;
    const run = simulator.run({ ...options, set, record: false, probes });
    if (run.status === 'failed' || run.status === 'zeno') {
      lastFailure = `the simulation for ${unknownNames.map((nm, i) => `${nm} = ${uu[i]}`).join(', ')} ended with status ${run.status}: ${run.message}`;
      out.fill(NaN);
      return false;
    }
    const got = run.probes!;
    for (let i = 0; i < n; i++) {
      const probe = got.find((q) => q.t === probes[i]);
      if (!probe) { lastFailure = `the run stopped before ${sys.independent} = ${probes[i]}, where ${bcs[i].label} is to hold`; out.fill(NaN); return false; }
      out[i] = bcs[i].state(probes[i], probe.y, p, probe.d, EMPTY_SW) - bcs[i].value(NaN, EMPTY, p, EMPTY, EMPTY);
    }
    return out.every(Number.isFinite);
  };

  const R = new Float64Array(n), Rtrial = new Float64Array(n), Rp = new Float64Array(n), Rm = new Float64Array(n);
  const iterations: ShootIteration[] = [];
  const finish = (status: ShootStatus, message: string | null): ShootResult => {
    const set = new Map(baseSet);
    unknownNames.forEach((name, i) => set.set(name, u[i]));
    const solution = simulator.run({ ...options, set });
    return {
      converged: status === 'converged' || status === 'converged_step', status, message,
      unknowns: record(unknownNames, u), residuals: record(bcs.map((b) => b.label), R),
      iterations, residualEvaluations: shots, solution,
    };
  };

  if (!residual(u, R)) return finish('failed', `the first guess does not simulate: ${lastFailure}. Try another guess.`);
  const maxIterations = options.maxIterations ?? 50;
  // What the integration can resolve: residuals are state values, accurate to about atol + rtol*|value|.
  const residualTol = (i: number) => 10 * atol + rtol * Math.max(1, Math.abs(R[i] + bcs[i].value(NaN, EMPTY, model.parameters(baseSet), EMPTY, EMPTY)));
  const relStep = Math.cbrt(Math.max(rtol, Number.EPSILON)); // central differences: h^2 ~ noise/h

  for (let k = 0; ; k++) {
    const norm = maxAbs(R);
    iterations.push({ k, unknowns: record(unknownNames, u), residualNorm: norm });
    if (R.every((r, i) => Math.abs(r) <= residualTol(i))) return finish('converged', null);
    if (k >= maxIterations) return finish('max_iter', `no convergence in ${maxIterations} iterations (residual ${norm.toExponential(2)}); try a better guess or looser tolerances`);

    // Jacobian by central differences, one column per unknown.
    const J = new Matrix(n, n);
    for (let j = 0; j < n; j++) {
      const h = relStep * Math.max(1, Math.abs(u[j]));
      const up = u.slice(), um = u.slice();
      up[j] += h; um[j] -= h;
      const okP = residual(up, Rp), okM = residual(um, Rm);
      if (!okP || !okM) return finish('failed', `a simulation near the iterate failed while forming the Jacobian: ${lastFailure}. Try another guess.`);
      for (let i = 0; i < n; i++) J.set(i, j, (Rp[i] - Rm[i]) / (up[j] - um[j]));
    }
    const lu = new LuDecomposition(J);
    if (lu.isSingular()) return finish('singular', `the Jacobian is singular at iteration ${k}: the boundary conditions do not depend on (some of) the unknowns ${unknownNames.join(', ')} here; try another guess`);
    const du = lu.solve(Matrix.columnVector(Array.from(R, (r) => -r))).to1DArray();
    if (!du.every(Number.isFinite)) return finish('singular', `the Newton step is not finite at iteration ${k}; try another guess`);

    // Backtracking: halve the step until the residual norm decreases.
    let lambda = 1;
    const trial = new Float64Array(n);
    let accepted = false;
    for (let halvings = 0; halvings < 12; halvings++) {
      for (let i = 0; i < n; i++) trial[i] = u[i] + lambda * du[i];
      if (residual(trial, Rtrial) && maxAbs(Rtrial) < (1 - 1e-4 * lambda) * norm) { accepted = true; break; }
      lambda /= 2;
    }
    const stepSize = maxAbs(du.map((x) => x * lambda));
    if (!accepted) {
      // No decrease: at the noise floor of the integration, or a bad direction.
      if (stepSize <= 1e3 * rtol * (1 + maxAbs(u))) return finish('converged_step', null);
      return finish('failed', `the Newton step does not reduce the residual (${norm.toExponential(2)}) at iteration ${k}${lastFailure ? `: ${lastFailure}` : ''}; try another guess`);
    }
    u.set(trial);
    R.set(Rtrial);
    if (stepSize <= 10 * rtol * (1 + maxAbs(u)) && maxAbs(R) <= 1e3 * Math.max(...R.map((_, i) => residualTol(i)))) {
      iterations.push({ k: k + 1, unknowns: record(unknownNames, u), residualNorm: maxAbs(R) });
      return finish('converged_step', null);
    }
  }
}

const EMPTY = new Float64Array(0);
const EMPTY_SW = new Float64Array(0);
