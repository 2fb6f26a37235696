/**
 * Finding the crossings of the watched functions (state events and switching functions)
 * in an accepted step, and arming them again after they fire.
 *
 * Cost (EVENTS.md, 4): the caller evaluates every function once per step, into typed arrays;
 * here each function decides alone whether it can reach zero inside the step, and only those
 * that can are sampled and refined, each through its own generated evaluator. A step of a
 * row of 1024 spheres refines the two or three gaps that close, not all 1025.
 *
 * Step ends alone miss a function that turns back inside the step (scipy#9228). So a
 * function that may cross is also sampled at the step's midpoint, and where the cubic
 * Hermite model built from the values and rates (rates known symbolically) disagrees with a
 * sample, the interval is halved (to depth MAX_REFINE); within each resolved interval a sign
 * change of the rate marks an extremum, which is located and checked for a hidden double
 * crossing.
 *
 * Zero is judged on each function's own scale (EVENTS.md, 1-2): a function that fired and
 * is left at zero by its action (a bounce: h = 0, only h' changed) is held until it has left
 * zero by more than its rounding and the location's residue; one that the action moved away
 * (a reset y := 0 moves y - 0.5 to -0.5) is armed at once, with nothing carried over.
 */
import { locateCrossing, type Bracket, type ScanFunction } from '../integrators/locate.js';
import type { Stepper } from '../integrators/stepper.js';
import { matches } from './firing.js';
import { Diagnosis } from './diagnosis.js';
import type { Workspace } from './workspace.js';

/** Whether two sorted lists of name numbers share one. */
function meet(a: Int32Array, b: Int32Array): boolean {
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) return true;
    if (a[i] < b[j]) i++;
    else j++;
  }
  return false;
}

/** halvings of a step when sampling watched functions: at most 2^MAX_REFINE pieces */
const MAX_REFINE = 6;

/**
 * The watched function the root finder works on, as an object whose methods live on the
 * prototype: every Simulator's instance calls the same two functions, so the finder's call
 * sites stay monomorphic across Simulators.
 */
class WatchScan implements ScanFunction {
  resolution = 0;
  constructor(private readonly crossings: Crossings) {}
  value(s: number): number {
    return this.crossings.scanValue(s);
  }
  slope(): number {
    return this.crossings.scanSlope();
  }
  noise(): number {
    return this.crossings.scanNoise();
  }
}

export class Crossings {
  /** per function: the bracket of its first crossing in the last step, for those in `located` */
  readonly candidateLeft: Float64Array;
  readonly candidateRight: Float64Array;
  /** the functions whose crossing in the last step was located, and how many */
  readonly located: Int32Array;
  locatedCount = 0;
  /**
   * Set by the driver right after an instant: the first step then also checks that no armed
   * event function started it within its own rounding of zero, heading across (whether it
   * fires before or after the instant cannot be told). `unresolved` is such a function, or -1.
   */
  checkUnresolved = false;
  unresolved = -1;
  /** the events of that instant */
  firedAtInstant: readonly number[] = [];
  /**
   * per function: held at zero after firing, until |g| exceeds holdScale (its rounding and
   * the location's residue) or its rate has surely carried it out (holdRate·|h| well above
   * that scale); while held, a sign change is rounding, not a crossing
   */
  private readonly held: Uint8Array;
  private readonly holdScale: Float64Array;
  private readonly holdRate: Float64Array;
  /**
   * per function held at zero: the side its rate after the action sends it to. Leaving the
   * zero on the other side is a new crossing, made inside the zero (a ball on a moving table
   * whose flights are lower than the rounding of h - T), not a continuation.
   */
  private readonly holdSide: Int8Array;
  /** per function: held with zero rate (a plastic contact), and the side it came from */
  private readonly sitting: Uint8Array;
  private readonly sittingFrom: Int8Array;
  /** per function: the end of the step whose crossing an event placed before it used up (NaN: none) */
  readonly consumedUntil: Float64Array;
  /** a sitting function that the motion pushed across its zero in the last step, or -1 */
  contact = -1;
  /** a delta's argument that touched zero in the last step (see touchingDelta), or -1; and where (the stepper's t) */
  touched = -1;
  touchedAt = NaN;
  /** the run's tolerances (a delta's argument is judged against them) */
  rtol = 1e-6;
  atol = 1e-9;
  /** per function: the argument of a delta on the state (its event's weight is 1/|rate|) */
  private readonly deltaArgument: Uint8Array;
  private readonly direction: ('rises' | 'falls' | 'crosses')[];
  private readonly affine: Uint8Array;
  /**
   * per function: a state event's (1) or a switching function's (0). An event may be placed
   * where its function is zero within rounding (it is held there after firing); a switch
   * must be located past its zero, or the branch locked after it would be the old one.
   */
  private readonly isEvent: Uint8Array;
  /** per function: an event's truth value (+1 true, -1 false: `when h < R and Vy < 0 falls`) */
  private readonly isBoolean: Uint8Array;
  /** the functions that may cross in this step */
  private readonly candidates: Int32Array;
  /** the same, kept as they were found (find reorders `candidates`), and how many */
  private readonly stepCandidates: Int32Array;
  private stepCandidateCount = 0;
  /** per function: the samples that bracket its crossing (times; values and rates at both ends) */
  private readonly sampleLeft: Float64Array;
  private readonly sampleRight: Float64Array;
  private readonly sampleG: Float64Array;
  private readonly sampleR: Float64Array;
  /** per candidate function: it left the zero it was held at during this step */
  private readonly fromZero: Uint8Array;
  /** per candidate function: the earliest fraction of the step at which it could cross */
  private readonly earliest: Float64Array;
  private readonly bracket: Bracket = { left: 0, right: 0 };
  /** samples of one watched function inside a step */
  private readonly sT = new Float64Array(2 ** (MAX_REFINE + 1) + 2);
  private readonly sG = new Float64Array(2 ** (MAX_REFINE + 1) + 2);
  private readonly sR = new Float64Array(2 ** (MAX_REFINE + 1) + 2);
  private sN = 0;
  readonly scan = new WatchScan(this);
  private scanK = 0;
  private scanRate = false;
  private scanRateValue = NaN;
  private scanBound = 0;
  /** the midpoint of the step being scanned, in the stepper's t and absolute */
  private tm = 0;
  private tmAbs = 0;
  private stepper: Stepper | null = null;
  /** per event: the names it reads and writes, numbered (see conflictsWithFired) */
  private eventReads: Int32Array[] | null = null;
  private eventWrites: Int32Array[] | null = null;
  private readers: Map<number, number[]> | null = null;
  private writers: Map<number, number[]> | null = null;
  private readonly conflicting = new Map<number, Int32Array>();
  /** per function: marked (== markId) when it may be ambiguous after the last instant */
  private readonly marked: Int32Array;
  private markId = 0;

