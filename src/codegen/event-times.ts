/**
 * The scheduled times of time and periodic events on a range: what the driver's stop queue
 * (driver/stop-queue.ts) merges.
 *
 * Known times are never searched for during integration: they are computed here (they may
 * depend on parameters, so not at compile time) and the integrator shortens its step to land
 * on them. Each event's times come as a stream, one at a time in the order of integration,
 * in bounded memory whatever their number: a tick every 1 to 1e7 is 1e7 instants, and the
 * roots of delta(sin(t)) over a long range are as many; a precomputed array of them took
 * gigabytes.
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
/** samples of a delta argument at most, when its derivative asks for more than the base grid */
const MAX_ROOT_SAMPLES = 20_000_000;
/** samples scanned at a time: the roots waiting to be taken are at most this many */
const CHUNK = 4096;

/** The times of one event, one at a time in the order of integration; NaN when there are no more. */
export interface TimeStream {
  next(): number;
}

type ScalarFn = (t: number, y: Float64Array, p: Float64Array, d: Float64Array, sw: Float64Array) => number;
const at = (f: ScalarFn, p: Float64Array, t: number) => f(t, EMPTY, p, EMPTY, EMPTY);

/**
 * Sorted times of one event in [lo, hi], ends included, ascending (or descending with dir -1,
 * the order of a backward run); the first `limit` of them only, if given (a listing of a tick
 * every 1 to 1e7 needs its first few, not ten million). `origin` is where the model states
 * its initial values: the phase of an `every` without `from` (see PeriodicStream).
 */
export function scheduleTimes(
  ev: CompiledEvent,
  p: Float64Array,
  lo: number,
  hi: number,
  limit = Number.POSITIVE_INFINITY,
  dir: 1 | -1 = 1,
  origin = lo,
): number[] {
  const stream = scheduleStream(ev, p, lo, hi, dir, origin);
  const out: number[] = [];
  if (stream) for (let t = stream.next(); t === t && out.length < limit; t = stream.next()) out.push(t);
  return out;
}

/**
 * The times of one event in [lo, hi] (ends included) as a stream, ascending for dir = 1 and
 * descending for dir = -1; null for an event without a schedule. `origin`: where the model
 * states its initial values, the phase of an `every` without `from`. Throws a ScheduleError for
 * a schedule that cannot be kept (a period that is not positive, a delta argument that
 * oscillates too fast, is not a number, or has a multiple root); a stream of roots may throw
 * it later too, from next(), where its scan reaches the fault.
 */
export function scheduleStream(
  ev: CompiledEvent,
  p: Float64Array,
  lo: number,
  hi: number,
  dir: 1 | -1,
  origin = lo,
  rtol = Number.POSITIVE_INFINITY,
): TimeStream | null {
  const s = ev.schedule;
  if (!s) return null;
  if (s.kind === 'at') {
    const times = s
      .times!.map((f) => at(f, p, NaN))
      .filter((t) => t >= lo && t <= hi)
      .sort((a, b) => dir * (a - b));
    return listStream(times);
  }
  if (s.kind === 'every') return new PeriodicStream(ev, p, lo, hi, dir, origin);
  if (s.kind === 'delay') return new DelayStream(ev, p, dir);
  return rootStream(ev, p, lo, hi, dir, rtol);
}

/**
 * The times of a delayed delta `delta(t - E - D)` (rule 2, delayed): none known before the
 * run; each occurrence of E at t_E adds t_E + D (the stop queue calls `push` as E fires), and
 * they come out first in, first out, which is their order, since E's occurrences come in the
 * order of integration and D is the same for all. Memory grows with the impulses in flight
 * (those of the last D of time), not with the run.
 */
export class DelayStream implements TimeStream {
  /** the delay D, positive */
  readonly delay: number;
  /** the event E whose occurrences it follows */
  readonly after: number;
  /** a ring of the pending times: `count` of them from `head` */
  private ring = new Float64Array(8);
  private head = 0;
  private count = 0;

  constructor(ev: CompiledEvent, p: Float64Array, dir: 1 | -1) {
    const s = ev.schedule!;
    const delay = at(s.delay!, p, NaN);
    if (!(delay > 0) || !Number.isFinite(delay))
      throw new ScheduleError(
        `the delay of ${ev.name} is ${delay}; it must be a positive number (an impulse cannot act before the event that causes it)`,
        ev.index,
        NaN,
        'Give a positive delay; check the parameters it uses (--set may have made it zero). For no delay, write delta(t - E).',
      );
    if (dir < 0)
      throw new ScheduleError(
        `${ev.name} acts a delay after an event: a run backwards in time would meet the impulse before its cause`,
        ev.index,
        NaN,
        'Run the model forwards (a range from a smaller to a larger time).',
      );
    this.delay = delay;
    this.after = s.after!;
  }

