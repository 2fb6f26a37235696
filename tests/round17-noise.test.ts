/**
 * Round 17, crossings over an explicit method's steps held at its stability border
 * (stiff-step.ts, isNoisyStep; StiffnessTest.heldAtBorder).
 *
 * y' = -1e6 (y - 1e-11 cos t), y(0) = 1e-11: up to a transient of 1e-23, y = 1e-11 (cos t +
 * 1e-6 sin t) / (1 + 1e-12), which falls through zero once on [0, 7], at pi/2 + atan(1e-6) =
 * 1.57079732679489661890 (mpmath), and rises at 3 pi/2 + atan(1e-6). At the default atol 1e-9,
 * 100 times y's amplitude, dopri5 (and auto, which starts on it) is held by stability at h·|λ|
 * 3.1 to 3.5 and carries y at -4.7e-10 where it is +1e-11, its dense output swinging across
 * zero inside each step: auto counted 15 falls on [0, 2.5] (14 at t = 1.07e-4 to 1.60e-4, 4.1e-6
 * apart, then the real one) with status ok; dopri5 ran into maxEvents (100001 falls by t = 0.41,
 * "raise option maxEvents"), dop853 failed as a grazing approach asking for a tighter rtol.
 * The ends of those steps were trusted as a non-stiff step's are. Exact answers here: the one
 * fall, or a failure naming atol (y is far below what atol 1e-9 resolves; rodas and radau5
 * happen to give the one fall).
 *
 * And no legitimate crossing may be lost: a stiff motion of size 1 that crosses while dopri5
 * is held at the border, and a small non-stiff oscillator well above atol.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

/** ok with exactly the events `times` (each to `tol`), or a failure that names atol */
function exactOrAtol(r: ReturnType<typeof simulate>, times: number[], tol: number, atol = '1e-9') {
  const fired = r.events.filter((e) => e.name === 'e');
  if (r.status === 'ok') {
    expect(fired.length, `fired at ${fired.map((e) => e.t).join(', ')}`).toBe(times.length);
    fired.forEach((e, i) => expect(Math.abs(e.t - times[i])).toBeLessThan(tol));
    expect(r.final.n).toBe(times.length);
  } else {
    expect(r.status, r.message ?? '').toBe('failed');
    expect(r.message).toMatch(new RegExp(`atol ${atol}`));
    expect(r.message).toMatch(/Lower atol/);
    // (what the run computed is kept: its events up to the failure, n counting them)
    expect(r.final.n).toBe(fired.length);
    // (and no event it kept is one that is not there: each is a true fall, or the first,
    // provisional one the failure refutes)
    expect(fired.length).toBeLessThanOrEqual(1);
  }
}

const cosine = (end: number) => `independent t from 0 to ${end}
y' = -1e6*(y - 1e-11*cos(t))
y(0) = 1e-11
discrete n = 0
event e when y falls do n := n + 1 end
`;
const FALL = 1.5707973267948966189;