  constructor(private readonly ws: Workspace) {
    const m = ws.model,
      nw = ws.nWatch;
    this.candidateLeft = new Float64Array(nw);
    this.candidateRight = new Float64Array(nw);
    this.located = new Int32Array(nw);
    this.held = new Uint8Array(nw);
    this.holdScale = new Float64Array(nw);
    this.holdRate = new Float64Array(nw);
    this.holdSide = new Int8Array(nw);
    this.sitting = new Uint8Array(nw);
    this.sittingFrom = new Int8Array(nw);
    this.consumedUntil = new Float64Array(nw);
    this.candidates = new Int32Array(nw);
    this.stepCandidates = new Int32Array(nw);
    this.sampleLeft = new Float64Array(nw);
    this.sampleRight = new Float64Array(nw);
    this.sampleG = new Float64Array(2 * nw);
    this.sampleR = new Float64Array(2 * nw);
    this.fromZero = new Uint8Array(nw);
    this.earliest = new Float64Array(nw);
    this.marked = new Int32Array(nw);
    this.direction = m.watchInfo.map((w) =>
      w.kind === 'event' ? (m.events[w.event].direction ?? 'crosses') : 'crosses',
    );
    this.affine = Uint8Array.from(m.watchInfo, (w) => (w.affine ? 1 : 0));
    this.isEvent = Uint8Array.from(m.watchInfo, (w) => (w.kind === 'event' ? 1 : 0));
    this.deltaArgument = Uint8Array.from(m.watchInfo, (w) =>
      w.kind === 'event' && m.events[w.event].kind === 'state' && m.events[w.event].name.startsWith('delta(') ? 1 : 0,
    );
    this.isBoolean = Uint8Array.from(m.watchInfo, (w) =>
      w.kind === 'event' && m.system.events[w.event].booleanCondition ? 1 : 0,
    );
  }

  reset(): void {
    this.held.fill(0);
    this.sitting.fill(0);
    this.consumedUntil.fill(NaN);
    this.contact = -1;
    this.touched = -1;
    this.checkUnresolved = false;
    this.unresolved = -1;
  }

  /** watched function scanK on the dense output; its rate lands in scanRateValue */
  private gAt(s: number): number {
    const ws = this.ws,
      m = ws.model,
      k = this.scanK;
    this.stepper!.interpolateSome(s, m.watchStates[k], ws.yTmp);
    const t = ws.origin.abs(s);
    this.scanRateValue = m.rateOne[k](t, ws.yTmp, ws.p, ws.d, ws.sw);
    this.scanBound = m.boundOne[k](t, ws.yTmp, ws.p, ws.d, ws.sw);
    return m.watchOne[k](t, ws.yTmp, ws.p, ws.d, ws.sw);
  }

