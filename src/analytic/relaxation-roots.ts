/**
 * The crossing of an event function along a relaxation (a 1x1 linear block x' = a x + b: a
 * leaky membrane, a one-compartment concentration, an RC circuit), in closed form:
 *
 *     g(s) = γ + P e^{as},   γ = g(x_eq),   P = g(x0) - γ,
 *
 * monotone (g' = aP e^{as} keeps the sign of aP), so it crosses at most once, in the direction
 * of aP: a decay (a < 0) runs from g0 = g(0) to γ and crosses where they have opposite signs,
 * a growth runs from g0 away in the sign of P and crosses where g0 has the other. The root is
 * e^{as} = -γ/P, that is s = log1p(-g0/P)/a with g0 the value at the instant as the event
 * core computed it (no cancellation for a root close to the instant).
 *
 * Where the signs cannot be told (γ of a decay within its rounding of zero: it tends to the
 * threshold itself), or the arithmetic contradicts them, the answer is NaN and the window scan
 * (linear-scan.ts) decides, as for any linear block. At the instant of its own event
 * (`atZero`) the root at the instant is the event itself, and a monotone function has no
 * other.
 */

/**
 * The crossing in (0, H] in direction dir (+1 rises, -1 falls, 0 either) of
 * g(s) = r[0] + r[1] e^{r[2] s}, r[3] the rounding of r[0] and r[1], with g0 its value at the
 * instant and g0Bound that value's rounding; Infinity when there is none, NaN when the signs
 * cannot be told.
 */
export function relaxationRoot(
  r: Float64Array,
  g0: number,
  g0Bound: number,
  atZero: boolean,
  dir: number,
  H: number,
): number {
  const gamma = r[0],
    P = r[1],
    a = r[2],
    bound = r[3];
  // (nothing moves it: it keeps its value; or it already sits at its zero)
  if (!(Math.abs(P) > bound) || atZero) return Infinity;
  if (!(Math.abs(g0) > g0Bound) || (a < 0 && !(Math.abs(gamma) > bound))) return NaN;
  // (the side it ends on: γ for a decay, the sign of P for a growth)
  const end = a < 0 ? Math.sign(gamma) : Math.sign(P);
  if (end === Math.sign(g0)) return Infinity;
  if (dir !== 0 && Math.sign(a * P) !== dir) return Infinity;
  const s = Math.log1p(-g0 / P) / a;
  if (!(s > 0 && s < Infinity)) return NaN;
  return s <= H ? s : Infinity;
}