  /** Adds the time of one more impulse, at or after every time pending. */
  push(t: number): void {
    if (this.count === this.ring.length) {
      const grown = new Float64Array(2 * this.ring.length);
      for (let i = 0; i < this.count; i++) grown[i] = this.ring[(this.head + i) % this.ring.length];
      this.ring = grown;
      this.head = 0;
    }
    this.ring[(this.head + this.count) % this.ring.length] = t;
    this.count++;
  }

  next(): number {
    if (this.count === 0) return NaN;
    const t = this.ring[this.head];
    this.head = (this.head + 1) % this.ring.length;
    this.count--;
    return t;
  }
}

function listStream(times: readonly number[]): TimeStream {
  let i = 0;
  return { next: () => (i < times.length ? times[i++] : NaN) };
}

/**
 * A period and a start written as short decimals (every 0.1 from 0.2) mean those decimals; their
 * doubles are roundings, and from + k·period in doubles drifts off the decimal grid (3·0.1 is
 * 0.30000000000000004, not 0.3), so the tick would miss, by an ulp, an `at 0.3` or a crossing at
 * 0.3 that it meets in exact arithmetic, and the two would be two instants. Where both are
 * decimals of at most 15 places, the k-th time is (F + k·P) / 10^q with whole F and P: one
 * division of exact integers, correctly rounded, gives the double nearest the exact decimal.
 */
interface DecimalGrid {
  readonly scale: number;
  readonly from: number;
  readonly period: number;
}

function decimalGrid(from: number, period: number): DecimalGrid | null {
  const d = commonDecimals(from, period);
  return d && { scale: d.scale, from: d.a, period: d.b };
}

/**
 * Two doubles as decimals of at most 15 places with one scale: whole a·10^q and b·10^q (safe
 * integers) for the smallest q that gives both exactly; null where there is none.
 */
export function commonDecimals(a: number, b: number): { scale: number; a: number; b: number } | null {
  for (let q = 0, scale = 1; q <= 15; q++, scale *= 10) {
    const x = Math.round(a * scale),
      y = Math.round(b * scale);
    if (Number.isSafeInteger(x) && Number.isSafeInteger(y) && x / scale === a && y / scale === b)
      return { scale, a: x, b: y };
  }
  return null;
}

/**
 * The k-th point FROM + k·STEP of a grid (k whole, STEP of either sign), as its decimals mean
 * it where both are short decimals (decimalGrid), else as the product in doubles: the rows of
 * `outputStep` (0.1 + 3·0.3 is 0.9999999999999999 in doubles, a row beside the end's at 1).
 */
export function gridPoints(from: number, step: number): (k: number) => number {
  const g = decimalGrid(from, Math.abs(step));
  const sign = step < 0 ? -1 : 1;
  return (k) => {
    if (g) {
      const n = g.from + sign * k * g.period;
      if (Number.isSafeInteger(n)) return n / g.scale;
    }
    return from + k * step;
  };
}

/**
 * from + k·period for whole k ≥ 0 in [lo, hi]: a product, not a running sum, so no drift over
 * many periods. Without `from`, the ticks keep the phase of the model's own start (`origin`,
 * where it states its initial values): origin + k·period for every whole k, so that a run
 * started elsewhere with the state there (--from, init) or run backwards ticks where the run
 * from the model's start does (anchored at the run's own lower end, a run from 2 back to 0.5
 * ticked at 0.5, 0.8, ... where the model ticks at 0.6, 0.9, ...).
 */
class PeriodicStream implements TimeStream {
  private readonly from: number;
  private readonly period: number;
  private readonly grid: DecimalGrid | null;
  private k: number;
  private readonly kLast: number;

