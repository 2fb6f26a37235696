/** The spacing of the doubles at x (one ulp): 1.2e-4 at 1e12, 2.2e-16 at 1. */
export function ulpOf(x: number): number {
  const a = Math.abs(x);
  if (!(a >= 2 ** -1022)) return Number.MIN_VALUE;
  if (a === Infinity) return Infinity;
  let e = Math.floor(Math.log2(a));
  // (log2 of a double next to a power of two may round across it)
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  return 2 ** (e - 52);
}