  /** @internal the root finder's f(s): function scanK, or (scanRate) its rate, whose zero is an extremum */
  scanValue(s: number): number {
    if (!this.scanRate) return this.gAt(s);
    const ws = this.ws;
    this.stepper!.interpolateSome(s, ws.model.watchStates[this.scanK], ws.yTmp);
    this.scanRateValue = ws.model.rateOne[this.scanK](ws.origin.abs(s), ws.yTmp, ws.p, ws.d, ws.sw);
    return this.scanRateValue;
  }

  /** @internal the rounding of f at the point last evaluated (none while locating an extremum) */
  scanNoise(): number {
    return this.scanRate || !this.isEvent[this.scanK] ? 0 : this.scanBound;
  }

  /** @internal the root finder's f'(s) at the point last evaluated */
  scanSlope(): number {
    return this.scanRate ? NaN : this.scanRateValue;
  }

  /**
   * Brackets every watched function's first crossing (in its direction) in the last step
   * [tPrev, t]; ws.gPrev/rPrev hold the values at its start, ws.gNew/rNew at its end.
   * Returns the index of the earliest, or -1.
   */
  find(stepper: Stepper): number {
    const ws = this.ws,
      dir = ws.dir,
      nw = ws.nWatch;
    const a = stepper.tPrev,
      b = stepper.t,
      ah = Math.abs(b - a);
    const { gPrev, rPrev, gNew, rNew } = ws;
    const held = this.held,
      affine = this.affine,
      candidates = this.candidates;
    let nc = 0;
    this.locatedCount = 0;
    for (let k = 0; k < nw; k++) {
      const g0 = gPrev[k],
        g1 = gNew[k];
      if (g0 !== g0 || g1 !== g1) continue;
      if (held[k]) {
        // Still within its zero (its rounding and the location's residue) at the step's end,
        // and too short a step for its rate to have carried it out: a sign change there is
        // rounding (sin(pi t) at the end of a range, just after it fired there).
        if (!(Math.abs(g1) > this.holdScale[k]) && !(this.holdRate[k] * ah > 4 * this.holdScale[k])) continue;
        // It has left zero in this step: armed, and the step is scanned from its zero in the
        // direction of its rate (a whole flight of a ball can lie in one step). Resting with
        // zero rate, leaving towards the side it fired into is a contact pushed through.
        held[k] = 0;
        if (this.sitting[k]) {
          this.sitting[k] = 0;
          if (Math.sign(g1) !== this.sittingFrom[k] && this.contact < 0) this.contact = k;
          continue;
        }
        this.fromZero[k] = 1;
        this.earliest[k] = 0;
        candidates[nc++] = k;
        continue;
      }
      // An affine function keeps one sign inside the step when it stays farther from zero at
      // both ends than its end rates and its change over the step make plausible (|g'|
      // would have to exceed the sum of both end rates somewhere inside an accepted step);
      // any other may have a bump that its ends do not show (exp(-(x - 5)^2) - 0.5).
      let earliest = 0;
      if (affine[k]) {
        const excursion = ah * (Math.abs(rPrev[k]) + Math.abs(rNew[k])) + Math.abs(g1 - g0);
        if (excursion === excursion) {
          if (g0 > 0 && g1 > 0 && g0 > excursion && g1 > excursion) continue;
          if (g0 < 0 && g1 < 0 && -g0 > excursion && -g1 > excursion) continue;
          // By the same bound on its rate, it cannot reach zero before this fraction of the step.
          if (excursion > 0) earliest = Math.min(1, Math.abs(g0) / excursion);
        }
      }
      this.earliest[k] = earliest;
      candidates[nc++] = k;
    }
    this.stepCandidates.set(candidates.subarray(0, nc));
    this.stepCandidateCount = nc;
    if (this.checkUnresolved) {
      this.checkUnresolved = false;
      // (only the functions of events that do not commute with one fired can be ambiguous:
      // marked first, so that 130 candidates after every impact cost a look-up each)
      const mark = ++this.markId,
        marked = this.marked;
      for (const f of this.firedAtInstant) for (const k of this.conflictingWatch(f)) marked[k] = mark;
      for (let c = 0; c < nc; c++)
        if (marked[candidates[c]] === mark && this.startsUnresolved(candidates[c], stepper)) {
          this.unresolved = candidates[c];
          return -1;
        }
    }
    if (nc === 0) return -1;
    // Candidates in the order of the earliest time each could cross (a row of 1024 spheres:
    // 130 candidates per step, of which 25 cross in a step that overshot as many impacts);
    // once one is bracketed, those that cannot cross before its bracket ends are left alone.
    const earliest = this.earliest;
    this.stepper = stepper;
    this.tm = a + 0.5 * (b - a);
    this.tmAbs = ws.origin.abs(this.tm);
    let found = 0;
    let best = -1;
    // The candidate that could cross first is sampled and located first (up to a few, until
    // one crosses): then any other that cannot reach zero before that crossing is left alone.
    // A row of 1024 spheres has 130 candidates per step, 25 of which cross in a step that
    // overshot as many impacts; sampling all of them was a fifth of the run.
    let c0 = 0;
    for (; c0 < nc && c0 < 4 && best < 0; c0++) {
      let first = c0;
      for (let j = c0 + 1; j < nc; j++) if (earliest[candidates[j]] < earliest[candidates[first]]) first = j;
      const k = candidates[first];
      candidates[first] = candidates[c0];
      candidates[c0] = k;
      if (this.sampleOne(k, a, b) && this.locateFound(k, a, b)) best = k;
    }
    // the earliest right end of a bracket so far (NaN: none yet)
    let bound = best >= 0 ? this.candidateRight[best] : NaN;
    for (let c = c0; c < nc; c++) {
      const k = candidates[c];
      if (bound === bound) {
        const tk = a + earliest[k] * (b - a);
        if (dir * (tk - bound) > 4 * Number.EPSILON * Math.max(1, Math.abs(ws.origin.abs(bound))) + 1e-9 * ah) {
          this.fromZero[k] = 0;
          continue;
        }
      }
      if (this.sampleOne(k, a, b)) {
        candidates[found++] = k;
        // (a crossing an earlier event used up may not count: it bounds nothing)
        const right = this.sampleRight[k];
        if (this.consumedUntil[k] !== this.consumedUntil[k] && !(dir * (right - bound) >= 0)) bound = right;
      }
    }
    // Locate the bracketed crossings in time order, only as far as one could still be the
    // earliest: a step of a row of spheres that overshot several impacts locates the first
    // (and any within its bracket), not all of them.
    for (;;) {
      let next = -1;
      for (let c = 0; c < found; c++) {
        const k = candidates[c];
        if (k >= 0 && (next < 0 || dir * (this.sampleLeft[k] - this.sampleLeft[candidates[next]]) < 0)) next = c;
      }
      if (next < 0) break;
      const k = candidates[next];
      if (best >= 0) {
        const tb = this.candidateRight[best];
        if (dir * (this.sampleLeft[k] - tb) > 4 * Number.EPSILON * Math.max(1, Math.abs(ws.origin.abs(tb)))) break;
      }
      candidates[next] = -1;
      if (this.locateFound(k, a, b) && (best < 0 || dir * (this.candidateRight[k] - this.candidateRight[best]) < 0))
        best = k;
    }
    for (let c = 0; c < found; c++) if (candidates[c] >= 0) this.fromZero[candidates[c]] = 0;
    return best;
  }

