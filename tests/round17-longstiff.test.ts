/**
 * Round 17, events on long stiff ranges (rodas, radau5 and auto over ranges to 1e9..1e13).
 *
 * A slow approach to a steady state, watched on a slow state and on a fast one that follows it:
 *
 *   y' = -k (y - 1),  x' = -L (x - y),  k = 1e-8, L = 1e6, x(0) = y(0) = 0 on [0, 3e9],
 *   event ey when y - (1 - d) rises;  event ex when x - (1 - d) rises.
 *
 * Closed form: y = 1 - e^{-kt}, x = 1 - L/(L - k) e^{-kt} + k/(L - k) e^{-Lt}. Both rise
 * monotonically through 1 - d exactly once: ey at t_y = ln(1/d)/k, ex at t_y + ln(L/(L - k))/k
 * = t_y + 1e-6 (a few ulps of t there, so the two are one instant to the arithmetic, in either
 * order). So the exact answer is one ey and one ex, whatever the tolerance.
 *
 * What deltastep gave (status ok): rodas at rtol 1e-8 with d = 1e-3 only ex; rodas at 1e-10
 * with d = 1e-6 only ex; radau5 at 1e-8 with d = 1e-6 only ey; radau5 at 1e-10 with d = 1e-3
 * only ex. Why: over a stiff step both crossings are found on the dense output a few time
 * units apart (the function climbs at k d = 1e-11..1e-14 per unit time, so the state's error
 * of rtol is hundreds of units of time), the earlier one is located again on the solution
 * (solution-refine.ts), and that state, off the interpolant by the tolerance, already has the
 * other function past its zero by far more than its rounding: it did not join the instant
 * (coincidence.ts asked for its rounding), and the next step started past its zero: lost.
 *
 * Fixed (coincidence.ts, crossedOnSolution): at an instant located on the solution, a function
 * the solution shows past its zero, on the side its direction leads to from the step's start,
 * joins the instant (if it commutes with its events). Open (it.fails below): a function the
 * solution puts exactly at its zero with zero rate (x = y to the bit: x' = -L (x - y) = 0), and
 * a function fired on one refined instant that the next refined state puts back below its zero
 * within its noise band (rtol of its terms: 1e-12, where it climbs at 1e-14 per unit time), so
 * that it "rises" again: fired twice, status ok.
 *
 * The time's tolerance: a relative state error of 10 rtol (and atol) moves a crossing of a
 * function climbing at k d by 10 (rtol + atol)/(k d).
 */
import { describe, expect, it } from 'vitest';
import { simulate, type MethodName } from '../src/index.js';

const approach = (d: string) => `independent t from 0 to 3e9
parameter k = 1e-8, L = 1e6
event ey when y - (1 - ${d}) rises
event ex when x - (1 - ${d}) rises
y' = -k*(y - 1)
x' = -L*(x - y)
x(0) = 0; y(0) = 0`;

const check = (method: MethodName, rtol: number, d: string) => {
  const atol = 1e-14;
  const r = simulate(approach(d), { method, rtol, atol, eventsOnly: true });
  // a clear failure naming the tolerances is acceptable; a lost or doubled crossing is not
  if (r.status !== 'ok') {
    expect(r.message).toMatch(/^crossing not resolved at these tolerances/);
    return;
  }
  const names = r.events.map((e) => e.name).sort();
  expect(names).toEqual(['ex', 'ey']);
  const exact = Math.log(1 / Number(d)) / 1e-8;
  const dt = (10 * (rtol + atol)) / (1e-8 * Number(d));
  for (const e of r.events) expect(Math.abs(e.t - exact), `${e.name} at ${e.t}`).toBeLessThan(dt);
  // y(3e9) = 1 - e^{-30}
  expect(Math.abs(r.final.y - (1 - Math.exp(-30)))).toBeLessThan(10 * (rtol + atol));
};

// what deltastep gives on the open cases (exact: one ey, one ex at ln(1/d)/k)
const OPEN: Record<string, string> = {
  'rodas 1e-12 1e-6': 'ex at 1381551062.68, ey at 1381551065.30, ex again at 1381551065.50, status ok',
  'radau5 1e-8 1e-3': 'ey only, status ok: x - c = 0 exactly, rate 0, at the instant; never fires after',
  'auto 1e-8 1e-3': 'ex, ey, ex (ex twice), status ok',
  'auto 1e-10 1e-6': 'ex, ey, ex (ex twice), status ok',
  'auto 1e-12 1e-3': 'ey only, status ok (as radau5 at 1e-8)',
};

describe('a slow approach to a steady state crossed once at t ~ 1e9 by a slow and a fast state', () => {
  const cases: [MethodName, number, string][] = [];
  for (const method of ['rodas', 'radau5', 'auto'] as MethodName[])
    for (const rtol of [1e-8, 1e-10, 1e-12]) for (const d of ['1e-3', '1e-6']) cases.push([method, rtol, d]);
  const key = (m: string, rtol: number, d: string) => `${m} ${rtol} ${d}`;
  it.each(cases.filter(([m, r, d]) => !(key(m, r, d) in OPEN)))(
    '%s at rtol %s, threshold 1 - %s: ey and ex once each, at ln(1/d)/k',
    (method, rtol, d) => check(method, rtol, d),
  );
  // Open: a function put at its zero to the bit by the solution (no crossing seen after), or
  // fired on one refined state and put back below its zero by the next within its noise band,
  // which then "rises" again. Diagnosis: after a state event on a stiff step a function is
  // known only to its band (rtol times its terms, atol through it); a return across within
  // that band since its own firing is noise, not a new crossing (Arming should hold it until
  // it leaves the band, as CrossingNoise.wander does for atol), and one landed exactly on its
  // zero from its start side should fire when it leaves it across, not be taken as at rest.
  it.fails.each(cases.filter(([m, r, d]) => key(m, r, d) in OPEN))(
    'open: %s at rtol %s, threshold 1 - %s (see OPEN for what it gives)',
    (method, rtol, d) => check(method, rtol, d),
  );
});