  constructor(
    ev: CompiledEvent,
    p: Float64Array,
    private readonly lo: number,
    private readonly hi: number,
    private readonly dir: 1 | -1,
    origin: number,
  ) {
    const s = ev.schedule!;
    const period = at(s.period!, p, NaN);
    const from = s.from ? at(s.from, p, NaN) : origin;
    if (!(period > 0) || !Number.isFinite(period))
      throw new ScheduleError(
        `the period of event ${ev.name} is ${period}; it must be a positive number`,
        ev.index,
        NaN,
        'Give a positive period, as in every 0.5; check the parameters it uses (--set may have made it zero).',
      );
    // Instants closer than 64 ulps of t where they fall cannot be told apart (every 1e-300
    // from 1 would repeat t = 1 without end; every 1 near 1e16 rounds to every other double).
    // (the message names that resolution, not the relative precision of doubles there: every
    // 1 near 1e15 was "below the resolution ... where doubles are 0.22 apart")
    const reach = Math.max(Math.abs(Math.max(lo, from)), Math.abs(hi));
    const resolution = 64 * Number.EPSILON * reach;
    if (period < resolution)
      throw new ScheduleError(
        `the period ${period} of event ${ev.name} is below the resolution of the independent variable near ${reach}, where instants closer than ${resolution} (64 ulps) cannot be told apart`,
        ev.index,
        NaN,
        'Give a longer period, or count the independent variable from an origin near the events (a shorter range).',
      );
    this.from = from;
    this.period = period;
    this.grid = decimalGrid(from, period);
    // the first k with a time at or after lo: the quotient may be off by one in rounding, and
    // one too high lost the tick at lo (every 0.3 from 0 on a range from 2.1: (2.1 - 0)/0.3 is
    // 7.000000000000001, and the run started at 2.4)
    const kMin = s.from ? 0 : Number.NEGATIVE_INFINITY;
    let kFirst = Math.max(kMin, Math.ceil((lo - from) / period));
    while (kFirst - 1 >= kMin && this.timeOf(kFirst - 1) >= lo) kFirst--;
    // the last k with a time at or before hi (the quotient may be off by one in rounding)
    let kLast = Math.floor((hi - from) / period);
    while (kLast >= kFirst && this.timeOf(kLast) > hi) kLast--;
    while (this.timeOf(kLast + 1) <= hi) kLast++;
    this.kLast = dir > 0 ? kLast : kFirst;
    this.k = dir > 0 ? kFirst : kLast;
  }

  /** the k-th instant: on the decimal grid where there is one and its integers stay exact */
  private timeOf(k: number): number {
    const g = this.grid;
    if (g) {
      const n = g.from + k * g.period;
      if (Number.isSafeInteger(n)) return n / g.scale;
    }
    return this.from + k * this.period;
  }

  next(): number {
    for (;;) {
      if (this.dir * (this.k - this.kLast) > 0) return NaN;
      const t = this.timeOf(this.k);
      this.k += this.dir;
      if (t >= this.lo && t <= this.hi) return t;
    }
  }
}

function rootStream(ev: CompiledEvent, p: Float64Array, lo: number, hi: number, dir: 1 | -1, rtol: number): TimeStream {
  const s = ev.schedule!;
  if (s.exactRoot) {
    const r = s.exactRoot(NaN, EMPTY, p, EMPTY, EMPTY);
    if (!Number.isFinite(r))
      throw new ScheduleError(
        `the argument of ${ev.name} has no root: its slope is zero`,
        ev.index,
        NaN,
        'The argument of a delta must pass through zero, as delta(t - t1) does; check the parameters in it.',
      );
    return listStream(r >= lo && r <= hi ? [r] : []);
  }
  // a range of one point: only an exact zero there counts
  if (!(hi > lo)) return listStream(at(s.u!, p, lo) === 0 ? [lo] : []);
  return new RootStream(ev, p, lo, hi, dir, rtol);
}

/**
 * The roots of a delta argument u(t) on [lo, hi] (rule 1): a scan of u over a grid, refined
 * where u' says u can change by more than a quarter of its scale between two samples (so
 * that no two roots share an interval: sin(1e5 t) on [0, 1] has 31831 roots, 8 per interval
 * of the base grid), each sign change bisected to the last bit; extrema of u that touch zero
 * are double roots, which have no meaning. The algebra's exact candidates, checked, replace
 * the bracketed roots they agree with and add roots at the ends. The base grid and the
 * refinement counts are made at once (so that a scan too long for MAX_ROOT_SAMPLES is refused
 * before the run); the refined samples are scanned CHUNK at a time, in the order of
 * integration, as the roots are taken.
 */
export class RootStream implements TimeStream {
  /** the residual of the root next() gave last: the exact root minus that double (see residual) */
  shift = 0;
  private readonly u: (t: number) => number;
  private readonly du: (t: number) => number;
  private readonly duBound: (t: number) => number;
  private readonly d2u: (t: number) => number;
  private readonly d3u: (t: number) => number;
  /** the base grid: times, u and u' there */
  private readonly bt: Float64Array;
  private readonly bu: Float64Array;
  private readonly bd: Float64Array;
  /** refined samples per base interval */
  private readonly m: Int32Array;
  private readonly zeroTol: number;
  /** the magnitude u's terms add up to at t (its rounding scale), NaN where unknown */
  private readonly uBound: (t: number) => number;
  /** the checked candidates of the algebra, in the order of integration, and the next one */
  private readonly candidates: number[];
  private ci = 0;
  /** the scan: base interval, its next chunk (in the order of integration), the chunk's roots */
  private interval: number;
  private chunk = 0;
  private readonly found: number[] = [];
  private fi = 0;
  /** the next bracketed root (NaN: none left), whether it was taken (the scan goes on at the next call, not before), and the last time given */
  private bracketed = NaN;
  private taken = false;
  private last = NaN;