  /**
   * Samples candidate k over the last step [a, b] (its ends, the midpoint, halvings where
   * the Hermite model fails) and brackets its first crossing in its direction; false (and
   * fromZero cleared) when it has none.
   */
  private sampleOne(k: number, a: number, b: number): boolean {
    const ws = this.ws,
      m = ws.model,
      dir = ws.dir,
      stepper = this.stepper!;
    const tm = this.tm,
      tmAbs = this.tmAbs;
    stepper.interpolateSome(tm, m.watchStates[k], ws.yTmp);
    const gm = m.watchOne[k](tmAbs, ws.yTmp, ws.p, ws.d, ws.sw);
    const rm = m.rateOne[k](tmAbs, ws.yTmp, ws.p, ws.d, ws.sw);
    // A function leaving the zero it fired at starts from zero exactly (its rounding there
    // says nothing about its side)
    const fromZero = this.fromZero[k] === 1;
    const g0 = fromZero ? 0 : ws.gPrev[k],
      g1 = ws.gNew[k],
      r0 = ws.rPrev[k];
    if (gm !== gm) {
      this.fromZero[k] = 0;
      return false;
    }
    // A function at zero (at the start, or leaving the zero it fired at) is judged by where
    // it goes next: the sign of its rate in the direction of integration.
    let s0 = fromZero ? this.holdSide[k] : 0;
    if (s0 === 0) s0 = g0 !== 0 ? Math.sign(g0) : Math.sign(dir * r0);
    // (a truth value has no rate: NaN says nothing about the side)
    if (s0 !== s0) s0 = 0;
    if (s0 === 0 && fromZero) s0 = Math.sign(gm) || Math.sign(g1);
    if (s0 === 0) {
      this.fromZero[k] = 0;
      return false;
    }
    this.scanK = k;
    this.sN = 0;
    this.pushSample(a, g0, r0);
    this.refine(a, g0, r0, tm, gm, rm, b, g1, ws.rNew[k], 0);
    if (this.scanSamples(s0, this.direction[k], dir, fromZero)) return true;
    this.fromZero[k] = 0;
    return false;
  }