describe('a motion below atol, over explicit steps held at the stability border', () => {
  for (const end of [2.5, 4, 7])
    it(`auto at atol 1e-9 on [0, ${end}]: one fall or a failure naming atol`, () => {
      // (y's error of 1e-14 against its rate 1e-11 at the fall: 1e-3 in t, as round17-atol)
      exactOrAtol(simulate(cosine(end), { method: 'auto', eventsOnly: true }), [FALL], 1e-3);
    });
  it.each(['dopri5', 'dop853'] as const)('%s at atol 1e-9 on [0, 2.5]: one fall or a failure naming atol', (method) => {
    exactOrAtol(simulate(cosine(2.5), { method, eventsOnly: true }), [FALL], 1e-3);
  });
  // with an atol that resolves y (1e-14, a thousandth of its amplitude), auto is right: it
  // leaves dopri5 for rodas after 15 held steps, long before the fall
  it('auto at atol 1e-14 on [0, 2.5]: one fall, at pi/2 + atan(1e-6)', () => {
    const r = simulate(cosine(2.5), { method: 'auto', atol: 1e-14, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    exactOrAtol(r, [FALL], 1e-3);
  });
});

/**
 * y' = -1e6 (y - x), x' = -1e-4, x(0) = y(0) = 1e-8: y - x = 1e-10 (1 - e^(-1e6 t)), so y =
 * 1.01e-8 - 1e-4 t - 1e-10 e^(-1e6 t) falls through zero once, at 1.01e-4 (less 1e-6 e^-101).
 * DOP853 held at its border (h·|λ| 6.0 to 6.8) carries y within ±1.1e-9 of that at its steps'
 * ends, but its dense output swings 10 to 60 times that inside them (EmbeddedRkStepper.
 * denseSpread): at atol 1e-9 it counted 11 falls, at 1e-10 three, status ok. The answer is the
 * one fall, placed to y's error over its rate (100 atol, the spread, over 1e-4), or a failure
 * naming atol.
 */
describe('a slow crossing over steps held at the border, the dense output swinging inside', () => {
  const lin = `independent t from 0 to 3e-4
x' = -1e-4
y' = -1e6*(y - x)
x(0) = 1e-8; y(0) = 1e-8
discrete n = 0
event e when y falls do n := n + 1 end
`;
  for (const atol of ['1e-9', '1e-10', '1e-12', '1e-14'])
    it.each(['dopri5', 'dop853'] as const)(
      `%s at atol ${atol}: one fall at 1.01e-4, or a failure naming atol`,
      (method) => {
        const r = simulate(lin, { method, atol: Number(atol), eventsOnly: true });
        exactOrAtol(r, [1.01e-4], (100 * Number(atol)) / 1e-4, atol);
      },
    );
});

describe('no legitimate crossing lost', () => {
  // y' = -1e6 (y - cos(1000 t)), y(0) = 1: y = (cos wt + 1e-3 sin wt)/(1 + 1e-6) + C e^(-1e6 t)
  // with C = 1e-6/(1 + 1e-6) (gone, e^-1500, by the crossings): zero where tan wt = -1000, at
  // t1 = (pi/2 + atan(1e-3))/1000 = 1.5717963264615634859e-3 and t1 + pi/1000 =
  // 4.7133889800513567244e-3 (mpmath). dopri5 and dop853 are held at their stability border
  // throughout; y moves at 1000 through zero, ~3e-3 per step, far beyond the atol band. Its
  // error at rtol 1e-6 is at most ~1e-6 (y is of size 1), 1e-9 in t: 1e-8 allows ten times that.
  const fast = `independent t from 0 to 0.005
y' = -1e6*(y - cos(1000*t))
y(0) = 1
discrete n = 0
event e when y crosses do n := n + 1 end
`;
  it.each(['auto', 'dopri5', 'dop853', 'rodas', 'radau5'] as const)(
    '%s: a stiff motion of size 1 crosses twice on [0, 0.005]',
    (method) => {
      const r = simulate(fast, { method, eventsOnly: true });
      expect(r.status, r.message ?? '').toBe('ok');
      exactOrAtol(r, [1.5717963264615634859e-3, 4.7133889800513567244e-3], 1e-8);
    },
  );

  // x'' = -x, x(0) = 1e-8: x = 1e-8 cos t crosses zero at pi/2 + k pi, 318 times on [0, 1000]
  // (the last at 997.46). atol 1e-12 is a ten-thousandth of the amplitude; the steps are set by
  // accuracy (h·|λ| ~ 0.1), not stability. The phase drifts by the global error (0.02 measured
  // for dop853 at t = 1000): 0.1, far below the spacing pi, still names each crossing's k.
  // (`+ 0*t*x` would make auto analytic no more than x'' = -x: the nonlinear 1e-30 x^3, 1e-54
  // at most, keeps auto on its stepper; it moves the crossings by far less than 1e-20)
  const osc = `independent t from 0 to 1000
x'' = -x - 1e-30*x^3
x(0) = 1e-8; x'(0) = 0
discrete n = 0
event e when x crosses do n := n + 1 end
`;
  const zeros = Array.from({ length: 318 }, (_, k) => Math.PI / 2 + k * Math.PI);
  it.each(['auto', 'dopri5', 'dop853'] as const)('%s: x = 1e-8 cos t at atol 1e-12 crosses 318 times', (method) => {
    const r = simulate(osc, { method, atol: 1e-12, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.stats.method).toBe(method === 'auto' ? 'dopri5' : method);
    exactOrAtol(r, zeros, 0.1, '1e-12');
  });
});