  constructor(
    private readonly ev: CompiledEvent,
    p: Float64Array,
    private readonly lo: number,
    private readonly hi: number,
    private readonly dir: 1 | -1,
    private readonly rtol = Number.POSITIVE_INFINITY,
  ) {
    const s = ev.schedule!;
    this.u = (t) => s.u!(t, EMPTY, p, EMPTY, EMPTY);
    this.du = (t) => s.dudt!(t, EMPTY, p, EMPTY, EMPTY);
    const slopeBound = s.dudtBound,
      d2 = s.d2udt,
      d3 = s.d3udt;
    this.duBound = slopeBound ? (t) => slopeBound(t, EMPTY, p, EMPTY, EMPTY) : () => NaN;
    this.d2u = d2 ? (t) => d2(t, EMPTY, p, EMPTY, EMPTY) : () => 0;
    this.d3u = d3 ? (t) => d3(t, EMPTY, p, EMPTY, EMPTY) : () => 0;
    const bound = s.uBound;
    this.uBound = bound ? (t) => bound(t, EMPTY, p, EMPTY, EMPTY) : () => NaN;
    const base = SCAN_SAMPLES;
    const bt = (this.bt = new Float64Array(base + 1)),
      bu = (this.bu = new Float64Array(base + 1)),
      bd = (this.bd = new Float64Array(base + 1));
    // Scale of u over the range: what "zero to rounding" means for it.
    let scale = 0;
    for (let i = 0; i <= base; i++) {
      const t = i === base ? hi : lo + ((hi - lo) * i) / base;
      bt[i] = t;
      bu[i] = this.u(t);
      bd[i] = this.du(t);
      if (Number.isFinite(bu[i])) scale = Math.max(scale, Math.abs(bu[i]));
    }
    // Past the limit the run stops with an error rather than miss roots (sin(1/(t + 1e-9))
    // has 3e8 of them near 0).
    const m = (this.m = new Int32Array(base));
    let total = 0;
    for (let i = 0; i < base; i++) {
      const swing = (bt[i + 1] - bt[i]) * Math.max(Math.abs(bd[i]), Math.abs(bd[i + 1]));
      m[i] = Number.isFinite(swing) && scale > 0 ? Math.max(1, Math.ceil(swing / (0.25 * scale))) : 1;
      total += m[i];
      if (total > MAX_ROOT_SAMPLES)
        throw new ScheduleError(
          `the argument of ${ev.name} oscillates too fast to find every root on the range (more than ${MAX_ROOT_SAMPLES} samples would be needed)`,
          ev.index,
          NaN,
          'Shorten the range, or write the impulses as a periodic event (event e every PERIOD do ... end).',
        );
    }
    this.zeroTol = 64 * Number.EPSILON * Math.max(scale, Number.MIN_VALUE);
    this.candidates = this.checkedCandidates(s.candidates ?? [], p);
    this.interval = dir > 0 ? 0 : base - 1;
    // the first chunk now: a fault at the start of the scan is reported before the run
    this.bracketed = this.nextBracketed();
  }

  /**
   * The algebra's candidates that are roots in the range (to its rounding), in the order of
   * integration. One outside the range counts only as a root at the end it lies beyond, and
   * only where u at that end is zero to the end's own rounding (atEnd), as the scan judges
   * the ends: the margin was 1e-12 of max(1, |end|), absolute near 0, so the root -1e-150 of
   * t^2 - 1e-300 on [0, 1] passed as a root at 0 and fired there with the weight 1/|u'(0)| =
   * Infinity, a false failure, and 1e-50 on [0, 1e-100] was refused as a multiple root.
   */
  private checkedCandidates(fns: readonly ScalarFn[], p: Float64Array): number[] {
    const { lo, hi } = this;
    const out: number[] = [];
    for (const c of fns) {
      const r = c(NaN, EMPTY, p, EMPTY, EMPTY);
      if (!Number.isFinite(r)) continue;
      if (r < lo || r > hi) {
        const end = r < lo ? lo : hi;
        if (this.atEnd(end, this.u(end), this.du(end)) !== 0) continue;
        this.checkSimple(end);
        out.push(end);
        continue;
      }
      if (Math.abs(this.u(r)) > this.noise(r)) continue;
      this.checkSimple(r);
      out.push(r);
    }
    return out.sort((a, b) => this.dir * (a - b));
  }

