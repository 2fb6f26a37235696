/**
 * Event functions that never left the band the absolute tolerance leaves their states.
 *
 * A stepper holds each state's error per step to atol + rtol·|y|. A state of size 1e-8 at the
 * default atol 1e-9 is thus known to about a tenth of itself, whatever rtol says, and so is an
 * event function read from such states: a pendulum scaled to 1e-8 (x'' = -s·sin(x/s), s =
 * 1e-8, x(0) = 2s) crosses x = 0 seven times on [0, 30], and dopri5 at the default tolerances
 * counted three, status ok, while no state stayed below atol (StepGuard.toleranceWarning does
 * not see it). The existing rule is about states below atol; this one is about the event
 * functions themselves: how far atol alone can move them, against how far from zero they ever
 * went.
 *
 * For watched event function g (k), at the run's last state y:
 *   A = Σ_i |g(y + atol·e_i) − g(y)|            (what an error of atol in each state moves g by)
 *   R = Σ_i |g(y + rtol·|y_i|·e_i) − g(y)|      (what rtol's share moves it by)
 * over the states g (or its rate) reads. When atol governs (A ≥ R) and g's largest |value| at
 * the step ends over the whole run (Crossings.peak) is at most PEAK_ATOLS·A, the run warns: g's
 * crossings (where, how many, an accumulation of them) are known only to about A/peak of its
 * size, a tolerance the user did not ask for. Not on the analytic path (a separate driver whose
 * roots are certified), not on a fixed step (atol steers nothing there), not for a function
 * that never left its own rounding (identically zero: a body resting on its contact) or that
 * reads no state (a function of t: no stepper error reaches it).
 */
import { toText } from '../expression/expr.js';
import type { Stepper } from '../integrators/stepper.js';
import type { Workspace } from './workspace.js';

/**
 * How many of atol's reach (A) a function must go from zero, at least once, for its crossings
 * to count as resolved: 1000, a relative error of atol's band below 1e-3 of its peak. The
 * scaled pendulum counts crossings wrongly at a peak of 200·A (s = 1e-7: 8 for 7); at 2000·A
 * (s = 1e-6) the count is right, its times off by 1e-3 of themselves.
 */
const PEAK_ATOLS = 1000;

/**
 * The warning for the watched event functions whose peak over the run stayed within
 * PEAK_ATOLS times atol's reach into them (see above), or null. `t`: the run's last time
 * (absolute), the state in ws.y.
 */
export function eventScaleWarning(
  ws: Workspace,
  stepper: Stepper,
  peak: Float64Array,
  t: number,
  rtol: number,
  atol: number,
): string | null {
  if (!stepper.adaptive || stepper.stats.steps === 0 || !(atol > 0)) return null;
  const m = ws.model,
    y = ws.y;
  const found: { k: number; a: number }[] = [];
  for (let k = 0; k < ws.nWatch; k++) {
    const w = m.watchInfo[k];
    if (w.kind !== 'event') continue;
    const top = peak[k];
    const g = m.watchOne[k];
    const g0 = g(t, y, ws.p, ws.d, ws.sw);
    // (one that never left its rounding is held at zero, not resolved or unresolved by atol)
    if (!(top > 8 * Math.abs(m.boundOne[k](t, y, ws.p, ws.d, ws.sw))) || g0 !== g0) continue;
    let a = 0,
      r = 0;
    for (const i of m.watchStates[k]) {
      const yi = y[i];
      y[i] = yi + atol;
      a += Math.abs(g(t, y, ws.p, ws.d, ws.sw) - g0);
      y[i] = yi + rtol * Math.abs(yi);
      r += Math.abs(g(t, y, ws.p, ws.d, ws.sw) - g0);
      y[i] = yi;
    }
    if (a > 0 && a >= r && top <= PEAK_ATOLS * a) found.push({ k, a });
  }
  if (found.length === 0) return null;
  const parts = found.map(({ k, a }) => {
    const w = m.watchInfo[k] as { kind: 'event'; event: number };
    const ev = m.events[w.event];
    const cond = m.system.events[ev.index].condition;
    const text = cond ? ` (${toText(cond)})` : '';
    return `event ${ev.name}'s function${text} was never further from zero than ${peak[k].toPrecision(2)}, ${(peak[k] / a).toPrecision(2)} times what an error of atol in its states moves it by (${a.toPrecision(2)})`;
  });
  const one = found.length === 1;
  const smallest = Math.min(...found.map(({ k }) => peak[k]));
  const suggest = (rtol > 0 ? rtol : 1e-6) * smallest;
  return `${parts.join('; ')}: at atol ${atol} ${one ? 'its' : 'their'} crossings (where, how many, and where they accumulate) are known only to about ${(Math.max(...found.map(({ k, a }) => a / peak[k])) * 100).toPrecision(2)} % of ${one ? 'its' : 'their'} size, not to rtol, and some may be missed or spurious; to resolve them, give a smaller atol (--atol), about ${suggest.toPrecision(1)} or below`;
}
