/**
 * A function set onto its zero at rest where its rate's zero was located at an instant that is
 * no double (tests/README, round 12). x' = v, v' = a, and an event sets x := 0 where v passes
 * through 0 at t*: v there is the location's residue, a few ulps of v's terms, and x's rate
 * in exact arithmetic is 0. So x, set onto zero from the side h it was on, crossed there once,
 * and goes on as x = a (t - t*)^2 / 2: back to the side it came from (a of h's sign) or on
 * away from it (a of the other sign); no further crossing either way. Taken for motion, the
 * residue's sign made the crossing a touch (n = 0, status ok) or sent x back across at once
 * (a false "persisting contact") on the analytic path (analytic/fire.ts, rateBand).
 *
 * Exact answers: n = 1 for `crosses`, 1 for the direction from h's side (`rises` from below,
 * `falls` from above) and 0 for the other; x(2) = a (2 - t*)^2 / 2.
 */
import { describe, it } from 'vitest';
import { ALL_METHODS, expectZeroSet, type ZeroSetVariant } from './zero-set-cases.js';

const INSTANTS = [0.1, 0.3, 0.7, 1.1, 1.3, 1.7, 1.9];
const RATES = [-3, -0.7, 3];

function variant(direction: string, tStar: number, a: number, h: number): ZeroSetVariant {
  // x = h + a (t - t*)^2 / 2 before t*; where h and a differ in sign, |h| > |a| t*^2 / 2 keeps
  // x on h's side over [0, t*]
  // (written as the decimals a user writes: v0 = 3.9, not 3.9000000000000004 = 3 * 1.3, whose
  // root is exactly representable-ish; 3.9 - 3 t reads -4.4e-16 at t = 1.3)
  const v0 = Number((-a * tStar).toPrecision(12)),
    x0 = Number((h + (a * tStar * tStar) / 2).toPrecision(12));
  const from = Math.sign(h);
  const n = direction === 'crosses' ? 1 : (direction === 'rises') === from < 0 ? 1 : 0;
  return {
    name: `x ${direction}, set onto 0 from ${from < 0 ? 'below' : 'above'} at t = ${tStar}, v' = ${a}`,
    model: `independent t from 0 to 2
discrete n = 0
event e1 when x ${direction} do n := n + 1 end
event e2 when v ${a < 0 ? 'falls' : 'rises'} do x := 0 end
x' = v
v' = ${a}
x(0) = ${x0}; v(0) = ${v0}
`,
    n,
    x: (a * (2 - tStar) ** 2) / 2,
  };
}

const variants: ZeroSetVariant[] = [];
for (const direction of ['crosses', 'rises', 'falls'])
  for (const tStar of INSTANTS)
    for (const a of RATES) {
      // back to the side it came from, and on away from it
      variants.push(variant(direction, tStar, a, Math.sign(a) * 0.3));
      variants.push(variant(direction, tStar, a, -Math.sign(a) * ((Math.abs(a) * tStar * tStar) / 2 + 0.5)));
    }

describe("x set onto its zero where its rate's zero was located between doubles", () => {
  for (const v of variants)
    for (const method of ALL_METHODS) it(`${v.name}: ${method}`, () => expectZeroSet(v, method));
});