  /**
   * Whether a bracketed root b and a checked candidate c are one root: both lie where u is
   * within its rounding of zero (c is checked so, b is bisected to neighbouring doubles), a
   * band of half-width noise/|u'| about the root, plus the ulps of t itself. The margin was
   * 1e-9 of max(1, |c|), absolute near 0: the roots -1e-150 and 1e-150 of t^2 - 1e-300 were
   * one, and a root the scan did not bracket was lost to a neighbour within 1e-9.
   */
  private sameRoot(b: number, c: number): boolean {
    const band = (t: number) => this.noise(t) / Math.abs(this.du(t));
    const tol = 4 * (band(b) + band(c)) + 8 * Number.EPSILON * Math.max(Math.abs(b), Math.abs(c));
    return Math.abs(b - c) <= tol;
  }

  next(): number {
    for (;;) {
      if (this.taken) {
        this.bracketed = this.nextBracketed();
        this.taken = false;
      }
      const b = this.bracketed,
        c = this.ci < this.candidates.length ? this.candidates[this.ci] : NaN;
      if (b !== b && c !== c) return NaN;
      let t: number;
      const same = b === b && c === c && this.sameRoot(b, c);
      if (c !== c || (b === b && !same && this.dir * (b - c) < 0)) {
        t = b;
        this.taken = true;
      } else if (!same) {
        t = c;
        this.ci++;
      } else {
        // an exact candidate replaces the bracketed value it agrees with, if no worse there
        t = Math.abs(this.u(c)) <= Math.abs(this.u(b)) ? c : b;
        this.ci++;
        this.taken = true;
      }
      if (t !== this.last) {
        this.last = t;
        this.shift = this.residual(t);
        return t;
      }
    }
  }

