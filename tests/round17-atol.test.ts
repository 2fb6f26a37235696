/**
 * Round 17, a crossing located within atol over a stiff step is provisional (crossing-noise.ts).
 *
 * y' = -1e6 (y - x), x' = -x, x(0) = y(0) = 1: y = a e^-t + (1 - a) e^(-1e6 t) with
 * a = 1e6 / (1e6 - 1) > 0, positive for every t, falls through c > 0 once, at
 * ln a + ln(1/c) (mpmath: 460.51701959880963680 for c = 1e-200, 32.236192301917139577 for
 * c = 1e-14), and never crosses -c. At the default atol 1e-9 the stiff steppers hold y (and x)
 * to about ±1e-13 around zero from t = 25 on; that noise crosses any threshold below it (near
 * t = 28.6), and the crossing was taken as an event with status ok whenever the run ended
 * before the noise crossed the same way a second time (round 16's "wanders" rule): on [0, 50],
 * and on every range with an action that sends x back up (a dose: the function leaves its band
 * on the side it came from, which counted as the crossing standing, and the next noise crossing
 * was a first one again: 31 falls on [0, 1000] where there are 2).
 * Exact answers here are: no crossing (n = 0), or the true falls; deltastep may instead fail
 * naming atol, a clear failure, since y near 1e-200 (or 1e-14) is far below what atol resolves.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const model = (fn: string, end: number, action = '') => `independent t from 0 to ${end}
x' = -x
y' = -1e6*(y - x)
x(0) = 1; y(0) = 1
discrete n = 0
event e when ${fn} do n := n + 1${action} end
output y, n
`;
const STIFF = ['auto', 'rodas', 'radau5'] as const;

/** ok with exactly the events `times` (each to `tol`), or a failure that names atol */
function exactOrAtol(r: ReturnType<typeof simulate>, times: number[], tol: number) {
  const fired = r.events.filter((e) => e.name === 'e');
  if (r.status === 'ok') {
    expect(fired.map((e) => e.t).length, `fired at ${fired.map((e) => e.t).join(', ')}`).toBe(times.length);
    fired.forEach((e, i) => expect(Math.abs(e.t - times[i])).toBeLessThan(tol));
    expect(r.final.n).toBe(times.length);
  } else {
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/atol 1e-9/);
    expect(r.message).toMatch(/Lower atol/);
    // (what the run computed is kept: its events up to the failure, n counting them)
    expect(r.final.n).toBe(fired.length);
  }
}

describe('a crossing within atol over stiff steps is provisional until the motion confirms it', () => {
  // no fall of y - c for c = 1e-200, 1e-30 on [0, 50] (the one fall is at 460.5, 69.1); ends
  // chosen just after the noise crossing (28.6 to 30.3) and well after it
  for (const c of ['1e-200', '1e-30'])
    for (const end of [28.7, 29, 30.5, 35, 50])
      it.each(STIFF)(`%s: y - ${c} falls on [0, ${end}]: no fall, or a failure naming atol`, (method) => {
        exactOrAtol(simulate(model(`y - ${c} falls`, end), { method, eventsOnly: true }), [], 0);
      });

  // y + 1e-200 never rises: y > 0 throughout
  it.each(STIFF)('%s: y + 1e-200 rises on [0, 50]: never, or a failure naming atol', (method) => {
    exactOrAtol(simulate(model('y + 1e-200 rises', 50), { method, eventsOnly: true }), [], 0);
  });

  // one fall through 1e-14, at 32.2361923; y there is known to ±atol = 1e-9, 1e5 times
  // itself: an ok run must still have the one fall, placed to the 10% of y a resolved run
  // would need (0.1 in t, y's logarithmic rate being 1)
  for (const end of [50, 1000])
    it.each(STIFF)(`%s: y - 1e-14 falls on [0, ${end}]: once at 32.236, or a failure naming atol`, (method) => {
      exactOrAtol(simulate(model('y - 1e-14 falls', end), { method, eventsOnly: true }), [32.236192301917139577], 0.1);
    });

  // a dose at each fall (x := x + 1; the function does not read x): x = 1 + e^-t1 after the
  // first, and y falls through 1e-200 again at t2 = 921.03403919761927361 (mpmath, the root
  // of a X e^-s + (1e-200 - a X) e^(-1e6 s) = 1e-200): two falls on [0, 1000], none on [0, 50]
  it.each(STIFF)('%s: a dose at each fall of y - 1e-200 on [0, 1000]: two, or a failure naming atol', (method) => {
    const r = simulate(model('y - 1e-200 falls', 1000, '; x := x + 1'), { method, eventsOnly: true });
    exactOrAtol(r, [460.5170195988096368, 921.03403919761927361], 1e-3);
  });
  it.each(STIFF)('%s: a dose at each fall of y - 1e-200 on [0, 50]: none, or a failure naming atol', (method) => {
    exactOrAtol(simulate(model('y - 1e-200 falls', 50, '; x := x + 1'), { method, eventsOnly: true }), [], 0);
  });

  // an action that writes y itself moves it off the crossing at once, and no later motion
  // can refute it: the step that found the crossing must. A restart (y := 1; x := 1): the
  // falls are t1 and 2 t1 = 921.03403919761927361 (the same motion again); deltastep counted
  // 33 on [0, 1000], every 29.7, status ok (auto, rodas). y := 1 alone: none on [0, 50]
  it.each(STIFF)('%s: a restart at each fall of y - 1e-200 on [0, 1000]: two, or a failure naming atol', (method) => {
    const r = simulate(model('y - 1e-200 falls', 1000, '; y := 1; x := 1'), { method, eventsOnly: true });
    exactOrAtol(r, [460.5170195988096368, 921.03403919761927361], 1e-3);
  });
  it.each(STIFF)('%s: y := 1 at each fall of y - 1e-200 on [0, 50]: none, or a failure naming atol', (method) => {
    exactOrAtol(simulate(model('y - 1e-200 falls', 50, '; y := 1'), { method, eventsOnly: true }), [], 0);
  });

  // with an atol that resolves y there, the dosed run is right: two falls, each to the relative
  // error rtol 1e-10 lets y's logarithm drift over 460 (5e-8; round16-atol measured 5e-9)
  it.each(STIFF)('%s: the dosed run at atol 1e-220: falls at t1 and t2', (method) => {
    const r = simulate(model('y - 1e-200 falls', 1000, '; x := x + 1'), {
      method,
      rtol: 1e-10,
      atol: 1e-220,
      eventsOnly: true,
    });
    expect(r.status, r.message ?? '').toBe('ok');
    exactOrAtol(r, [460.5170195988096368, 921.03403919761927361], 1e-6);
  });
  it.each(STIFF)('%s: the restarted run at atol 1e-220: falls at t1 and 2 t1', (method) => {
    const r = simulate(model('y - 1e-200 falls', 1000, '; y := 1; x := 1'), {
      method,
      rtol: 1e-10,
      atol: 1e-220,
      eventsOnly: true,
    });
    expect(r.status, r.message ?? '').toBe('ok');
    exactOrAtol(r, [460.5170195988096368, 921.03403919761927361], 1e-6);
  });
});

