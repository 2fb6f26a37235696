/**
 * Root bracketing on the dense output, to a tolerance relative to t: the bracket collapses to
 * neighbouring doubles, or to the caller's `resolution` if that is wider. An absolute
 * tolerance would fail on small time scales (scipy#15262).
 *
 * When the caller knows the slope of g (an event function's rate is known symbolically, so
 * every evaluation comes with it) each new point is the root of the cubic Hermite
 * interpolant through both ends of the bracket; otherwise, and whenever that stops
 * converging fast, the Illinois variant of regula falsi. On curved functions regula falsi
 * creeps in from one side (a falling ball's height, in a step that overshot the bounce by
 * 10^5 flight times: about 25 evaluations); the Hermite step needs a handful. Every point
 * stays inside the bracket, and bisection takes over whenever the bracket stops shrinking.
 */

/** The collapsed bracket: g(left) has the sign before the crossing, g(right) is on or past zero. */
export interface Bracket {
  left: number;
  right: number;
}

/**
 * A function of t sampled on the dense output. `value(s)` evaluates it; `slope()` is its
 * derivative at the point last evaluated, NaN when unknown.
 */
export interface ScanFunction {
  value(s: number): number;
  slope(): number;
  /**
   * The finest width of t worth resolving, besides 2 ulps of the bracket ends (0: none). A
   * caller whose t counts from a moving origin sets it from the absolute time: without it
   * the bracket would collapse to ulps of a t near 0, through the plateau where a flat
   * function rounds to exactly zero, at one evaluation per bit.
   */
  resolution: number;
  /**
   * The rounding of f at the point last evaluated (optional): a point where |f| is within
   * it is a zero as well as the arithmetic can tell, and the search stops there instead of
   * bisecting through noise (a gap x2 - x1 between spheres near x = 250 is noisy to 1e-13).
   */
  noise?(): number;
}

const MAX_ITERATIONS = 200;

/**
 * The root in (lo, hi) of the cubic Hermite interpolant of f through both ends of the bracket
 * (values and slopes); NaN when it does not give a point strictly inside. For a quadratic
 * f (a ball in flight) the interpolant is f itself and one step lands on the root, however
 * long the step that overshot it; in general each step gains several digits.
 */
function hermitePoint(
  a: number,
  fa: number,
  da: number,
  b: number,
  fb: number,
  db: number,
  lo: number,
  hi: number,
): number {
  const H = b - a;
  const c0 = fa,
    c1 = da * H;
  const c2 = -3 * fa - 2 * da * H + 3 * fb - db * H;
  const c3 = 2 * fa + da * H - 2 * fb + db * H;
  if (!(c2 === c2 && c3 === c3)) return NaN;
  // bracketed Newton on the polynomial in θ in [0, 1], where it changes sign
  let tl = 0,
    th = 1;
  let theta = fa / (fa - fb);
  if (!(theta > 0 && theta < 1)) theta = 0.5;
  for (let i = 0; i < 60; i++) {
    const p = c0 + theta * (c1 + theta * (c2 + theta * c3));
    if (p === 0) break;
    if (Math.sign(p) === Math.sign(fa)) tl = theta;
    else th = theta;
    const dp = c1 + theta * (2 * c2 + theta * 3 * c3);
    let next = theta - p / dp;
    if (!(next > tl && next < th)) next = 0.5 * (tl + th);
    if (Math.abs(next - theta) <= 4 * Number.EPSILON * theta) {
      theta = next;
      break;
    }
    theta = next;
  }
  const s = a + theta * H;
  return s > lo && s < hi ? s : NaN;
}

/**
 * Finds the crossing of f in [a, b], where f(a) = ga != 0 and f(b) = gb has the other sign or
 * is 0. Works in either direction of t (a > b is fine). Writes the result into `out`.
 */