  /**
   * The exact root near the double r minus r, for its weight 1/|u'| (rule 1): the run gives
   * the root's instant as the double r, but the weight belongs to the root itself, and where
   * u' is small beside u'' times the ulp of r, 1/|u'(r)| is far from it: (t - 1)^2 - 1e-20 has
   * its root 1 - 1e-10 between doubles 1.1e-16 apart, where u' = 2e-10 moves by 2.2e-16, and
   * the weight 5e9 was 4999999586.3 (8.3e-8 off, status ok at rtol 1e-12); centred at 1000,
   * 4.4e-4 off; (t - 1)^2 - 1e-30, 6% off. The residual d solves u(r) + u'(r) d + u''(r) d^2/2
   * + u'''(r) d^3/6 = 0 (Newton from 0); the actions scale the weight by |u'(r)|/|u'(r + d)|
   * (codegen/emit-events.ts). It is only as good as u(r) and u'(r) are: u(r) is known to its
   * rounding (8 ulps of the magnitude its terms add up to), which leaves the root within δ of
   * r + d, where the slope varies by |u''| δ; u'(r) has its own rounding. Where the weight so
   * corrected is still known less well than rtol ((t - 1)^2 - a written out as t^2 - 2 t + 1 -
   * a, whose value near 1 is rounding 2e-16 where the root has u' = 2e-10), the run fails
   * saying so, as the analytic path does for a delta on the state (analytic/slow-delta.ts).
   */
  private residual(r: number): number {
    const u = this.u(r),
      s1 = this.du(r),
      s2 = this.d2u(r),
      s3 = this.d3u(r);
    if (!(s1 !== 0 && Number.isFinite(s1) && Number.isFinite(u))) return 0;
    let d = 0;
    const s2f = Number.isFinite(s2) ? s2 : 0,
      s3f = Number.isFinite(s3) ? s3 : 0;
    for (let k = 0; k < 4; k++) {
      const f = u + d * (s1 + d * (0.5 * s2f + (d * s3f) / 6)),
        df = s1 + d * (s2f + 0.5 * d * s3f);
      const next = d - f / df;
      if (!Number.isFinite(next)) break;
      d = next;
    }
    // (a residual is a fraction of the ulps of r; more is no correction of a root's double
    // but a different root, or a value of u that is all rounding: none then)
    const ulp = Number.EPSILON * Math.max(Math.abs(r), Number.MIN_VALUE / Number.EPSILON);
    if (!(Math.abs(d) <= 4 * ulp)) d = 0;
    if (this.rtol !== Number.POSITIVE_INFINITY) {
      // How well u and u' are known at r, as evaluated: the magnitude bounds (uBound,
      // dudtBound) take every operand as rounded, and 2 (t - c) near t = c as known to 4.4e-16
      // where it is exact; so also from the scatter of their values over the doubles beside r
      // about their Taylor polynomials (what rounding adds there is no smooth function of t),
      // the smaller of the two, and never below an ulp of the values themselves.
      const h = Math.max(Math.abs(r) * Number.EPSILON, Number.MIN_VALUE);
      let uScatter = 0,
        sScatter = 0,
        uSize = Math.abs(u);
      for (const k of [-2, -1, 1, 2]) {
        const x = r + k * h,
          dx = x - r;
        const ux = this.u(x);
        uSize = Math.max(uSize, Math.abs(ux));
        uScatter = Math.max(uScatter, Math.abs(ux - (u + dx * (s1 + dx * (0.5 * s2f + (dx * s3f) / 6)))));
        sScatter = Math.max(sScatter, Math.abs(this.du(x) - (s1 + dx * (s2f + 0.5 * dx * s3f))));
      }
      const ub = this.uBound(r),
        sb = this.duBound(r);
      const uKnown = Math.max(
        2 * Number.EPSILON * uSize,
        Math.min(uScatter, Number.isFinite(ub) ? 8 * Number.EPSILON * ub : Infinity),
      );
      const sKnown = Math.max(
        2 * Number.EPSILON * Math.abs(s1),
        Math.min(sScatter, Number.isFinite(sb) ? 8 * Number.EPSILON * sb : Infinity),
      );
      const delta = uKnown / Math.abs(s1);
      const slope = Math.abs(s1 + d * (s2f + 0.5 * d * s3f));
      const uncertainty =
        (Math.abs(s2f) * delta + 0.5 * Math.abs(s3f) * delta * (delta + 2 * Math.abs(d)) + sKnown) / slope;
      if (!(uncertainty <= this.rtol))
        throw new ScheduleError(
          `the argument of ${this.ev.name} crosses zero at ${this.ev.fromDelta ? '' : 't = '}${fmt(r)} so slowly beside its rounding that the delta's weight 1/|u'| there is known only to ${uncertainty.toExponential(1)} of itself, more than rtol = ${this.rtol.toExponential()}`,
          this.ev.index,
          r,
          'Write the argument so that it has a clear rate at its roots and is computed without cancellation there (as (t - c)^2 - a rather than t^2 - 2*c*t + c^2 - a), or loosen rtol to accept that.',
        );
    }
    return d;
  }

  /** The next root the scan brackets, in the order of integration; NaN when the scan is over. */
  private nextBracketed(): number {
    while (this.fi >= this.found.length) {
      if (this.interval < 0 || this.interval >= SCAN_SAMPLES) return NaN;
      this.found.length = 0;
      this.fi = 0;
      const i = this.interval,
        chunks = Math.ceil(this.m[i] / CHUNK);
      const c = this.dir > 0 ? this.chunk : chunks - 1 - this.chunk;
      this.scanChunk(i, c * CHUNK, Math.min(this.m[i], (c + 1) * CHUNK));
      if (this.dir < 0) this.found.reverse();
      if (++this.chunk >= chunks) {
        this.chunk = 0;
        this.interval += this.dir;
      }
    }
    return this.found[this.fi++];
  }

  /**
   * The roots among the refined samples j0..j1 of base interval i (sample j at
   * bt[i] + (bt[i+1] - bt[i])·j/m[i]; sample m[i] is bt[i+1], the next interval's first),
   * ascending into `found`: zeros at the samples j0..j1 - 1 (and at hi, in the last
   * interval), sign changes between neighbours.
   */
  private scanChunk(i: number, j0: number, j1: number): void {
    const { bt, m, du } = this;
    const last = SCAN_SAMPLES - 1;
    const dt = bt[i + 1] - bt[i],
      mi = m[i];
    const sample = (j: number) => (j === mi ? bt[i + 1] : bt[i] + (dt * j) / mi);
    let ta = sample(j0),
      da = du(ta),
      ua = i === 0 && j0 === 0 ? this.atEnd(ta, this.defined(ta), da) : this.defined(ta);
    for (let j = j0; j <= j1; j++) {
      if (j === j1 && !(i === last && j === mi)) break;
      this.zeroAt(ta, ua, da);
      if (j === mi) break;
      const tb = sample(j + 1),
        db = du(tb),
        ub = i === last && j + 1 === mi ? this.atEnd(tb, this.defined(tb), db) : this.defined(tb);
      this.between(ta, ua, da, tb, ub, db, 0);
      ta = tb;
      ua = ub;
      da = db;
    }
  }

