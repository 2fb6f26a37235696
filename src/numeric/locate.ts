/**
 * Root bracketing on the dense output (Illinois variant of regula falsi, with a bisection
 * safeguard), to a tolerance relative to t: the bracket collapses to neighbouring doubles.
 * An absolute tolerance would fail on small time scales (scipy#15262).
 */

/** The collapsed bracket: g(left) has the sign before the crossing, g(right) is on or past zero. */
export interface Bracket { left: number; right: number }

const MAX_ITERATIONS = 200;

/**
 * Finds the crossing of g in [a, b], where g(a) = ga != 0 and g(b) = gb has the other sign or
 * is 0. Works in either direction of t (a > b is fine). Writes the result into `out`.
 */
export function locateCrossing(g: (s: number) => number, a: number, ga: number, b: number, gb: number, out: Bracket): Bracket {
  let side = 0; // which end was kept twice in a row (Illinois halving)
  // The sign before the crossing, fixed: halving a tiny ga may round it to 0.
  const signA = Math.sign(ga);
  let zeroWalk = 0;
  // the size of g at the ends: a secant value far below it means the point is next to the root
  const scale = Math.max(Math.abs(ga), Math.abs(gb));
  let widthAtHalving = Math.abs(b - a), sinceHalved = 0;
  for (let k = 0; k < MAX_ITERATIONS; k++) {
    const width = Math.abs(b - a);
    const tol = 2 * Number.EPSILON * Math.max(Math.abs(a), Math.abs(b), 1e-300);
    if (width <= tol) break;
    let s: number;
    if (gb === 0) {
      // b is a zero (g is often exactly 0 over a few ulps near the root): walk back towards a
      // in doubling steps until the sign before the crossing shows.
      zeroWalk = zeroWalk === 0 ? tol : 2 * zeroWalk;
      s = b - Math.sign(b - a) * Math.min(zeroWalk, 0.5 * width);
    } else {
      zeroWalk = 0;
      s = b - (gb * (b - a)) / (gb - ga);
      // keep the new point strictly inside, away from the ends: a false-position step that
      // lands on an end would not shrink the bracket
      const lo = Math.min(a, b), hi = Math.max(a, b);
      // bisect only when the bracket has stopped shrinking (three evaluations without halving)
      if (!(s > lo && s < hi) || sinceHalved >= 3) s = 0.5 * (a + b);
    }
    if (s === a || s === b) break;
    const gs = g(s);
    if (gs === 0 || Math.sign(gs) !== signA) {
      b = s; gb = gs;
      if (side === -1) ga *= 0.5;
      side = -1;
    } else {
      a = s; ga = gs;
      if (side === 1) gb *= 0.5;
      side = 1;
    }
    sinceHalved++;
    if (Math.abs(b - a) <= 0.5 * widthAtHalving) { widthAtHalving = Math.abs(b - a); sinceHalved = 0; }
    // A secant point near the root: one probe a tolerance width
    // back towards the far end then collapses the bracket, where regula falsi alone would
    // creep towards it from one side.
    const probeTol = 2 * Number.EPSILON * Math.max(Math.abs(a), Math.abs(b), 1e-300);
    if (Math.abs(b - a) > probeTol && Math.abs(gs) <= 1e-6 * scale) {
      const q = side === -1 ? b - Math.sign(b - a) * probeTol : a + Math.sign(b - a) * probeTol;
      if ((q - a) * (q - b) < 0) {
        const gq = g(q);
        if (gq === 0 || Math.sign(gq) !== signA) { b = q; gb = gq; } else { a = q; ga = gq; }
      }
    }
  }
  out.left = a;
  out.right = b;
  return out;
}