  /** Locates bracketed candidate k (see locate); notes a contact; true when it counts. */
  private locateFound(k: number, a: number, b: number): boolean {
    const located = this.locate(k);
    // Leaving the zero it fired at, it is back across before it ever showed the side it
    // left for: a flight lower than g's own rounding (a ball riding a moving table). That
    // is a contact the arithmetic cannot resolve as bounces.
    if (
      located &&
      this.fromZero[k] === 1 &&
      this.candidateRight[k] - a <= 4 * Number.EPSILON * Math.max(Math.abs(a), Math.abs(b)) &&
      this.contact < 0
    )
      this.contact = k;
    this.fromZero[k] = 0;
    return located;
  }

  private pushSample(t: number, g: number, r: number): void {
    this.sT[this.sN] = t;
    this.sG[this.sN] = g;
    this.sR[this.sN] = r;
    this.sN++;
  }

  /** Appends the samples of (ta, tb] for function scanK, halving where the Hermite model fails. */
  private refine(
    ta: number,
    ga: number,
    ra: number,
    tm: number,
    gm: number,
    rm: number,
    tb: number,
    gb: number,
    rb: number,
    depth: number,
  ): void {
    const h = tb - ta;
    const predicted = 0.5 * (ga + gb) + (h * (ra - rb)) / 8;
    const scale = Math.max(Math.abs(ga), Math.abs(gb), Math.abs(gm));
    const resolved = !(Math.abs(gm - predicted) > 0.05 * scale) || depth >= MAX_REFINE || ra !== ra;
    if (resolved) {
      this.pushSample(tm, gm, rm);
      this.pushSample(tb, gb, rb);
      return;
    }
    const t1 = ta + 0.5 * (tm - ta),
      t2 = tm + 0.5 * (tb - tm);
    const g1 = this.gAt(t1),
      r1 = this.scanRateValue;
    this.refine(ta, ga, ra, t1, g1, r1, tm, gm, rm, depth + 1);
    const g2 = this.gAt(t2),
      r2 = this.scanRateValue;
    this.refine(tm, gm, rm, t2, g2, r2, tb, gb, rb, depth + 1);
  }

  /**
   * Walks the samples of function scanK in order; brackets its first crossing in `direction`.
   * `fromZero`: it starts at the zero it fired at, and samples still exactly at zero have not
   * left it (max(h, 0) sits at zero once h has reached it: no crossing until it moves).
   */
  private scanSamples(s0: number, direction: 'rises' | 'falls' | 'crosses', dir: number, fromZero: boolean): boolean {
    let s = s0;
    let atZero = fromZero;
    for (let i = 0; i + 1 < this.sN; i++) {
      const ta = this.sT[i],
        tb = this.sT[i + 1];
      const ga = this.sG[i],
        gb = this.sG[i + 1];
      const ra = this.sR[i],
        rb = this.sR[i + 1];
      if (atZero) {
        if (gb === 0) continue;
        atZero = false;
      }
      if (gb === 0 || Math.sign(gb) !== s) {
        // exactly zero at one sample and back on its side at the next: a touch (abs(h) at
        // h = 0), not a crossing; one that stays at zero (max(h, 0)) or goes across crosses
        if (gb === 0 && i + 2 < this.sN && Math.sign(this.sG[i + 2]) === s) {
          if (this.deltaArgument[this.scanK]) return this.touch(tb);
          continue;
        }
        if (matches(direction, dir * s))
          return this.bracketCrossing(ta, ga !== 0 ? ga : s * Number.MIN_VALUE, tb, gb, ra, rb);
        s = gb !== 0 ? Math.sign(gb) : -s;
        continue;
      }
      // Same sign at both ends: an extremum between them may hide two crossings.
      if (!(ra === ra && rb === rb) || Math.sign(ra) === Math.sign(rb) || dir * s * ra >= 0) continue;
      this.scanRate = true;
      locateCrossing(this.scan, ta, ra, tb, rb, this.bracket);
      this.scanRate = false;
      const te = this.bracket.right;
      const ge = this.gAt(te),
        re = this.scanRateValue;
      // (an extremum exactly at zero is a touch: the function turns back to its side there; a
      // delta's argument whose extremum is within the run's tolerance of zero has no weight)
      if (this.deltaArgument[this.scanK] && Math.abs(ge) <= this.toleranceAt(te)) return this.touch(te);
      if (ge === 0 || Math.sign(ge) === s) continue;
      if (matches(direction, dir * s))
        return this.bracketCrossing(ta, ga !== 0 ? ga : s * Number.MIN_VALUE, te, ge, ra, re);
      if (ge !== 0 && matches(direction, -dir * s)) return this.bracketCrossing(te, ge, tb, gb, re, rb);
    }
    return false;
  }

  /** Notes that function scanK, a delta's argument, touches zero at t (no crossing to bracket). */
  private touch(t: number): boolean {
    if (this.touched < 0) {
      this.touched = this.scanK;
      this.touchedAt = t;
    }
    return false;
  }