  /**
   * The roots strictly between two samples (ta, tb) with u and u' there, ascending into
   * `found`: a sign change is one root, bisected; an extremum (u' changes sign) that touches
   * zero is a double root, and one that dips across zero two roots, one on each side
   * ((t - c)^2 exp(t) - 1e-8 between two samples: they were lost, with status ok). Where u'
   * has the same sign at both ends but the cubic through the ends' values and slopes turns
   * twice inside, u may too (three roots of atan(t - c)((t - c)^2 - d^2) within one interval
   * gave one, with status ok): the interval is split at those turns and each part scanned so,
   * a few levels deep.
   */
  private between(ta: number, ua: number, da: number, tb: number, ub: number, db: number, depth: number): void {
    const { u, du, found } = this;
    if (depth < 4 && da !== 0 && Math.sign(da) === Math.sign(db)) {
      const turns = hermiteTurns(ua, da, ub, db, tb - ta);
      if (turns !== null) {
        let t0 = ta,
          u0 = ua,
          d0 = da;
        for (const s of turns) {
          const t1 = ta + (tb - ta) * s;
          if (!(t1 > t0 && t1 < tb)) continue;
          const u1 = this.defined(t1),
            d1 = du(t1);
          this.between(t0, u0, d0, t1, u1, d1, depth + 1);
          if (u1 === 0) {
            this.checkSimple(t1);
            found.push(t1);
          }
          t0 = t1;
          u0 = u1;
          d0 = d1;
        }
        this.between(t0, u0, d0, tb, ub, db, depth + 1);
        return;
      }
    }
    if (ua !== 0 && ub !== 0 && Math.sign(ua) !== Math.sign(ub)) {
      this.signChange(ta, tb, ua);
    } else if (Math.sign(da) !== Math.sign(db) && da !== 0 && db !== 0) {
      const te = bisectRoot(du, ta, tb, da);
      const ue = u(te);
      if (Math.abs(ue) <= this.noise(te)) throw this.doubleRoot(te);
      if (ua !== 0 && Math.sign(ue) !== Math.sign(ua)) this.signChange(ta, te, ua);
      if (ub !== 0 && Math.sign(ue) !== Math.sign(ub)) this.signChange(te, tb, ue);
    }
  }

  /**
   * The sign change of u in (ta, tb), u(ta) = ua, bisected to the last bit: a root into
   * `found`, unless it is a pole (no root: 1/(t - 1) - 2 passes from -Infinity to +Infinity at
   * t = 1, tan(t) - 1 at pi/2; both were a delta's instants, of weight 0, in the ledger and
   * in transform's times).
   */
  private signChange(ta: number, tb: number, ua: number): void {
    const r = bisectRoot(this.u, ta, tb, ua);
    if (this.isPole(r)) return;
    this.checkSimple(r);
    this.found.push(r);
  }

  /**
   * Whether u's sign change at r, bisected to the last bit, is a pole: moving away from it on
   * both sides, over 1024 and then 16384 ulps of r, |u| shrinks by 4 or more (at a root it
   * grows), and stays far above its rounding (a pole's value is its largest term).
   */
  private isPole(r: number): boolean {
    const d = 1024 * Number.EPSILON * Math.abs(r) || 1e-300;
    for (const side of [-1, 1]) {
      const near = Math.abs(this.u(r + side * d)),
        far = Math.abs(this.u(r + side * 16 * d));
      if (!(near > 4 * far && far > this.noise(r + side * 16 * d))) return false;
    }
    return true;
  }

  /** A sample that is zero: a root. */
  private zeroAt(t: number, ut: number, dt: number): void {
    if (ut === 0) {
      this.checkSlope(t, dt);
      if (Math.abs(dt) * (this.hi - this.lo) <= this.noise(t) * SCAN_SAMPLES) throw this.doubleRoot(t);
      this.found.push(t);
    }
  }

  /**
   * u at an end of the range, as the scan sees it: zero if it is within what an error of a
   * few ulps in t makes of it (sin(2000 pi) is -6.4e-13, not 0). It is made zero before the
   * neighbouring interval is scanned, so that the root counts once: as a nonzero value it
   * also made a sign change with its neighbour, bisected to a second root a few ulps inside
   * (exp(t) - exp(3 - 1e-14) on [0, 3] had two, at 2.99999999999999 and 3, with status ok).
   */
  private atEnd(t: number, ut: number, dt: number): number {
    // (ulps of t itself, not of max(1, |t|): on [0, 3e-100] that took t^2 - 1e-200, 8e-200
    // at the end, for a root there, beside the one at 1e-100)
    const endTol = this.noise(t) + 64 * Number.EPSILON * Math.abs(dt) * Math.abs(t);
    // (an infinite slope there, as of sqrt(t) or log(t) at 0, makes no tolerance)
    return Number.isFinite(endTol) && Math.abs(ut) <= endTol ? 0 : ut;
  }

