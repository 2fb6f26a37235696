/**
 * The contract between an integrator family and the event driver.
 *
 * 1. A stepper owns its work arrays: they are allocated once in the factory, for a fixed
 *    dimension `n`; `reset`, `step` and `interpolate` never allocate.
 * 2. The right-hand side is `f(t, y, dydt)`: it reads `y` (length n) and writes `dydt`
 *    (length n); it must not keep either array.
 * 3. `reset(t, y)` (re)starts at (t, y): it copies `y`, evaluates f there (the cached
 *    derivative is always recomputed after a state change, as in Hairer's DOPRI5 after an
 *    event) and forgets the previous step-size proposal unless `hInit` is given.
 * 4. `step(tLimit)` makes one accepted step towards `tLimit` and never past it; it lands on
 *    `tLimit` exactly (the value itself, not a sum that rounds near it) when it reaches it.
 *    The direction of integration is the sign of `tLimit - t`. Rejected attempts are retried
 *    inside the call. It returns a {@link StepOutcome}; after `'accepted'` the step spans
 *    [tPrev, t], and `interpolate` is valid on that interval.
 * 5. `interpolate(s, out)` writes the dense-output state at s (between tPrev and t) into
 *    `out`. Coefficients that only dense output needs are computed lazily, once per step.
 * 6. Counters in `stats` accumulate across resets until `resetStats()`.
 */
export interface Stepper {
  readonly method: MethodName;
  /** dimension of the state */
  readonly n: number;
  /** classical order of the propagated solution */
  readonly order: number;
  /** whether the step size is controlled by an error estimate */
  readonly adaptive: boolean;
  /** current time (end of the last accepted step) */
  t: number;
  /** start of the last accepted step */
  tPrev: number;
  /** state at t (length n); read it, do not write it: use reset() to change the state */
  readonly y: Float64Array;
  /** state at tPrev */
  readonly yPrev: Float64Array;
  /** f(t, y), kept current (FSAL) */
  readonly dydt: Float64Array;
  /** the size of the last accepted step (signed) */
  hLast: number;
  /**
   * The smallest step the caller can still tell apart, besides 16 ulps of t (default 0).
   * A caller that counts t from a moving origin (the Simulator restarts t at 0 after each
   * event and keeps the absolute time in two doubles) sets it to the resolution of its
   * absolute time, so a step can be far below an ulp of the absolute time but a collapsing
   * step size still fails after the usual few dozen rejections.
   */
  minStep: number;
  /**
   * How much the step may grow after the first accepted step of a (re)start where the error
   * allows (default 1e4, as CVODE; later steps: the method's facMax). A caller that watches
   * functions a long step could jump over without a trace (a bump of exp(-(x - 35)^2) while
   * x moves uniformly) sets it to 1, which leaves the method's facMax.
   */
  firstStepGrowth: number;
  readonly stats: StepperStats;

  reset(t: number, y: ArrayLike<number>, hInit?: number): void;
  step(tLimit: number): StepOutcome;
  interpolate(s: number, out: Float64Array): void;
  /**
   * Like `interpolate`, for the components listed in `idx` only (out[idx[j]] is written,
   * the rest of out is left alone): a root finder refining one event function of a row of
   * 1024 spheres needs two positions, not 2048 states.
   */
  interpolateSome(s: number, idx: Int32Array, out: Float64Array): void;
  resetStats(): void;
}

/**
 * euler (fixed-step forward Euler, to reproduce tools that use it), rk4, dopri5, dop853:
 * explicit Runge–Kutta; rodas: linearly implicit (Rosenbrock, order 4) for stiff problems;
 * radau5: implicit Runge–Kutta (Radau IIA, order 5) for stiff problems at tight tolerances;
 * auto: dopri5, switching to an implicit method (rodas, or radau5 at tight tolerances) and
 * back as the problem's stiffness changes.
 */
export type MethodName = 'euler' | 'rk4' | 'dopri5' | 'dop853' | 'rodas' | 'radau5' | 'auto';

/** (here, with the types, so that the command line can list them without loading a stepper) */
/** the integration methods: the explicit ones in order of increasing order, the implicit ones, and auto */
export const METHODS: readonly MethodName[] = Object.freeze([
  'euler',
  'rk4',
  'dopri5',
  'dop853',
  'rodas',
  'radau5',
  'auto',
] as const);

export type StepOutcome =
  | 'accepted'
  /** the controller wanted a step below the resolution of t (about 16 ulp) */
  | 'stepSizeUnderflow'
  /** f produced NaN or infinity and shrinking the step did not help */
  | 'nonFinite';

export interface StepperStats {
  steps: number;
  rejected: number;
  rhsEvaluations: number;
  /** auto: the method in use (it changes as auto switches) */
  method?: string;
  /** auto: how often it switched between its explicit and its implicit method */
  switches?: number;
  /** auto: why the method in use was chosen (see auto.ts) */
  methodReason?: string;
  /** rodas, radau5 (and auto once it used one): evaluations of the Jacobian (exact or by differences) */
  jacobians?: number;
  /** rodas, radau5: factorisations of the iteration matrix (radau5: one real and one complex LU each) */
  factorizations?: number;
  /** radau5: iterations of its simplified Newton method, those of rejected attempts included */
  newtonIterations?: number;
}

export type Rhs = (t: number, y: Float64Array, dydt: Float64Array) => void;

export interface StepperOptions {
  /** relative tolerance (adaptive methods) */
  rtol: number;
  /** absolute tolerance, one for all components */
  atol: number;
  /** largest step magnitude (adaptive), or THE step magnitude (rk4); Infinity: no limit */
  hMax: number;
  /** rk4 only: the fixed step magnitude */
  hFixed?: number;
  /** radau5 only, for measuring its order: steps of exactly hMax, the error estimate ignored */
  uncontrolled?: boolean;
  /**
   * Whether the caller reads the dense output between the ends of the steps (events and
   * switches located on it, rows interpolated from it); default true. False lets radau5 size
   * its steps for the accuracy of their ends alone (see radau5.ts, DENSE_TOL_FACTOR).
   */
  denseOutput?: boolean;
  /**
   * Implicit methods: the exact Jacobian, made on first use (compiling it costs a symbolic
   * differentiation that a run staying explicit should not pay). Absent or null: finite
   * differences.
   */
  jacobian?: () => JacobianFunctions | null;
}

/** ∂f/∂y and ∂f/∂t of a right-hand side (see StepperOptions.jacobian). */
export interface JacobianFunctions {
  /**
   * Writes ∂f_i/∂y_j into out[i·n + j] (row-major n×n), the entries that can be nonzero only:
   * the stepper zeroes out once. Returns false when it cannot at this point (the stepper then
   * uses finite differences for this step).
   */
  dfdy(t: number, y: Float64Array, out: Float64Array): boolean;
  /**
   * The same in band storage, when the Jacobian is banded enough to be kept so (codegen/jacobian.ts,
   * bandPays): entry (i, j) at out[i·(lower + upper + 1) + (j − i + lower)]. A stepper that
   * stores the band uses it (and never an n×n array); null or absent: not offered.
   */
  dfdyBand?: ((t: number, y: Float64Array, out: Float64Array) => boolean) | null;
  /** ∂f/∂t into out (length n); null when f does not read t */
  dfdt: ((t: number, y: Float64Array, out: Float64Array) => void) | null;
  /** lower and upper bandwidth of ∂f/∂y (entry (i, j) is zero unless −lower ≤ j − i ≤ upper) */
  lower: number;
  upper: number;
}