  /** The run's tolerance on function scanK at t (the state on the dense output there). */
  private toleranceAt(t: number): number {
    const ws = this.ws,
      m = ws.model,
      k = this.scanK;
    this.stepper!.interpolateSome(t, m.watchStates[k], ws.yTmp);
    const size = m.boundOne[k](ws.origin.abs(t), ws.yTmp, ws.p, ws.d, ws.sw) / (8 * Number.EPSILON);
    return this.atol + this.rtol * size;
  }

  /**
   * Of the events fired at an instant (absolute t, the stepper's tLocal, state y), the watched
   * function of the first whose function is a delta's argument crossing so slowly that the run
   * cannot tell it from a touch (Diagnosis.touches), or -1. Its rate's change over the step is
   * the curvature.
   */
  touchingDelta(fired: readonly number[], t: number, tLocal: number, y: Float64Array): number {
    const ws = this.ws,
      m = ws.model,
      stepper = this.stepper;
    if (stepper === null) return -1;
    for (const e of fired) {
      const k = m.events[e].watchIndex;
      if (k < 0 || !this.deltaArgument[k]) continue;
      const rate = m.rateOne[k](t, y, ws.p, ws.d, ws.sw);
      const dt = tLocal - stepper.tPrev;
      const curvature = dt !== 0 ? (rate - ws.rPrev[k]) / dt : 0;
      const size = m.boundOne[k](t, y, ws.p, ws.d, ws.sw) / (8 * Number.EPSILON);
      if (Diagnosis.touches(rate, curvature, this.atol + this.rtol * size)) return k;
    }
    return -1;
  }

  /** Keeps the samples that bracket function scanK's crossing, for locate(). */
  private bracketCrossing(left: number, gl: number, right: number, gr: number, rl: number, rr: number): boolean {
    const k = this.scanK;
    this.sampleLeft[k] = left;
    this.sampleRight[k] = right;
    this.sampleG[2 * k] = gl;
    this.sampleG[2 * k + 1] = gr;
    this.sampleR[2 * k] = rl;
    this.sampleR[2 * k + 1] = rr;
    return true;
  }

  /** Locates function k's bracketed crossing; false when an event placed before it used it up. */
  private locate(k: number): boolean {
    this.scanK = k;
    locateCrossing(
      this.scan,
      this.sampleLeft[k],
      this.sampleG[2 * k],
      this.sampleRight[k],
      this.sampleG[2 * k + 1],
      this.bracket,
      this.sampleR[2 * k],
      this.sampleR[2 * k + 1],
    );
    // a crossing an event placed before it has used up (locate before) does not count again
    const until = this.consumedUntil[k];
    if (until === until && this.ws.dir * (this.ws.origin.abs(this.bracket.right) - until) <= 0) return false;
    this.candidateLeft[k] = this.bracket.left;
    this.candidateRight[k] = this.bracket.right;
    this.located[this.locatedCount++] = k;
    return true;
  }

  /**
   * Arms watched function w again after its event fired at an exactly located instant
   * (EVENTS.md, 2). ws.gPrev/rPrev hold its values after the actions, ws.gBound/rBound their
   * rounding; `ratePre` is its rate before the actions, `signPre` the
   * side it came from, and `dtZero` the width of the location's bracket in time.
   */
  rearm(w: number, gPre: number, ratePre: number, signPre: number, dtZero: number, set = false): void {
    const ws = this.ws;
    if (this.isBoolean[w]) {
      // A truth value is +1 or -1, never near zero. At its instant it may still show the side
      // it fired from (read with the state at the left end) or already the other (a condition
      // on t alone, read at the instant): so it is held only until a step shows a side
      // (|g| = 1 > 0.5), and then scanned from the instant starting on the side it went to:
      // false after `falls`, true after `rises`, and after `crosses` the side of the step's
      // midpoint. (Held with the scale of a real function it would never be let go: the
      // event would fire once only.)
      const direction = this.direction[w];
      this.held[w] = 1;
      this.holdScale[w] = 0.5;
      this.holdRate[w] = 0;
      this.holdSide[w] = direction === 'falls' ? -1 : direction === 'rises' ? 1 : 0;
      this.sitting[w] = 0;
      return;
    }
    const g = ws.gPrev[w];
    const rate = ws.rPrev[w];
    const slack = Math.max(Math.abs(ratePre), Math.abs(rate));
    const zero = 4 * ws.gBound[w] + (slack === slack ? slack * dtZero : 0);
    // Where it fired is its zero, as well as location can tell (|gPre| may exceed the
    // rounding where flights are lower than it); what counts is whether the action moved it.
    // (`set`: its own action assigned a value it reads and changed it, if only by less than
    // its rounding, x := 0.99999999999999 at x - 1 rises: a reset, armed at once)
    if (!set && Math.abs(g - gPre) <= zero) {
      // still at zero: the residue is rounding; it fires again only once it has left zero
      this.held[w] = 1;
      this.holdScale[w] = 2 * (zero + Math.abs(g));
      this.holdRate[w] = rate === rate ? Math.abs(rate) : 0;
      this.holdSide[w] = rate === rate ? Math.sign(ws.dir * rate) : 0;
      this.sitting[w] = Math.abs(rate) <= 4 * ws.rBound[w] ? 1 : 0;
      // the side it came from: fixed by its direction, else the side its rate came from
      const dir = this.direction[w];
      // (rises and falls name sides in the order of t: a backward run meets them reversed)
      this.sittingFrom[w] =
        dir === 'rises' ? -ws.dir : dir === 'falls' ? ws.dir : -Math.sign(ws.dir * ratePre) || signPre;
    } else {
      // moved away by the action: armed at once, nothing of the old value carried
      this.held[w] = 0;
      this.sitting[w] = 0;
    }
  }

