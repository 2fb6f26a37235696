/**
 * The scheduled times of time and periodic events on a range: the stop queue of the driver.
 *
 * Known times are never searched for during integration: they are computed here once per
 * run (they may depend on parameters, so not at compile time) and the integrator shortens
 * its step to land on them.
 *
 * Roots of a delta argument u(t) (rule 1): the exact root for a linear argument; otherwise
 * the algebra's candidates, checked, and completed by bracketing sign changes of u over the
 * whole range; extrema of u that touch zero are double roots, which have no meaning.
 */
import type { CompiledEvent } from './compile.js';

export class ScheduleError extends Error {
  /** what the user can do about it, for the ModelError that reports it at the event */
  readonly hint: string;
  constructor(
    message: string,
    readonly eventIndex: number,
    readonly t: number,
    hint?: string,
  ) {
    super(message);
    this.hint = hint ?? 'Use an argument with simple roots, e.g. delta(t - 1) instead of delta((t - 1)^2).';
  }
}

const EMPTY = new Float64Array(0);
/** samples of u per range: enough for oscillating arguments like sin(pi t) over hundreds of periods */
const SCAN_SAMPLES = 4096;
const MAX_SCHEDULED = 10_000_000;
/** samples of a delta argument at most, when its derivative asks for more than the base grid */
const MAX_ROOT_SAMPLES = 20_000_000;

/** Sorted (ascending) times of one event in [lo, hi], ends included. */
export function scheduleTimes(ev: CompiledEvent, p: Float64Array, lo: number, hi: number): number[] {
  const s = ev.schedule;
  if (!s) return [];
  const at = (
    f: (t: number, y: Float64Array, p: Float64Array, d: Float64Array, sw: Float64Array) => number,
    t: number,
  ) => f(t, EMPTY, p, EMPTY, EMPTY);
  const inRange = (t: number) => t >= lo && t <= hi;
  if (s.kind === 'at')
    return s
      .times!.map((f) => at(f, NaN))
      .filter(inRange)
      .sort((a, b) => a - b);
  if (s.kind === 'every') {
    const period = at(s.period!, NaN);
    const from = s.from ? at(s.from, NaN) : lo;
    if (!(period > 0) || !Number.isFinite(period))
      throw new ScheduleError(
        `the period of event ${ev.name} is ${period}; it must be a positive number`,
        ev.index,
        NaN,
        'Give a positive period, as in every 0.5; check the parameters it uses (--set may have made it zero).',
      );
    if ((hi - Math.max(from, lo)) / period > MAX_SCHEDULED)
      throw new ScheduleError(
        `event ${ev.name} would occur more than ${MAX_SCHEDULED} times on the range`,
        ev.index,
        NaN,
        'Lengthen the period or shorten the range (--to); that many instants would not fit in memory.',
      );
    const out: number[] = [];
    // from + k*period, not a running sum: no drift over many periods
    for (let k = Math.max(0, Math.ceil((lo - from) / period)); ; k++) {
      const t = from + k * period;
      if (t > hi) break;
      if (t >= lo) out.push(t);
    }
    return out;
  }
  return rootsOf(ev, p, lo, hi);
}

