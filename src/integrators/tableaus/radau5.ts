/**
 * Coefficients of RADAU5 (Hairer & Wanner, *Solving Ordinary Differential Equations II*, 2nd
 * ed., Sect. IV.5 and IV.8; E. Hairer's Fortran code `radau5.f`, version of July 9, 1996,
 * latest small correction January 18, 2002, subroutine RADCOR, block "CONSTANTS"): the
 * Radau IIA collocation method with three stages, of order 5, stiffly accurate and L-stable.
 *
 * Nodes c = ((4 − √6)/10, (4 + √6)/10, 1); the Butcher matrix A below (Sect. IV.5, Table 5.6)
 * is not used by the stepper, which works in the coordinates that diagonalise A⁻¹, but the
 * tests check the order conditions on it and the transformation against it:
 *   T⁻¹ A⁻¹ T = [[γ, 0, 0], [0, α, −β], [0, β, α]],
 * so the Newton system of the 3n stage increments splits into a real n×n system with
 * (γ/h) I − J and a complex one with ((α + iβ)/h) I − J. T and T⁻¹ are radau5.f's T11..T31
 * (T32 = 1, T33 = 0) and TI11..TI33, given there to 20 digits; γ, α, β are radau5.f's
 * 1/U1, ALPH/CNO, BETA/CNO, from the closed forms it computes them by.
 *
 * Error estimate (radau5.f, ESTRAD): with the stage increments Z_i = Y_i − y₀,
 *   err = (I − h J/γ)⁻¹ (h/γ) [f(x₀, y₀) + (e₁ Z₁ + e₂ Z₂ + e₃ Z₃)/h],
 * e = (−(13 + 7√6)/3, (−13 + 7√6)/3, −1/3): the difference of y₁ and an embedded solution of
 * order 3 that also uses f(x₀, y₀), filtered by (I − hJ/γ)⁻¹ so that it stays bounded for
 * stiff components.
 *
 * Continuous output (radau5.f, CONTR5): the collocation polynomial through y₀, Y₁, Y₂, y₁,
 * written in s = (x − x₁)/h ∈ [−1, 0] with the coefficients RADCOR stores after a step:
 *   u(s) = y₁ + s (d₁ + (s − c₂ + 1)(d₂ + (s − c₁ + 1) d₃)),
 *   d₁ = (Z₂ − Z₃)/(c₂ − 1), a = (Z₁ − Z₂)/(c₁ − c₂), d₂ = (a − d₁)/(c₁ − 1),
 *   d₃ = d₂ − (a − Z₁/c₁)/c₂.
 */
const SQ6 = Math.sqrt(6);
const CBRT81 = Math.cbrt(81);
const CBRT9 = Math.cbrt(9);
/** radau5.f: U1, ALPH, BETA before their inversion (the eigenvalues of A, not of A⁻¹) */
const U1 = (6 + CBRT81 - CBRT9) / 30;
const ALPH = (12 - CBRT81 + CBRT9) / 60;
const BETA = ((CBRT81 + CBRT9) * Math.sqrt(3)) / 60;
const CNO = ALPH * ALPH + BETA * BETA;

export const RADAU5 = Object.freeze({
  /** nodes */
  c: Object.freeze([(4 - SQ6) / 10, (4 + SQ6) / 10, 1]) as readonly number[],
  /** Butcher matrix (rows = stages), Hairer & Wanner II, Table IV.5.6; its last row is b */
  A: Object.freeze([
    Object.freeze([(88 - 7 * SQ6) / 360, (296 - 169 * SQ6) / 1800, (-2 + 3 * SQ6) / 225]),
    Object.freeze([(296 + 169 * SQ6) / 1800, (88 + 7 * SQ6) / 360, (-2 - 3 * SQ6) / 225]),
    Object.freeze([(16 - SQ6) / 36, (16 + SQ6) / 36, 1 / 9]),
  ]) as readonly (readonly number[])[],
  /** the real eigenvalue of A⁻¹ (radau5.f: U1 after U1 = 1/U1) */
  gamma: 1 / U1,
  /** the complex pair α ± iβ of A⁻¹ (radau5.f: ALPH, BETA after division by CNO) */
  alpha: ALPH / CNO,
  beta: BETA / CNO,
  /** T (rows); radau5.f T11..T31, with T32 = 1, T33 = 0 */
  T: Object.freeze([
    Object.freeze([9.1232394870892942792e-2, -0.14125529502095420843, -3.0029194105147424492e-2]),
    Object.freeze([0.24171793270710701896, 0.20412935229379993199, 0.38294211275726193779]),
    Object.freeze([0.96604818261509293619, 1, 0]),
  ]) as readonly (readonly number[])[],
  /** T⁻¹ (rows); radau5.f TI11..TI33 */
  TI: Object.freeze([
    Object.freeze([4.325579890063155351, 0.33919925181580986954, 0.54177053993587487119]),
    Object.freeze([-4.1787185915519047273, -0.32768282076106238708, 0.47662355450055045196]),
    Object.freeze([-0.50287263494578687595, 2.5719269498556054292, -0.59603920482822492497]),
  ]) as readonly (readonly number[])[],
  /** weights of the error estimate (radau5.f: DD1, DD2, DD3) */
  e: Object.freeze([-(13 + 7 * SQ6) / 3, (-13 + 7 * SQ6) / 3, -1 / 3]) as readonly number[],
});