  /**
   * Whether armed event function k starts the step (right after an instant) within its own
   * rounding of zero and heading across in its direction: a gap x2 - x1 of 1e-17 between
   * spheres near x = 3, where the positions cannot tell which impact comes first.
   */
  private startsUnresolved(k: number, stepper: Stepper): boolean {
    const ws = this.ws,
      m = ws.model;
    if (!this.isEvent[k] || this.held[k] || this.fromZero[k]) return false;
    const g = ws.gPrev[k],
      rate = ws.dir * ws.rPrev[k];
    if (!(rate !== 0)) return false;
    const side = g !== 0 ? Math.sign(g) : -Math.sign(rate);
    if (Math.sign(rate) !== -side || !matches(this.direction[k], ws.dir * side)) return false;
    // Only an event that does not commute with one fired at the instant is ambiguous: the
    // order of two impacts at opposite ends of a row does not matter.
    const w = m.watchInfo[k];
    if (w.kind !== 'event' || !this.conflictsWithFired(w.event)) return false;
    // (the rounding bound last: evaluating it for every candidate after every impact, each
    // function its own small generated evaluator, cost more than the tests above)
    const bound = m.boundOne[k](ws.origin.abs(stepper.tPrev), stepper.yPrev, ws.p, ws.d, ws.sw);
    return Math.abs(g) <= 4 * bound;
  }

  /**
   * Adds to `fired` the events whose functions sit, at the instant just found (absolute time
   * t, the stepper's tLocal, the state y), within their own rounding of zero and head across
   * in their direction, although located a little later: they are coincident with the
   * instant's events (EVENTS.md 2) and fire with them. Two pairs of spheres far apart that
   * collide at one time are located apart by the rounding of the farther pair's positions
   * (1e-12 near x = 3000); the second would otherwise start the next step past its zero and
   * never fire. Only events that commute with those fired join: for one that interacts, the
   * order cannot be told, and the first step after the instant says so (startsUnresolved).
   */
  coincident(t: number, tLocal: number, y: Float64Array, dtZero: number, fired: number[]): void {
    const ws = this.ws,
      m = ws.model,
      dir = ws.dir,
      stepper = this.stepper;
    if (stepper === null) return;
    const a = stepper.tPrev,
      h = stepper.t - a;
    const slack = 4 * Number.EPSILON * Math.max(1, Math.abs(tLocal)) + 1e-9 * Math.abs(h);
    const n = fired.length;
    for (let c = 0; c < this.stepCandidateCount; c++) {
      const k = this.stepCandidates[c];
      const w = m.watchInfo[k];
      if (w.kind !== 'event' || this.held[k] || fired.includes(w.event)) continue;
      // (it cannot be near zero before the earliest time its rates allow)
      if (dir * (a + this.earliest[k] * h - tLocal) > slack) continue;
      const g = m.watchOne[k](t, y, ws.p, ws.d, ws.sw),
        rate = m.rateOne[k](t, y, ws.p, ws.d, ws.sw);
      if (!(Math.abs(g) <= 4 * m.boundOne[k](t, y, ws.p, ws.d, ws.sw) + Math.abs(rate) * dtZero)) continue;
      const heading = Math.sign(dir * rate);
      const g0 = ws.gPrev[k];
      if (heading === 0 || !matches(this.direction[k], -dir * heading) || (g0 !== 0 && Math.sign(g0) !== -heading))
        continue;
      if (this.conflictsWith(w.event, fired, n)) continue;
      fired.push(w.event);
    }
  }