/**
 * A function whose whole motion is below atol: y' = -1e6 (y - 1e-11 cos t), y(0) = 1e-11. Up to
 * a transient of 1e-23, y = 1e-11 (cos t + 1e-6 sin t) / (1 + 1e-12): it falls through zero
 * once on [0, 7], at pi/2 + atan(1e-6) = 1.57079732679489661890 (mpmath), and turns back at pi.
 * At atol 1e-14 the steppers resolve it. At the default atol 1e-9 (100 times its amplitude)
 * its sign is not what the tolerances control: the fall is provisional, and once the motion
 * heads back (at the end of [0, 4], or back above zero on [0, 7]) the run fails naming atol.
 * A correct count is acceptable too, a wrong one is not.
 */
describe('a motion below atol', () => {
  const cosine = (end: number) => `independent t from 0 to ${end}
y' = -1e6*(y - 1e-11*cos(t))
y(0) = 1e-11
discrete n = 0
event e when y falls do n := n + 1 end
`;
  const FALL = 1.5707973267948966189;
  for (const end of [2.5, 4, 7])
    it.each(STIFF)(`%s at atol 1e-14 on [0, ${end}]: one fall, at pi/2 + atan(1e-6)`, (method) => {
      const r = simulate(cosine(end), { method, atol: 1e-14, eventsOnly: true });
      expect(r.status, r.message ?? '').toBe('ok');
      // (y's error of 1e-14 against its rate 1e-11 there: 1e-3 in t at most)
      exactOrAtol(r, [FALL], 1e-3);
    });
  for (const end of [4, 7])
    it.each(['rodas', 'radau5'] as const)(
      `%s at atol 1e-9 on [0, ${end}]: one fall or a failure naming atol`,
      (method) => {
        exactOrAtol(simulate(cosine(end), { method, eventsOnly: true }), [FALL], 1e-3);
      },
    );
  // auto starts on dopri5, which at its stability border (h·|λ| 3.1 to 3.5 for a rate of 1e6)
  // carried y at -4.7e-10 where it is +1e-11, its dense output swinging across zero in each
  // step: 14 falls at t = 1.07e-4 to 1.60e-4, 4.1e-6 apart, before the one at pi/2, were
  // counted with status ok on [0, 2.5]. Such steps are now judged as stiff ones (stiff-step.ts,
  // isNoisyStep; round17-noise covers dopri5 and dop853 too).
  it('auto at atol 1e-9 on [0, 2.5]: one fall or a failure naming atol', () => {
    exactOrAtol(simulate(cosine(2.5), { method: 'auto', eventsOnly: true }), [FALL], 1e-3);
  });
});
