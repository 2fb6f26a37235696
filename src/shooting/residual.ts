/**
 * The residual of shooting, R(u): for unknowns u, the boundary conditions' misfits. Each
 * evaluation ("shot") is one simulation of the already compiled model (a reused
 * {@link Simulator}: no re-parsing, no recompiling), with the boundary points as probes in
 * the stop queue so that the integrator lands on them exactly. An interior delta is just an
 * event: the rope's kink needs no interface condition.
 *
 * What a shot needs besides the simulation (the parameter map, the probe times, the run's
 * options) is allocated once and rewritten in place.
 */
import type { CompiledModel } from '../codegen/compile.js';
import { SimulationInputError, type SimulateOptions, type SimulationResult } from '../driver/index.js';
import { Simulator } from '../analytic/index.js';
import { MIN_RTOL, resolveSettings } from '../driver/settings.js';
import { resolveRange } from '../driver/range.js';
import { initOverrides } from './diagnosis.js';

const EMPTY = new Float64Array(0);

/** The largest magnitude in v; NaN counts as infinitely large (a failed residual). */
export function maxAbs(v: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < v.length; i++) m = Math.max(m, Math.abs(v[i]));
  return Number.isNaN(m) ? Infinity : m;
}

export class ShootingResidual {
  /** the unknowns, in declaration order */
  readonly names: readonly string[];
  readonly n: number;
  /** the conditions as written, `y(10) = 8` */
  readonly labels: readonly string[];
  /** simulations run so far */
  shots = 0;
  /** why the last shot that failed failed, in words */
  lastFailure: string | null = null;
  private readonly simulator: Simulator;
  private readonly bcs: CompiledModel['boundary'];
  /** the caller's parameter values with the unknowns' current ones, rewritten per shot */
  private readonly set: Map<string, number>;
  private readonly probes: number[];
  private readonly shotOptions: SimulateOptions;
  private readonly solutionOptions: SimulateOptions;
  /** each condition's value at the guess: the scale of its tolerance */
  private readonly targets: Float64Array;

  constructor(
    readonly model: CompiledModel,
    private readonly options: SimulateOptions,
    readonly rtol: number,
    private readonly atol: number,
  ) {
    const sys = model.system;
    this.names = sys.parameters.filter((q) => q.unknown).map((q) => q.name);
    this.n = this.names.length;
    this.bcs = model.boundary;
    this.labels = this.bcs.map((b) => b.label);
    this.simulator = new Simulator(model);
    this.set = new Map(options.set instanceof Map ? options.set : Object.entries(options.set ?? {}));
    this.probes = this.bcs.map(() => NaN);
    // (a shot keeps no rows and no dense solution: only the solution's run does, if asked; nor
    // does it hand its ledger to the caller's sink, which got every shot's events besides the
    // solution's)
    const { sink: _sink, ...shot } = options;
    this.shotOptions = {
      ...shot,
      set: this.set,
      record: false,
      eventValues: false,
      probes: this.probes,
      dense: false,
    };
    this.solutionOptions = { ...options, set: this.set };
    const p = model.parameters(this.set);
    this.targets = Float64Array.from(this.bcs, (bc) => bc.value(NaN, EMPTY, p, EMPTY, EMPTY));
  }

  /** unknown -> the states whose initial value the caller's init gives in place of the model's, which uses it */
  get overridden(): ReadonlyMap<string, readonly string[]> {
    return (this.overrides ??= initOverrides(this.model, this.options.init, this.names));
  }
  private overrides: Map<string, string[]> | undefined;

  /** The unknowns' first guess (their declared values, or the caller's `set`). */
  guess(): Float64Array {
    const p = this.model.parameters(this.set);
    return Float64Array.from(this.names, (name) => p[this.model.paramNames.indexOf(name)]);
  }

  /** What the integration can resolve in residual i: residuals are state values, accurate to about atol + rtol*|value|. */
  tolerance(i: number, Ri: number): number {
    return 10 * this.atol + this.rtol * Math.max(1, Math.abs(Ri + this.targets[i]));
  }

  /** The largest tolerance over the conditions at residual R. */
  maxTolerance(R: Float64Array): number {
    let m = 0;
    for (let i = 0; i < this.n; i++) m = Math.max(m, this.tolerance(i, R[i]));
    return m;
  }

  /** Every residual within its tolerance. */
  within(R: Float64Array): boolean {
    for (let i = 0; i < this.n; i++) if (!(Math.abs(R[i]) <= this.tolerance(i, R[i]))) return false;
    return true;
  }