  /**
   * Whether watched function k's crossing located in the last step, which ends at absolute
   * time t, cannot be told from t itself: the function is within its own rounding of zero
   * there, and the crossing lies closer to t than the function, at its rate there, takes to
   * cross that rounding (a function that reached zero earlier and sits there is not at t).
   */
  zeroAtEnd(k: number, t: number): boolean {
    const ws = this.ws,
      m = ws.model;
    const band = 4 * m.boundOne[k](t, this.stepper!.y, ws.p, ws.d, ws.sw);
    if (!(Math.abs(ws.gNew[k]) <= band)) return false;
    const gap = Math.abs(t - ws.origin.abs(this.candidateRight[k]));
    const rate = Math.abs(ws.rNew[k]);
    return gap <= (rate > 0 ? band / rate : 0) + 4 * Number.EPSILON * Math.max(1, Math.abs(t));
  }

  /** The names each event reads and writes, as numbers, once: string sets cost more than the rest of the test. */
  private numberNames(): void {
    if (this.eventReads !== null) return;
    const ids = new Map<string, number>();
    const id = (set: ReadonlySet<string>): Int32Array => {
      const out = new Int32Array(set.size);
      let j = 0;
      for (const name of set) {
        let i = ids.get(name);
        if (i === undefined) ids.set(name, (i = ids.size));
        out[j++] = i;
      }
      return out.sort();
    };
    const events = this.ws.model.events;
    this.eventReads = events.map((ev) => id(ev.reads));
    this.eventWrites = events.map((ev) => id(ev.writes));
  }

  /** The watched functions of the events that do not commute with event f (computed once per f). */
  private conflictingWatch(f: number): Int32Array {
    let list = this.conflicting.get(f);
    if (list !== undefined) return list;
    this.numberNames();
    if (this.readers === null) {
      // name number -> the events that read it, and those that write it
      const readers = new Map<number, number[]>(),
        writers = new Map<number, number[]>();
      const add = (map: Map<number, number[]>, name: number, e: number) => {
        const l = map.get(name);
        if (l) l.push(e);
        else map.set(name, [e]);
      };
      this.eventReads!.forEach((names, e) => {
        for (const n of names) add(readers, n, e);
      });
      this.eventWrites!.forEach((names, e) => {
        for (const n of names) add(writers, n, e);
      });
      this.readers = readers;
      this.writers = writers;
    }
    // (a plain array, deduplicated by search: the lists are a few long, and a Set per event
    // cost more than the rest)
    const events = this.ws.model.events,
      ks: number[] = [];
    const collect = (names: Int32Array, index: Map<number, number[]>) => {
      for (let a = 0; a < names.length; a++) {
        const those = index.get(names[a]);
        if (those === undefined) continue;
        for (let b = 0; b < those.length; b++) {
          const w = events[those[b]].watchIndex;
          if (w >= 0 && !ks.includes(w)) ks.push(w);
        }
      }
    };
    collect(this.eventWrites![f], this.readers);
    collect(this.eventReads![f], this.writers!);
    list = Int32Array.from(ks);
    this.conflicting.set(f, list);
    return list;
  }

  /** Whether event e does not commute with one fired at the instant: one writes what the other reads. */
  private conflictsWithFired(e: number): boolean {
    return this.conflictsWith(e, this.firedAtInstant, this.firedAtInstant.length);
  }

  /** Whether event e does not commute with one of the first n events of `events`. */
  private conflictsWith(e: number, events: readonly number[], n: number): boolean {
    this.numberNames();
    const reads = this.eventReads!,
      writes = this.eventWrites!;
    for (let i = 0; i < n; i++) {
      const f = events[i];
      if (meet(writes[f], reads[e]) || meet(writes[e], reads[f])) return true;
    }
    return false;
  }

  /** Arms watched function w as it stands (an event placed before or after its crossing). */
  arm(w: number): void {
    this.held[w] = 0;
    this.sitting[w] = 0;
  }

  /** whether held function w, fired at its zero, leaves it towards the side it fired into */
  leavesAcross(w: number): boolean {
    return this.holdSide[w] !== 0 && this.holdSide[w] === -this.sittingFrom[w];
  }

  /** the side of zero held function w came from (see rearm) */
  fromSide(w: number): number {
    return this.sittingFrom[w];
  }

  /** Holds function w at zero for as long as a contact constraint keeps it there. */
  holdForContact(w: number): void {
    this.held[w] = 1;
    this.holdScale[w] = Infinity;
    this.holdRate[w] = 0;
    this.holdSide[w] = 0;
    this.sitting[w] = 0;
  }

  /**
   * Lets function w go at the end of a contact: at zero with zero rate, it waits to leave
   * zero like a function left there by a plastic impact (scale: its rounding at the state).
   */
  releaseContact(w: number, side: number): void {
    const ws = this.ws;
    this.held[w] = 1;
    this.holdScale[w] = 8 * ws.gBound[w];
    this.holdRate[w] = 0;
    this.holdSide[w] = 0;
    this.sitting[w] = 1;
    this.sittingFrom[w] = side;
  }

  /** whether watched function k is held at zero since it last fired */
  isHeld(k: number): boolean {
    return this.held[k] === 1;
  }
}
