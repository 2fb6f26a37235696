/**
 * Round 14, the command line's and the library's layers: combinations of options.
 * 1. A run backwards undoes the deltas of one instant together: where the weight of one
 *    reads what another of the same instant makes jump (x'' = z delta(t - kick), z' =
 *    delta(t - 1), kick at 1), the values before the instant are solved for, not taken as
 *    the weights at the values after it (x'(0) was -1, status ok, where the exact answer is 0);
 *    in one event too (it was refused); a cycle, or such a round with a Marcus flow, fails.
 * 2. FROM:TO:COUNT (--output-times, sweep --vary) means the decimals written, as --output-step
 *    and `every` do: 0.1:0.5:5 is 0.1, 0.2, 0.3, 0.4, 0.5, not 0.30000000000000004 (which put
 *    the row asked for at 0.3 after a kick at 0.3, not as its left limit before the instant).
 * 3. A run backwards that undoes a state event whose undoing turns the function's rate against
 *    the event's direction: no run forwards ends at its start, and it said ok.
 * 4. `dense: true` on the analytic path (what auto takes): a delta on a first-order state that
 *    no equation reads back (x' = v + J delta(t - hit), a dose counter tot' = delta(t - dose))
 *    was missing from `sol`: its jump is folded into the state after the instant, and the log
 *    of starts kept only the groups whose motion the events change. sol(2) was x = 0 beside a
 *    final row of 0.25, status ok.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { sweepValue } from '../src/batch/values.js';
import { ensureCliBuilt, runCli } from './helpers.js';
import { tempModel } from './api-helpers.js';

describe('1. backwards: the deltas of one instant undone together', () => {
  // Forwards from x = 0, x' = 0, z = 1 at t = 0: at t = 1 both deltas read the values before
  // it, x' jumps by z- = 1 and z by 1, so at t = 2: x = 1, x' = 1, z = 2 (exact). Backwards
  // from there the run must come home: x(0) = 0, x'(0) = 0, z(0) = 1 (exact, in every method:
  // the motion between the events is a polynomial of degree 1).
  const variants = {
    'a named event and a delta at its time': `independent t from 2 to 0
event kick at 1
x'' = z*delta(t - kick)
z' = delta(t - 1)
x(2) = 1; x'(2) = 1; z(2) = 2`,
    'the same, the other order in the file': `independent t from 2 to 0
event kick at 1
z' = delta(t - 1)
x'' = z*delta(t - kick)
x(2) = 1; x'(2) = 1; z(2) = 2`,
    'two delta arguments with one root': `independent t from 2 to 0
x'' = 2*z*delta(2*t - 2)
z' = delta(t - 1)
x(2) = 1; x'(2) = 1; z(2) = 2`,
  };
  const methods = ['auto', 'dopri5', 'dop853', 'rk4', 'radau5', 'rodas'] as const;
  for (const [label, text] of Object.entries(variants))
    it.each(methods)(`${label}: %s comes home to x = 0, x' = 0, z = 1`, (method) => {
      const r = simulate(text, { method });
      expect(r.status, r.message ?? '').toBe('ok');
      // (a line between the events: rounding only, a few ulps of values of order 1)
      expect(Math.abs(r.final.x as number)).toBeLessThan(1e-12);
      expect(Math.abs(r.final["x'"] as number)).toBeLessThan(1e-12);
      expect(r.final.z).toBe(1);
    });

  it.each(methods)(
    "one event with both jumps (x'' = z delta(t - 1), z' = delta(t - 1)), %s: solved, not refused",
    (method) => {
      // (it was refused before the run: "the jump of x' depends on a value the same event changes")
      const r = simulate(
        "independent t from 2 to 0\nx'' = z*delta(t - 1)\nz' = delta(t - 1)\nx(2) = 1; x'(2) = 1; z(2) = 2",
        { method },
      );
      expect(r.status, r.message ?? '').toBe('ok');
      expect(Math.abs(r.final.x as number)).toBeLessThan(1e-12);
      expect(Math.abs(r.final["x'"] as number)).toBeLessThan(1e-12);
      expect(r.final.z).toBe(1);
    },
  );

  it('one event whose two jumps read each other (a jumps by b, b by 2a): the run fails at the instant, saying so', () => {
    const r = simulate("independent t from 2 to 0\na' = b*delta(t - 1)\nb' = 2*a*delta(t - 1)\na(2) = 2; b(2) = 3", {
      method: 'dopri5',
    });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/in a cycle/);
  });

  it('forwards from those values it reaches the start of the backward run (the check of the exact answer)', () => {
    const r = simulate(variants['a named event and a delta at its time'], {
      from: 0,
      to: 2,
      init: { x: 0, "x'": 0, z: 1 },
    });
    expect(r.final).toEqual({ t: 2, x: 1, "x'": 1, z: 2 });
  });

  it('with a Marcus flow in the round (deltaRule = marcus): not the weights after the instant, status ok', () => {
    // forwards from y = 1, z = 1, w = 0 at t = 0: at t = 1, y+ = e y- (the flow of y' = y),
    // w+ = w- + z- = 1, z+ = 2. Backwards from y = e, z = 2, w = 1 the exact answer is y = 1,
    // z = 1, w = 0; undone with z after the instant, w was -1 (status ok). A Marcus flow is
    // integrated, not applied: where the round's weights read each other, the run may fail
    // saying so, or give the values before the instant.
    const text = `independent t from 2 to 0
option deltaRule = marcus
event k at 1
y' = y*delta(t - k)
z' = delta(t - 1)
w' = z*delta(t - k)
y(2) = 2.718281828459045; z(2) = 2; w(2) = 1`;
    const r = simulate(text, { method: 'dopri5' });
    if (r.status === 'ok') {
      expect(Math.abs(r.final.w as number)).toBeLessThan(1e-12);
      expect(r.final.z).toBe(1);
    } else expect(r.message).toMatch(/undo/);
  });

  it('weights that read each other (a jumps by b, b by 2a) have no undoing the run can apply: not ok', () => {
    // forwards a+ = a- + b-, b+ = b- + 2 a-; backwards from a = 2, b = 3 the values before are
    // the solution of a linear system (a = 1, b = 1), which deltastep does not solve: the run
    // must not report the weights read after the instant (a = -1, b = -1) as its answer.
    const text = `independent t from 2 to 0
a' = b*delta(t - 1)
b' = 4*a*delta(2*t - 2)
a(2) = 2; b(2) = 3`;
    let outcome: string;
    try {
      const r = simulate(text, { method: 'dopri5' });
      outcome =
        r.status === 'ok' ? `ok a = ${String(r.final.a)}, b = ${String(r.final.b)}` : `${r.status}: ${r.message}`;
    } catch (e) {
      outcome = `error: ${(e as Error).message}`;
    }
    expect(outcome).not.toMatch(/^ok/);
    expect(outcome).toMatch(/undo/);
  });
});

describe('2. FROM:TO:COUNT on its decimals', () => {
  it('sweepValue gives the double nearest each decimal of the grid', () => {
    // exact: 0.1 + 0.1 k; 3/10 is the double 0.3 (nearest), not 0.1 + 0.2 in doubles
    expect(Array.from({ length: 5 }, (_, k) => sweepValue(0.1, 0.5, 5, k))).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
    // 1 down to 0.18 in 200 values (cli.md's example): value k is (100·199 - 82 k) / 19900, the
    // double nearest that rational
    for (let k = 0; k < 200; k++) expect(sweepValue(1, 0.18, 200, k)).toBe((19900 - 82 * k) / 19900);
    // 0:1:4 is thirds: the double nearest 1/3 and 2/3
    expect([1, 2].map((k) => sweepValue(0, 1, 4, k))).toEqual([1 / 3, 2 / 3]);
  });

  it('--output-times 0.1:0.5:5 with a kick at 0.3: the row asked for at 0.3 is its left limit, then the two of the instant', () => {
    ensureCliBuilt();
    // x' = 1 with a unit kick at 0.3: x = t before it, t + 1 after (exact)
    const file = tempModel(
      'kick03.delta',
      "independent t from 0 to 1\nevent kick at 0.3\nx' = 1 + delta(t - kick)\nx(0) = 0\n",
    );
    const r = runCli(['simulate', file, '--output-times', '0.1:0.5:5', '--format', 'csv']);
    expect(r.status, r.stderr).toBe(0);
    const ts = r.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    expect(ts).toEqual(['0.1', '0.2', '0.3', '0.3', '0.3', '0.4', '0.5']);
  });
});

describe('3. backwards through a state event: only where a run forwards could have fired it', () => {
  // x' = v, v' = -2 delta(t - hit): hit reverses v (from 1 to -1). Started at t = 2 from
  // x = 0, v = -1, the run backwards meets x = 1 at t = 1.
  const model = (direction: string) => `independent t from 2 to 0
event hit when x - 1 ${direction}
x' = v
v' = -2*delta(t - hit)
x(2) = 0; v(2) = -1`;

  it.each(['dopri5', 'rk4', 'radau5'] as const)(
    'falls (%s): no run forwards ends at x = 0, v = -1 (undone, x - 1 rises at t = 1; not undone, it falls there and hit fires): not ok',
    (method) => {
      // exact: forwards, x - 1 falling through 0 at t* needs v- < 0 and gives v+ = v- - 2 <= -2,
      // so a run ending with v = -1 and x(2) = 0 (which crossed x = 1 at t = 1) has none; the
      // run backwards said ok with x(0) = 0, v(0) = 1, from which a run forwards ends at x = 2
      const r = simulate(model('falls'), { method });
      expect(r.status).not.toBe('ok');
      expect(r.message).toMatch(/no run forwards/);
    },
  );

  it.each(['dopri5', 'rk4', 'radau5'] as const)(
    'rises (%s): hit not undone (x - 1 falls at t = 1 without it), x(0) = 2, v(0) = -1, from which the run forwards ends at the start',
    (method) => {
      const r = simulate(model('rises'), { method });
      expect(r.status, r.message ?? '').toBe('ok');
      expect(Math.abs((r.final.x as number) - 2)).toBeLessThan(1e-12);
      expect(r.final.v).toBe(-1);
      const forwards = simulate(model('rises'), { method, from: 0, to: 2, init: { x: 2, v: -1 } });
      expect(Math.abs(forwards.final.x as number)).toBeLessThan(1e-12);
      expect(forwards.final.v).toBe(-1);
    },
  );
});

describe("4. the analytic path's sol with a first-order state's jumps", () => {
  // x' = v + 0.25 delta(t - hit), v' = -1, hit at 0.5, from x = 0, v = 1: x = t - t^2/2, plus
  // 0.25 from t = 0.5 on (exact: x(1.5) = 0.625, x(2) = 0.25). tot' = delta(t - dose), dose
  // every 1 on [0, 3]: tot = the number of doses so far (4 at t = 3, 2 at t = 1.5).
  const kicked =
    "independent t from 0 to 2\nevent hit at 0.5\nx' = v + 0.25*delta(t - hit)\nv' = -1\nx(0) = 0; v(0) = 1";
  const doses =
    "independent t from 0 to 3\nevent dose every 1\nc' = -0.5*c + delta(t - dose)\ntot' = delta(t - dose)\nc(0) = 0; tot(0) = 0";

  it('a kicked position: sol on either side of the kick and at the end, as the rows and the ledger', () => {
    const r = simulate(kicked, { dense: true });
    expect(r.stats.method).toBe('analytic');
    const sol = r.sol!;
    // (polynomials of degree 2 with dyadic coefficients at dyadic times: exact in doubles)
    expect(sol(1.5).x).toBe(0.625);
    expect(sol(2).x).toBe(0.25);
    expect(sol(2)).toEqual(r.final);
    expect(sol(0.5, 'left').x).toBe(0.375);
    expect(sol(0.5).x).toBe(0.625);
    expect(sol(0.5, 'left')).toEqual(r.events[0].pre);
    expect(sol(0.5)).toEqual(r.events[0].post);
  });

  it('a dose counter beside the compartment: sol counts the doses', () => {
    const r = simulate(doses, { dense: true });
    expect(r.stats.method).toBe('analytic');
    const sol = r.sol!;
    expect(sol(1.5).tot).toBe(2);
    expect(sol(3).tot).toBe(4);
    expect(sol(3, 'left').tot).toBe(3);
    expect(sol(3)).toEqual(r.final);
    // c(1.5) = e^-0.25 (1 + e^-0.5) = 1.25116733581241958 (mpmath): the compartment was right
    expect(Math.abs((sol(1.5).c as number) - 1.2511673358124196)).toBeLessThan(1e-15);
  });
});
