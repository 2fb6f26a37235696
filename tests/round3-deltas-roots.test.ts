/**
 * Round 3 of the delta rules (issue 20, adversarial delta arguments of rule 1): two simple
 * roots between two samples of the scan. u = (t - c)^2 exp(t) - e with c = 1.5003 (not a
 * sample of the 4096-point grid on [0, 3]) dips below zero between two samples, where u' also
 * changes sign; the scan saw the extremum, found it did not touch zero, and went on: both
 * roots were lost and y stayed 0, with status ok. nerdamer has no closed form for these roots,
 * so only the scan can find them.
 *
 * Reference (mpmath, 40 digits): the roots r1, r2 and sum 1/|u'(r)| for each e. The roots are
 * bisected to the last bit of t (about 2.2e-16 near 1.5) and the weight 1/|u'(r)| with
 * u'(r) about 2 (r - c) e^r moves relatively by that over |r - c|, as does the rounding of c:
 * the bound is 100 ulps of t over |r - c|, relatively.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const CASES = [
  ['1e-12', 1.5002995277041853964, 1.5003004722955915404, 472295.7030720801],
  ['1e-10', 1.5002952770318160793, 1.5003047229458775976, 47229.570308381366],
  ['1e-8', 1.5002527693143371396, 1.5003472284550305457, 4722.9570425716939],
  ['1e-6', 1.4998275927257889478, 1.5007721842109467405, 472.2958215927811],
] as const;

describe('two roots of a delta argument between two samples of the scan', () => {
  it.each(CASES)('(t - c)^2 exp(t) - %s: both roots, each with its weight', (e, r1, r2, total) => {
    const model = `independent t from 0 to 3\nparameter e = ${e}, c = 1.5003\ny' = delta((t - c)^2*exp(t) - e)\ny(0) = 0`;
    for (const dir of [1, -1] as const) {
      const run = simulate(model, dir > 0 ? {} : { from: 3, to: 0, init: { y: 0 } });
      expect(run.status).toBe('ok');
      const times = run.events.map((ev) => ev.t).sort((a, b) => a - b);
      expect(times).toHaveLength(2);
      const ulps = 100 * 1.5 * Number.EPSILON;
      expect(Math.abs(times[0] - r1)).toBeLessThanOrEqual(ulps);
      expect(Math.abs(times[1] - r2)).toBeLessThanOrEqual(ulps);
      const relative = ulps / Math.abs(r2 - 1.5003);
      expect(Math.abs(dir * run.final.y - total)).toBeLessThanOrEqual(relative * total);
    }
  });
});

describe('three roots of a delta argument between two samples of the scan', () => {
  // u = atan(t - c)((t - c)^2 - d^2) on [0, 300] (samples 0.073 apart) has simple roots at
  // c - d, c and c + d; its ends' values differ in sign and its slopes there agree, so the scan
  // saw one root (y = 5000 instead of 20000, status ok). The cubic through the ends' values and
  // slopes turns twice inside: the interval is split there. Reference: mpmath, 40 digits,
  // and in closed form 2/(2 d atan d) + 1/d^2 (|u'| is 2 d atan d at c +- d, d^2 at c); the
  // same relative bound, 100 ulps of t (near 150) over the smallest |r - c| = d.
  it.each([
    [0.01, 20000.33332444491],
    [0.02, 5000.3332977852256],
  ])('d = %s: all three, each with its weight', (d, total) => {
    const run = simulate(
      `independent t from 0 to 300\nparameter c = 150.0123, d = ${d}\ny' = delta(atan(t - c)*((t - c)^2 - d^2))\ny(0) = 0`,
    );
    expect(run.status).toBe('ok');
    const ulps = 100 * 150 * Number.EPSILON;
    expect(run.events.map((ev) => ev.t)).toHaveLength(3);
    [150.0123 - d, 150.0123, 150.0123 + d].forEach((r, k) =>
      expect(Math.abs(run.events[k].t - r)).toBeLessThanOrEqual(ulps),
    );
    expect(Math.abs(run.final.y - total)).toBeLessThanOrEqual((ulps / d) * total);
  });
});
