/**
 * The error of a stiff method's dense output at a point inside a step, from its defect there
 * (rodas.ts and radau5.ts check their interpolants so). With d = h·(p' − f(p)) and the
 * defect filtered as the methods filter their error estimates, e = (I − hγJ)⁻¹·d: for a slow
 * component e is d, about the error; for a stiff one (rate λ, |hλ| large) d is −hλ times the
 * interpolant's distance δ from the slow manifold, and e is hλδ/(1 − hγλ), up to δ/γ (4δ for
 * RODAS). Unscaled, that held a state's distance from the manifold to a quarter of the
 * tolerance: y' = −1e6 (y − sin t) on rodas at rtol 1e-10 was held to steps of 1e-6 where the
 * state itself is only good to the tolerance, and failed. With R = |d/e| = |1 − hγλ| the
 * distance itself is e·(γ + 1/|hλ|) = e·γR/(R − 1), exactly for a linear component; a slow
 * one (R near 1) keeps e.
 */
export function defectError(d: number, e: number, gamma: number): number {
  const ad = Math.abs(d),
    ae = Math.abs(e);
  if (!(ae > 0)) return 0;
  const r = ad / ae;
  return r > 1 ? ae * Math.min(1, (gamma * r) / (r - 1)) : ae;
}
