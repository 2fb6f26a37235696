/**
 * Coefficients of the Dormand–Prince 5(4) pair with its continuous extension.
 *
 * Sources: J. R. Dormand, P. J. Prince, "A family of embedded Runge–Kutta formulae",
 * J. Comput. Appl. Math. 6 (1980) 19–26; E. Hairer, S. P. Nørsett, G. Wanner, *Solving
 * Ordinary Differential Equations I* (2nd ed., 1993), Table II.5.2 (the tableau) and
 * Sect. II.6 with the DOPRI5 code (the dense output of Shampine, Math. Comp. 46 (1986)
 * 135–150, in the form of Hairer's `CONTD5`).
 *
 * Conventions shared by the tableau files (0-based stage index i):
 * - `c[i]` is the node of stage i; `a[i]` is row i of the strictly lower triangular
 *   matrix, of length i (so `a[0]` is empty); zeros are written out.
 * - The seventh stage of DOPRI5 is evaluated at the new point with row `a[6] = b`: it is
 *   the FSAL derivative f(t + h, y1), so the pair costs six evaluations per step.
 */
export interface ButcherTableau {
  /** number of stages, the length of `c`, `a` and `b` */
  readonly stages: number;
  readonly c: readonly number[];
  readonly a: readonly (readonly number[])[];
  /** weights of the propagated solution */
  readonly b: readonly number[];
}

export interface Dopri5Tableau extends ButcherTableau {
  /** weights of the embedded 4th-order solution b* */
  readonly bStar: readonly number[];
  /** error coefficients e = b − b*: the local error estimate is h · Σ e_i k_i */
  readonly e: readonly number[];
  /**
   * Dense output coefficients of Hairer's DOPRI5: with θ = (s − t₀)/h, θ₁ = 1 − θ,
   * u(θ) = y₀ + θ(Δ + θ₁(h k₁ − Δ + θ(Δ − h k₇ − (h k₁ − Δ) + θ₁ h Σ d_i k_i))),
   * Δ = y₁ − y₀. This is a 4th-order continuous extension.
   */
  readonly d: readonly number[];
}

function freezeRows(rows: number[][]): readonly (readonly number[])[] {
  return Object.freeze(rows.map((r) => Object.freeze(r)));
}

const b = Object.freeze([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0]);

export const DOPRI5: Dopri5Tableau = Object.freeze({
  stages: 7,
  c: Object.freeze([0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1, 1]),
  a: freezeRows([
    [],
    [1 / 5],
    [3 / 40, 9 / 40],
    [44 / 45, -56 / 15, 32 / 9],
    [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
    [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
    [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84],
  ]),
  b,
  bStar: Object.freeze([5179 / 57600, 0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100, 1 / 40]),
  e: Object.freeze([71 / 57600, 0, -71 / 16695, 71 / 1920, -17253 / 339200, 22 / 525, -1 / 40]),
  d: Object.freeze([
    -12715105075 / 11282082432,
    0,
    87487479700 / 32700410799,
    -10690763975 / 1880347072,
    701980252875 / 199316789632,
    -1453857185 / 822651844,
    69997945 / 29380423,
  ]),
});