function rootsOf(ev: CompiledEvent, p: Float64Array, lo: number, hi: number): number[] {
  const s = ev.schedule!;
  const u = (t: number) => s.u!(t, EMPTY, p, EMPTY, EMPTY);
  const du = (t: number) => s.dudt!(t, EMPTY, p, EMPTY, EMPTY);
  if (s.exactRoot) {
    const r = s.exactRoot(NaN, EMPTY, p, EMPTY, EMPTY);
    if (!Number.isFinite(r))
      throw new ScheduleError(
        `the argument of ${ev.name} has no root: its slope is zero`,
        ev.index,
        NaN,
        'The argument of a delta must pass through zero, as delta(t - t1) does; check the parameters in it.',
      );
    return r >= lo && r <= hi ? [r] : [];
  }
  if (!(hi > lo)) {
    // a range of one point: only an exact zero there counts
    return u(lo) === 0 ? [lo] : [];
  }
  // Scale of u over the range: what "zero to rounding" means for it.
  let scale = 0;
  const base = SCAN_SAMPLES;
  const bt = new Float64Array(base + 1),
    bu = new Float64Array(base + 1),
    bd = new Float64Array(base + 1);
  for (let i = 0; i <= base; i++) {
    const t = i === base ? hi : lo + ((hi - lo) * i) / base;
    bt[i] = t;
    bu[i] = u(t);
    bd[i] = du(t);
    if (Number.isFinite(bu[i])) scale = Math.max(scale, Math.abs(bu[i]));
  }
  // Where the derivative says u can change by more than a quarter of its scale between two
  // samples, sample more densely, so that no two roots share an interval: sin(1e5 t) on
  // [0, 1] has 31831 roots, 8 per interval of the base grid. Past the limit the run stops
  // with an error rather than miss roots (sin(1/(t + 1e-9)) has 3e8 of them near 0).
  const tooFast = () =>
    new ScheduleError(
      `the argument of ${ev.name} oscillates too fast to find every root on the range (more than ${MAX_ROOT_SAMPLES} samples would be needed)`,
      ev.index,
      NaN,
      'Shorten the range, or write the impulses as a periodic event (event e every PERIOD do ... end).',
    );
  const refined: number[] = [];
  for (let i = 0; i < base; i++) {
    const dt = bt[i + 1] - bt[i];
    const swing = dt * Math.max(Math.abs(bd[i]), Math.abs(bd[i + 1]));
    const m = Number.isFinite(swing) && scale > 0 ? Math.max(1, Math.ceil(swing / (0.25 * scale))) : 1;
    if (refined.length + m > MAX_ROOT_SAMPLES) throw tooFast();
    for (let j = 0; j < m; j++) refined.push(bt[i] + (dt * j) / m);
  }
  refined.push(hi);
  const n = refined.length - 1;
  const ts = Float64Array.from(refined),
    us = new Float64Array(n + 1),
    ds = new Float64Array(n + 1);
  for (let i = 0; i <= n; i++) {
    us[i] = u(ts[i]);
    ds[i] = du(ts[i]);
    // Undefined there (sin(1/t) at 0): no sign to compare, and roots may pile up beside it.
    if (Number.isNaN(us[i])) {
      throw new ScheduleError(
        `the argument of ${ev.name} is not a number at ${ev.name.startsWith('delta(') ? '' : 't = '}${fmt(ts[i])}, so its roots cannot all be found`,
        ev.index,
        ts[i],
        'Keep the argument defined over the whole range: change the range or the argument.',
      );
    }
  }
  const zeroTol = 64 * Number.EPSILON * Math.max(scale, Number.MIN_VALUE);
  const found: number[] = [];
  const doubleRoot = (t: number) =>
    new ScheduleError(
      `the argument of ${ev.name} has a multiple root at ${ev.name.startsWith('delta(') ? '' : 't = '}${fmt(t)} (its derivative is zero there), where a delta has no meaning`,
      ev.index,
      t,
    );
  for (let i = 0; i <= n; i++) {
    // At the ends, u is zero to rounding if it is within what an error of a few ulps in t
    // makes of it (sin(2000 pi) is -6.4e-13, not 0).
    const endTol = zeroTol + 64 * Number.EPSILON * Math.abs(ds[i]) * Math.max(1, Math.abs(ts[i]));
    // (an infinite slope there, as of sqrt(t) or log(t) at 0, makes no tolerance)
    if (us[i] === 0 || ((i === 0 || i === n) && Number.isFinite(endTol) && Math.abs(us[i]) <= endTol)) {
      if (Math.abs(ds[i]) * (hi - lo) <= zeroTol * base) throw doubleRoot(ts[i]);
      found.push(ts[i]);
    }
    if (i === n) break;
    const a = us[i],
      b = us[i + 1];
    if (a !== 0 && b !== 0 && Math.sign(a) !== Math.sign(b)) {
      const r = bisectRoot(u, ts[i], ts[i + 1], a);
      if (Math.abs(du(r)) * (hi - lo) <= zeroTol * base) throw doubleRoot(r);
      found.push(r);
    } else if (Math.sign(ds[i]) !== Math.sign(ds[i + 1]) && ds[i] !== 0 && ds[i + 1] !== 0) {
      // An extremum of u in this interval: if it touches zero, a double root the sign scan cannot see.
      const te = bisectRoot(du, ts[i], ts[i + 1], ds[i]);
      if (Math.abs(u(te)) <= zeroTol) throw doubleRoot(te);
    }
  }
  // Exact candidates from the algebra replace the bracketed values they agree with, and add roots at the range ends.
  for (const c of s.candidates ?? []) {
    const r = c(NaN, EMPTY, p, EMPTY, EMPTY);
    if (!Number.isFinite(r) || r < lo - 1e-12 * Math.max(1, Math.abs(lo)) || r > hi + 1e-12 * Math.max(1, Math.abs(hi)))
      continue;
    if (Math.abs(u(r)) > zeroTol) continue;
    if (Math.abs(du(r)) * (hi - lo) <= zeroTol * base) throw doubleRoot(r);
    const near = found.findIndex((f) => Math.abs(f - r) <= 1e-9 * Math.max(1, Math.abs(r)));
    const clipped = Math.min(hi, Math.max(lo, r));
    if (near >= 0) {
      if (Math.abs(u(clipped)) <= Math.abs(u(found[near]))) found[near] = clipped;
    } else found.push(clipped);
  }
  found.sort((a, b) => a - b);
  return found.filter((t, i) => i === 0 || t !== found[i - 1]);
}

/** A sign change of f in [a, b] (fa = f(a)) by bisection to the last bit: slow but certain, and this runs once per run. */
function bisectRoot(f: (t: number) => number, a: number, b: number, fa: number): number {
  for (let k = 0; k < 200; k++) {
    const m = 0.5 * (a + b);
    if (m <= a || m >= b) break;
    const fm = f(m);
    if (fm === 0) return m;
    if (Math.sign(fm) === Math.sign(fa)) {
      a = m;
      fa = fm;
    } else b = m;
  }
  return Math.abs(f(a)) <= Math.abs(f(b)) ? a : b;
}

function fmt(t: number): string {
  return Number(t.toPrecision(12)).toString();
}
