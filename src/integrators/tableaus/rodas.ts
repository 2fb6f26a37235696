/**
 * Coefficients of RODAS (Hairer & Wanner, *Solving Ordinary Differential Equations II*, 2nd
 * ed., Sect. VI.4 and IV.7; E. Hairer's Fortran code `rodas.f`, subroutine ROCOE with
 * METH = 1): a stiffly accurate, L-stable Rosenbrock method of order 4 with an embedded
 * solution of order 3 and a continuous extension of order 3. The numbers are those of
 * ROCOE as transcribed in SciML's OrdinaryDiffEq.jl (`Rodas4Tableau`).
 *
 * They are in Hairer's transformed form (stage increments u_i = Σ_j γ_ij k_j), which needs
 * no matrix-vector product with the Jacobian:
 *   (I/(hγ) − J) u_i = f(t + c_i h, y + Σ_{j<i} a_ij u_j) + (1/h) Σ_{j<i} C_ij u_j + h d_i f_t,
 * with c_5 = c_6 = 1, d_5 = d_6 = 0, the 6th stage at y + Σ a_5j u_j + u_5, and
 *   y₁ = y + Σ_{j<5} a_5j u_j + u_5 + u_6,
 * so u_6 is the difference to the embedded 3rd-order solution (the error estimate).
 * Dense output: with k̂₁ = Σ_{j≤5} h2j u_j, k̂₂ = Σ_{j≤5} h3j u_j,
 *   y(θ) = (1 − θ) y₀ + θ (y₁ + (1 − θ)(k̂₁ + θ k̂₂)).
 */
export const RODAS = Object.freeze({
  gamma: 0.25,
  /** a[i][j]: rows for stages 2..5 (index 1..4); a[4] is also the weight row of y₁ */
  a: Object.freeze([
    Object.freeze([]),
    Object.freeze([1.544]),
    Object.freeze([0.9466785280815826, 0.2557011698983284]),
    Object.freeze([3.314825187068521, 2.896124015972201, 0.9986419139977817]),
    Object.freeze([1.221224509226641, 6.019134481288629, 12.53708332932087, -0.687886036105895]),
  ]) as readonly (readonly number[])[],
  /** C[i][j]: rows for stages 2..6 (index 1..5) */
  C: Object.freeze([
    Object.freeze([]),
    Object.freeze([-5.6688]),
    Object.freeze([-2.430093356833875, -0.2063599157091915]),
    Object.freeze([-0.1073529058151375, -9.594562251023355, -20.47028614809616]),
    Object.freeze([7.496443313967647, -10.24680431464352, -33.99990352819905, 11.7089089320616]),
    Object.freeze([8.083246795921522, -7.981132988064893, -31.52159432874371, 16.31930543123136, -6.058818238834054]),
  ]) as readonly (readonly number[])[],
  /** nodes of stages 1..6 */
  c: Object.freeze([0, 0.386, 0.21, 0.63, 1, 1]) as readonly number[],
  /** time-derivative weights of stages 1..6 */
  d: Object.freeze([0.25, -0.1043, 0.1035, -0.03620000000000023, 0, 0]) as readonly number[],
  /** dense output: k̂₁ = Σ h2[j] u_j, k̂₂ = Σ h3[j] u_j (j = 1..5) */
  h2: Object.freeze([
    10.12623508344586, -7.487995877610167, -34.80091861555747, -7.992771707568823, 1.025137723295662,
  ]) as readonly number[],
  h3: Object.freeze([
    -0.6762803392801253, 6.087714651680015, 16.43084320892478, 24.76722511418386, -6.594389125716872,
  ]) as readonly number[],
});