  /** R(u) into out (NaN where a shot failed); false when the simulation failed or a residual is not finite. */
  evaluate(u: Float64Array, out: Float64Array): boolean {
    this.setUnknowns(u);
    const p = this.model.parameters(this.set);
    for (let i = 0; i < this.n; i++) this.probes[i] = this.bcs[i].at(NaN, EMPTY, p, EMPTY, EMPTY);
    this.shots++;
    let run: SimulationResult;
    try {
      run = this.simulator.run(this.shotOptions);
    } catch (err) {
      // unknowns for which the run cannot be made (a parameter defined from one is NaN there,
      // q = sqrt(p - 2) at p < 2) are a failed shot, as a run that fails is: the iteration
      // steps back from them (the options were checked before the first shot)
      if (!(err instanceof SimulationInputError)) throw err;
      this.lastFailure = err.message;
      out.fill(NaN);
      return false;
    }
    // A run that stopped (zeno) or failed after every condition's point has what the residual
    // needs: a ball whose bounces accumulate at t = 13 is shot for h(1) = 8 all the same. One
    // that ended before a point says so below.
    const got = run.probes!;
    for (let i = 0; i < this.n; i++) {
      const probe = probeAt(got, this.probes[i]);
      if (!probe) {
        const x = this.model.system.independent;
        const line = this.model.system.boundaryConditions[i].span.line;
        this.lastFailure = `the run ended at ${x} = ${run.final[x]} (${run.status}${run.message ? `: ${run.message}` : ''}), before ${x} = ${this.probes[i]}, where ${this.bcs[i].label} (line ${line}) is to hold`;
        out.fill(NaN);
        return false;
      }
      out[i] =
        this.bcs[i].state(this.probes[i], probe.y, p, probe.d, EMPTY) - this.bcs[i].value(NaN, EMPTY, p, EMPTY, EMPTY);
    }
    for (let i = 0; i < this.n; i++)
      if (!Number.isFinite(out[i])) {
        // (a condition whose value is not a number there, y(1) = log(v) at v = -1: said, not "null")
        const line = this.model.system.boundaryConditions[i].span.line;
        this.lastFailure = `the residual of ${this.bcs[i].label} (line ${line}) is ${out[i]} at ${this.names.map((nm, j) => `${nm} = ${u[j]}`).join(', ')}`;
        return false;
      }
    return true;
  }

  /**
   * The same residual with the integration refined, starting from unknowns u: tolerances 100
   * times tighter (rtol not below MIN_RTOL) for an adaptive method, half the fixed step for
   * rk4 and euler. What moves between the two is the integration's error.
   */
  refined(u: Float64Array): ShootingResidual {
    const settings = resolveSettings(this.model, this.options);
    const rtol = Math.max(this.rtol / 100, MIN_RTOL),
      atol = this.atol / 100;
    this.setUnknowns(u);
    const options: SimulateOptions = { ...this.options, rtol, atol, set: new Map(this.set) };
    if (settings.method === 'rk4' || settings.method === 'euler') {
      const { t0, tEnd } = resolveRange(this.model, this.model.parameters(this.set), this.options);
      options.step = (settings.step ?? (Math.abs(tEnd - t0) / 1000 || 1)) / 2;
    }
    return new ShootingResidual(this.model, options, rtol, atol);
  }

  /** The full run (rows, ledger) for unknowns u. */
  solution(u: Float64Array): SimulationResult {
    this.setUnknowns(u);
    return this.simulator.run(this.solutionOptions);
  }

  /** u as a record by name, for the result and its history. */
  record(u: ArrayLike<number>): Record<string, number> {
    return byName(this.names, u);
  }

  private setUnknowns(u: Float64Array): void {
    for (let i = 0; i < this.n; i++) this.set.set(this.names[i], u[i]);
  }
}

/** A record without a prototype: a user's name (`constructor`) never meets Object.prototype. */
export function byName(names: readonly string[], values: ArrayLike<number>): Record<string, number> {
  const r = Object.create(null) as Record<string, number>;
  names.forEach((n, i) => {
    r[n] = values[i];
  });
  return r;
}

type Probe = NonNullable<SimulationResult['probes']>[number];

function probeAt(probes: readonly Probe[], t: number): Probe | undefined {
  for (const q of probes) if (q.t === t) return q;
  return undefined;
}