export function locateCrossing(
  f: ScanFunction,
  a: number,
  ga: number,
  b: number,
  gb: number,
  out: Bracket,
  slopeA = NaN,
  slopeB = NaN,
): Bracket {
  let side = 0; // which end was kept twice in a row (Illinois halving)
  // The sign before the crossing, fixed: halving a tiny ga may round it to 0.
  const signA = Math.sign(ga);
  let zeroWalk = 0;
  // the size of g at the ends: a value far below it means the point is next to the root
  const scale = Math.max(Math.abs(ga), Math.abs(gb));
  let widthAtHalving = Math.abs(b - a),
    sinceHalved = 0;
  // The true values and slopes at both ends (ga and gb are halved by Illinois), for the
  // Hermite step.
  let fa = ga,
    fb = gb,
    da = slopeA,
    db = slopeB;
  let lastAbs = Infinity,
    hermiteStalled = false;
  for (let k = 0; k < MAX_ITERATIONS; k++) {
    const width = Math.abs(b - a);
    const tol = Math.max(2 * Number.EPSILON * Math.max(Math.abs(a), Math.abs(b), 1e-300), f.resolution);
    if (width <= tol) break;
    const lo = Math.min(a, b),
      hi = Math.max(a, b);
    let s: number;
    let byHermite = false;
    if (gb === 0) {
      // b is a zero (g is often exactly 0 over a few ulps near the root): walk back towards a
      // in doubling steps until the sign before the crossing shows.
      zeroWalk = zeroWalk === 0 ? tol : 2 * zeroWalk;
      s = b - Math.sign(b - a) * Math.min(zeroWalk, 0.5 * width);
    } else if (!hermiteStalled && (s = hermitePoint(a, fa, da, b, fb, db, lo, hi)) === s) {
      byHermite = true;
    } else {
      zeroWalk = 0;
      s = b - (gb * (b - a)) / (gb - ga);
      // keep the new point strictly inside, away from the ends: a false-position step that
      // lands on an end would not shrink the bracket
      // bisect only when the bracket has stopped shrinking (three evaluations without halving)
      if (!(s > lo && s < hi) || sinceHalved >= 3) s = 0.5 * (a + b);
    }
    if (s === a || s === b) break;
    const gs = f.value(s);
    const slope = f.slope();
    // (an exact zero is not collapsed onto: it may lie inside a stretch where the function
    // sits at zero, max(h, 0) after h reached it, and the crossing is where that begins;
    // bracketing by sign, below, finds the first zero)
    if (f.noise !== undefined && gs !== 0 && Math.abs(gs) <= f.noise()) {
      // at zero within the function's own rounding: collapse the bracket onto s
      const toward = Math.sign(b - a);
      if (Math.sign(gs) === signA) {
        a = s;
        if (toward * (b - (s + toward * tol)) > 0) b = s + toward * tol;
      } else {
        b = s;
        if (toward * (s - toward * tol - a) > 0) a = s - toward * tol;
      }
      break;
    }
    if (gs === 0 || Math.sign(gs) !== signA) {
      b = s;
      gb = gs;
      fb = gs;
      db = slope;
      if (side === -1) ga *= 0.5;
      side = -1;
    } else {
      a = s;
      ga = gs;
      fa = gs;
      da = slope;
      if (side === 1) gb *= 0.5;
      side = 1;
    }
    sinceHalved++;
    if (Math.abs(b - a) <= 0.5 * widthAtHalving) {
      widthAtHalving = Math.abs(b - a);
      sinceHalved = 0;
    }
    // Hermite steps go on while they converge fast (|g| at least halved per step); one that
    // did that counts as progress even if it shrank the bracket from one side only.
    const absG = Math.abs(gs);
    if (byHermite) {
      if (absG <= 0.5 * lastAbs) sinceHalved = 0;
      else hermiteStalled = true;
    }
    lastAbs = absG;
    // A point near the root: one probe a tolerance width back towards the far end then
    // collapses the bracket, where the iteration alone would creep towards it from one side.
    const probeTol = Math.max(2 * Number.EPSILON * Math.max(Math.abs(a), Math.abs(b), 1e-300), f.resolution);
    if (Math.abs(b - a) > probeTol && absG <= 1e-6 * scale) {
      // aim past Newton's point (when it is that close) so that the probe brackets the root
      let q = side === 1 ? a + Math.sign(b - a) * probeTol : b - Math.sign(b - a) * probeTol;
      const step = -gs / slope;
      if (Math.abs(step) > probeTol && Math.abs(step) < 0.5 * Math.abs(b - a)) q = s + 2 * step;
      if ((q - a) * (q - b) < 0) {
        const gq = f.value(q);
        const dq = f.slope();
        if (gq === 0 || Math.sign(gq) !== signA) {
          b = q;
          gb = gq;
          fb = gq;
          db = dq;
        } else {
          a = q;
          ga = gq;
          fa = gq;
          da = dq;
        }
      }
    }
  }
  out.left = a;
  out.right = b;
  return out;
}