  /** u(t), which must be a number: undefined there (sin(1/t) at 0), no sign to compare, and roots may pile up beside it */
  private defined(t: number): number {
    const v = this.u(t);
    if (Number.isNaN(v))
      throw new ScheduleError(
        `the argument of ${this.ev.name} is not a number at ${this.ev.fromDelta ? '' : 't = '}${fmt(t)}, so its roots cannot all be found`,
        this.ev.index,
        t,
        'Keep the argument defined over the whole range: change the range or the argument.',
      );
    return v;
  }

  private checkSimple(r: number): void {
    const slope = this.du(r);
    this.checkSlope(r, slope);
    if (Math.abs(slope) * (this.hi - this.lo) <= this.noise(r) * SCAN_SAMPLES) throw this.doubleRoot(r);
  }

  /**
   * What "zero to rounding" means for u at t: 64 ulps of the magnitude its terms add up to
   * there, its own scale. The largest |u| over the range stood in for it, and where u is
   * large far from a root, t^20 - 1 on [0, 10] (1e20 at 10) or exp(40 t) - exp(40), that
   * made the simple root at 1 look double ("has a multiple root", a false refusal). Where
   * the magnitude is not known or not finite, the range's scale.
   */
  private noise(t: number): number {
    const b = this.uBound(t);
    return Number.isFinite(b) ? 64 * Number.EPSILON * Math.max(b, Number.MIN_VALUE) : this.zeroTol;
  }

  /**
   * The weight of a root is 1/|u'|: a slope that is not a number there (0 times infinity in
   * the derivative of sign(t - 1)*sqrt(abs(t - 1)) at 1) has none, and the jump would be NaN
   * (it was, with the run failing at its end on "S1 is NaN").
   */
  private checkSlope(r: number, slope: number): void {
    if (Number.isNaN(slope))
      throw new ScheduleError(
        `the argument of ${this.ev.name} has no slope at its root ${this.ev.fromDelta ? '' : 't = '}${fmt(r)} (its derivative is not a number there), so the weight 1/|u'| of that root is unknown`,
        this.ev.index,
        r,
        'Write the argument so that it has a finite slope where it crosses zero, as delta(t - 1) does.',
      );
  }

  private doubleRoot(t: number): ScheduleError {
    return new ScheduleError(
      `the argument of ${this.ev.name} has a multiple root at ${this.ev.fromDelta ? '' : 't = '}${fmt(t)} (its derivative is zero there), where a delta has no meaning`,
      this.ev.index,
      t,
    );
  }
}

/**
 * Where the cubic Hermite interpolant through (0, ua, h da) and (1, ub, h db) on s in [0, 1]
 * turns twice inside (its derivative, a quadratic, has two roots in (0, 1)): those s,
 * ascending; else null. Only asked where da and db have one sign, so that the turns come in
 * pairs.
 */
function hermiteTurns(ua: number, da: number, ub: number, db: number, h: number): [number, number] | null {
  // p'(s) = c0 + c1 s + c2 s^2
  const c0 = h * da,
    c1 = 2 * (3 * (ub - ua) - h * (2 * da + db)),
    c2 = 3 * (2 * (ua - ub) + h * (da + db));
  if (c2 === 0 || !Number.isFinite(c0 + c1 + c2)) return null;
  const disc = c1 * c1 - 4 * c2 * c0;
  if (!(disc > 0)) return null;
  const q = -0.5 * (c1 + Math.sign(c1 || 1) * Math.sqrt(disc));
  const r1 = q / c2,
    r2 = q !== 0 ? c0 / q : r1;
  const lo = Math.min(r1, r2),
    hi = Math.max(r1, r2);
  return lo > 0 && hi < 1 && lo < hi ? [lo, hi] : null;
}

/**
 * A sign change of f in [a, b] (fa = f(a)) by bisection to the last bit: slow but certain.
 * (Up to 2100 halvings: the widest interval of doubles closes in that many; 200 stopped at
 * -3e-64 on the way to a pole at 0, where the values outside no longer showed it.)
 */
function bisectRoot(f: (t: number) => number, a: number, b: number, fa: number): number {
  for (let k = 0; k < 2100; k++) {
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
