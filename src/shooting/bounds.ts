/**
 * Bounds on shooting's unknowns (`lower` and `upper`, by name): the box the Newton iterates stay
 * in, as SciPy's `least_squares(bounds=...)` keeps them. A trial point of the line search is
 * projected onto the box (each unknown clipped to its bounds), and a difference Jacobian steps
 * inwards from a bound, so that no shot is fired outside it: an unknown that is a length stays
 * positive, an angle within its quadrant. A solution outside the box is not found: the
 * iteration stalls against the bound and says so.
 */
import { ShootInputError } from './errors.js';

export interface Bounds {
  readonly lower: Float64Array;
  readonly upper: Float64Array;
}

type ByName = ReadonlyMap<string, number> | Readonly<Record<string, number>> | undefined;

const entries = (v: ByName): [string, number][] => (v instanceof Map ? [...v] : Object.entries(v ?? {}));

/**
 * The bounds of each unknown in the order of `names` (-Infinity, Infinity where none is given);
 * null when none is given at all. Refuses a name that is not an unknown, a lower bound not
 * below its upper one, and a first guess outside its bounds.
 */
export function boundsOf(
  names: readonly string[],
  guess: ArrayLike<number>,
  lower: ByName,
  upper: ByName,
): Bounds | null {
  const lo = new Float64Array(names.length).fill(-Infinity);
  const hi = new Float64Array(names.length).fill(Infinity);
  let any = false;
  for (const [side, values, into] of [
    ['lower', lower, lo],
    ['upper', upper, hi],
  ] as const)
    for (const [name, value] of entries(values)) {
      const i = names.indexOf(name);
      if (i < 0)
        throw new ShootInputError(
          `${side} (--${side}): ${name} is not an unknown of the model; bounds are for the unknowns (${names.join(', ')})`,
          true,
        );
      into[i] = value;
      any = true;
    }
  for (let i = 0; i < names.length; i++) {
    if (!(lo[i] < hi[i]))
      throw new ShootInputError(
        `the bounds of ${names[i]} leave no room: lower ${lo[i]} is not below upper ${hi[i]}`,
        true,
      );
    if (!(guess[i] >= lo[i] && guess[i] <= hi[i]))
      throw new ShootInputError(
        `the first guess ${names[i]} = ${guess[i]} is outside its bounds [${lo[i]}, ${hi[i]}]: start shooting inside them (--set ${names[i]}=... or the model's unknown ${names[i]} = ...)`,
      );
  }
  return any ? { lower: lo, upper: hi } : null;
}

/** u projected onto the box, in place. */
export function project(bounds: Bounds | null, u: Float64Array): void {
  if (!bounds) return;
  for (let i = 0; i < u.length; i++) u[i] = Math.min(bounds.upper[i], Math.max(bounds.lower[i], u[i]));
}

/** A difference step h for unknown j at u: turned inwards where u + h would leave the box. */
export function inward(bounds: Bounds | null, u: ArrayLike<number>, j: number, h: number): number {
  if (!bounds) return h;
  return u[j] + h > bounds.upper[j] && u[j] - h >= bounds.lower[j] ? -h : h;
}
