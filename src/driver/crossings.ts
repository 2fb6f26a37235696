/**
 * Finding the crossings of the watched functions (state events and switching functions)
 * in an accepted step.
 *
 * Cost (EVENTS.md, 4): the caller evaluates every function once per step, into typed arrays;
 * here each function decides alone whether it can reach zero inside the step, and only those
 * that can are sampled and refined, each through its own generated evaluator. A step of a
 * row of 1024 spheres refines the two or three gaps that close, not all 1025.
 *
 * Step ends alone miss a function that turns back inside the step (scipy#9228): each
 * candidate is sampled inside the step (step-samples.ts), and within each resolved interval
 * a sign change of the rate marks an extremum, which is located and checked for a hidden
 * double crossing.
 *
 * Zero is judged on each function's own scale (EVENTS.md, 1-2): a function held at the zero
 * it fired at (arming.ts) is scanned only once it has left it; in the first step after an
 * instant, a function that starts within its rounding of zero heading across, whose event
 * interacts with those fired, is unresolved; which events interact is event-conflicts.ts's
 * to say.
 *
 * What is decided about the crossings found here afterwards lives beside this file, each
 * reading what the last scan left (the getters below): which other functions join an instant
 * just found (coincidence.ts), and which crossings count at the end of the range
 * (crossings-at-end.ts).
 */
import { locateCrossing, type Bracket, type ScanFunction } from '../integrators/locate.js';
import type { Stepper } from '../integrators/stepper.js';
import { matches } from './round-verdicts.js';
import { functionTolerance, isDeltaArgument, touchingDelta } from './delta-touch.js';
import { Arming } from './arming.js';
import { StepSamples, valueOnStep, type SampledFunction } from './step-samples.js';
import { isNoisyStep, isStiffStep } from './stiff-step.js';
import { EventConflicts } from './event-conflicts.js';
import { CrossingNoise } from './crossing-noise.js';
import { isPole } from './poles.js';
import type { Workspace } from './workspace.js';

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

/** the central difference of curveRate spans 2·2^-16 of the step */
const CURVE_STEP = 2 ** -16;

export class Crossings implements SampledFunction {
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
  /**
   * Set with checkUnresolved: whether that instant was the run's start (a function at zero
   * there that no action moved follows the start's rule, it fires once it has left zero and
   * crossed), and which functions its event iteration judged (firing.ts, Firing.judged).
   */
  instantAtStart = false;
  judged: (k: number) => boolean = () => false;
  /** of those, the ones it judged a touch, left at zero (Firing.leftAtZero) */
  leftAtZero: (k: number) => boolean = () => false;
  /** whether the step being scanned is the first after an instant (find sets it) */
  private firstAfterInstant = false;
  /** the last step's crossing that could not be told from the noise of the states' errors, if any (crossing-noise.ts) */
  readonly noise: CrossingNoise;
  /** the events of that instant */
  firedAtInstant: readonly number[] = [];
  /** which functions are held at the zero they fired at, and until when (arming.ts) */
  readonly arming: Arming;
  /** per function: the end of the step whose crossing an event placed before it used up (NaN: none) */
  readonly consumedUntil: Float64Array;
  /** a sitting function that the motion pushed across its zero in the last step, or -1 */
  contact = -1;
  /** whether that one rested at its zero since the start of the run (Arming.restingAtStart) */
  contactFromStart = false;
  /** set by find: a watched function (a state event's, a delta's argument, a relation's) that is NaN at an end of the step (-1: none) */
  undefinedFunction = -1;
  /** where: true at the step's start, false at its end */
  undefinedAtStart = false;
  /** a delta's argument that touched zero in the last step (see touchingDelta), or -1; and where (the stepper's t) */
  touched = -1;
  touchedAt = NaN;
  /** the run's tolerances (a delta's argument is judged against them) */
  rtol = 1e-6;
  atol = 1e-9;
  /**
   * per function: the argument of a delta on the state (its event's weight is 1/|rate|);
   * fixed by the model, as are `direction`, `isBoolean` and `conflicts` (public for
   * coincidence.ts and crossings-at-end.ts, which judge this file's crossings further)
   */
  readonly deltaArgument: Uint8Array;
  /** per function: the direction its event names ('crosses' for a switching function) */
  readonly direction: readonly ('rises' | 'falls' | 'crosses')[];
  private readonly affine: Uint8Array;
  /**
   * per function: a state event's (1) or a switching function's (0). An event may be placed
   * where its function is zero within rounding (it is held there after firing); a switch
   * must be located past its zero, or the branch locked after it would be the old one.
   */
  private readonly isEvent: Uint8Array;
  /**
   * per function: a state event's own function, whose sign changes through a pole are no
   * crossings (poles.ts); not a relation's or a jump's stand-in (`when 1/x > 2 rises` is
   * located on 1/x - 2, and the relation does turn true where x passes 0)
   */
  private readonly poleless: Uint8Array;
  /** per function: its crossing located in the last step is a relation's or a switch's at a pole */
  private readonly atPole: Uint8Array;
  /** per function: an event's truth value (+1 true, -1 false: `when h < R and Vy < 0 falls`) */
  readonly isBoolean: Uint8Array;
  /** the functions that may cross in this step */
  private readonly candidates: Int32Array;
  /** the same, kept as they were found (find reorders `candidates`), and how many */
  private readonly stepCandidates: Int32Array;
  private stepCandidateCount = 0;
  /** the last step scanned, in the stepper's t (the stepper may have moved since: solution-refine.ts) */
  private stepA = 0;
  private stepB = 0;
  /** per function: the samples that bracket its crossing (times; values and rates at both ends) */
  private readonly sampleLeft: Float64Array;
  private readonly sampleRight: Float64Array;
  private readonly sampleG: Float64Array;
  private readonly sampleR: Float64Array;
  /** per candidate function: it left the zero it was held at during this step */
  private readonly fromZero: Uint8Array;
  /** per candidate function: the earliest fraction of the step at which it could cross */
  private readonly earliest: Float64Array;
  /**
   * per function: the side of zero of its last nonzero value at a step's end (0: none since
   * the last instant's actions). A function at exactly zero at a step's start is on that
   * side, not on the side its rate there points to: -abs(x - 15) at x = 15 touched zero from
   * below, and its rate at the kink said above, so leaving it downwards looked like `falls`.
   */
  private readonly lastSide: Int8Array;
  private readonly bracket: Bracket = { left: 0, right: 0 };
  /** samples of one watched function inside a step */
  private readonly samples = new StepSamples();
  readonly scan = new WatchScan(this);
  private scanK = 0;
  private scanRate = false;
  private scanRateValue = NaN;
  private scanBound = 0;
  /** the step being scanned is stiff: rates inside it are the dense output's (see curveRate) */
  private curveRates = false;
  /** the states valueAt reads (apart from ws.yTmp, which holds the point being sampled) */
  private readonly curveY: Float64Array;
  /** the midpoint of the step being scanned, in the stepper's t and absolute */
  private tm = 0;
  private tmAbs = 0;
  private stepper: Stepper | null = null;
  /** which events commute (event-conflicts.ts) */
  readonly conflicts: EventConflicts;
  /** per function: marked (== markId) when it may be ambiguous after the last instant */
  private readonly marked: Int32Array;
  private markId = 0;
  /**
   * per function: the largest |g| at the ends of the steps scanned since the run began. A
   * crossing at the end of the range is the end's (crossings-at-end.ts) only if the function
   * was ever clearly away from zero; one that never left a few of its bands could not be
   * located anywhere, and there precision ran out (EVENTS.md 1).
   */
  readonly peak: Float64Array;

  constructor(private readonly ws: Workspace) {
    const m = ws.model,
      nw = ws.nWatch;
    this.noise = new CrossingNoise(ws);
    this.candidateLeft = new Float64Array(nw);
    this.candidateRight = new Float64Array(nw);
    this.located = new Int32Array(nw);
    this.consumedUntil = new Float64Array(nw);
    this.candidates = new Int32Array(nw);
    this.stepCandidates = new Int32Array(nw);
    this.sampleLeft = new Float64Array(nw);
    this.sampleRight = new Float64Array(nw);
    this.sampleG = new Float64Array(2 * nw);
    this.sampleR = new Float64Array(2 * nw);
    this.fromZero = new Uint8Array(nw);
    this.earliest = new Float64Array(nw);
    this.lastSide = new Int8Array(nw);
    this.curveY = new Float64Array(ws.y.length);
    this.marked = new Int32Array(nw);
    this.peak = new Float64Array(nw);
    this.conflicts = new EventConflicts(m);
    this.direction = m.watchInfo.map((w) =>
      w.kind === 'event' ? (m.events[w.event].direction ?? 'crosses') : 'crosses',
    );
    this.affine = Uint8Array.from(m.watchInfo, (w) => (w.affine ? 1 : 0));
    this.isEvent = Uint8Array.from(m.watchInfo, (w) => (w.kind === 'event' ? 1 : 0));
    this.deltaArgument = Uint8Array.from(m.watchInfo, (w) =>
      w.kind === 'event' && isDeltaArgument(m.events[w.event]) ? 1 : 0,
    );
    this.poleless = Uint8Array.from(m.watchInfo, (w) =>
      w.kind === 'event' && m.system.events[w.event].truthOf === undefined ? 1 : 0,
    );
    this.atPole = new Uint8Array(nw);
    this.isBoolean = Uint8Array.from(m.watchInfo, (w) =>
      w.kind === 'event' && m.system.events[w.event].booleanCondition ? 1 : 0,
    );
    this.arming = new Arming(ws, this.direction, this.isBoolean, this.noise);
  }

  reset(): void {
    this.arming.reset();
    this.lastSide.fill(0);
    this.peak.fill(0);
    this.consumedUntil.fill(NaN);
    this.contact = -1;
    this.undefinedFunction = -1;
    this.touched = -1;
    this.checkUnresolved = false;
    this.unresolved = -1;
    this.noise.clear();
  }

  /** watched function scanK on the dense output; its rate lands in scanRateValue */
  private gAt(s: number): number {
    const ws = this.ws,
      m = ws.model,
      k = this.scanK;
    this.stepper!.interpolateSome(s, m.watchStates[k], ws.yTmp);
    const t = ws.origin.abs(s);
    this.scanRateValue = this.curveRates ? NaN : m.rateOne[k](t, ws.yTmp, ws.p, ws.d, ws.sw);
    this.scanBound = m.boundOne[k](t, ws.yTmp, ws.p, ws.d, ws.sw);
    const g = m.watchOne[k](t, ws.yTmp, ws.p, ws.d, ws.sw);
    if (this.curveRates) this.scanRateValue = this.curveRate(k, s);
    return g;
  }

  /**
   * The rate of function k along the dense output at s, by a central difference over a
   * 2^-16 part of the step (see stiff-step.ts: over a stiff step f at a point of the
   * interpolant is noise). The interpolant is a cubic: the difference's error is about 1e-10
   * of the rate's scale, its rounding the function's rounding over 1e-5 of the step.
   */
  private curveRate(k: number, s: number): number {
    const stepper = this.stepper!;
    const d = CURVE_STEP * (stepper.t - stepper.tPrev);
    const s1 = s - d,
      s2 = s + d;
    return (this.valueAt(k, s2) - this.valueAt(k, s1)) / (s2 - s1);
  }

  /** @internal StepSamples' f(s): function scanK on the dense output, its rate in `rate` */
  at(s: number): number {
    return this.gAt(s);
  }

  /** @internal the rate at the point last sampled */
  get rate(): number {
    return this.scanRateValue;
  }

  /**
   * @internal StepSamples' rounding of the rate of function scanK at s (its rate's own bound,
   * or, on a stiff step, the value's rounding over the span of curveRate's difference), and of
   * the rate inferred from values over a piece h long (twice the value's rounding over h)
   */
  rateNoise(s: number, h: number): number {
    const ws = this.ws,
      m = ws.model,
      k = this.scanK,
      stepper = this.stepper!;
    stepper.interpolateSome(s, m.watchStates[k], ws.yTmp);
    const t = ws.origin.abs(s);
    const bound = m.boundOne[k](t, ws.yTmp, ws.p, ws.d, ws.sw);
    const rate = this.curveRates
      ? bound / (CURVE_STEP * Math.abs(stepper.t - stepper.tPrev))
      : m.rateBoundOne[k](t, ws.yTmp, ws.p, ws.d, ws.sw);
    return rate + (2 * bound) / Math.abs(h);
  }

  /** @internal the root finder's f(s): function scanK, or (scanRate) its rate, whose zero is an extremum */
  scanValue(s: number): number {
    if (!this.scanRate) return this.gAt(s);
    const ws = this.ws;
    if (this.curveRates) return (this.scanRateValue = this.curveRate(this.scanK, s));
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
    this.firstAfterInstant = this.checkUnresolved;
    const held = this.arming.held,
      affine = this.affine,
      candidates = this.candidates;
    let nc = 0;
    // (the sides located in an earlier step are spent: an instant used them, or none came)
    for (let j = 0; j < this.locatedCount; j++) this.arming.crossedTo[this.located[j]] = 0;
    this.locatedCount = 0;
    for (let k = 0; k < nw; k++) {
      const g0 = gPrev[k],
        g1 = gNew[k];
      if (g0 !== g0 || g1 !== g1) {
        // (an undefined function hides its crossings: an event's, or the switch of a relation,
        // which is false both ways there, so the branch taken was arbitrary)
        if (this.undefinedFunction < 0) {
          this.undefinedFunction = k;
          this.undefinedAtStart = g0 !== g0;
        }
        continue;
      }
      const a0 = Math.abs(g0),
        a1 = Math.abs(g1);
      if (a0 > this.peak[k] || a1 > this.peak[k]) this.peak[k] = Math.max(a0, a1);
      // (a crossing located within atol, provisional: confirmed or refuted by the motion after
      // it, crossing-noise.ts; refuted, the run fails as the simulator reads noise.function)
      this.noise.follow(stepper, k, g0, g1);
      if (!held[k]) this.arming.noiseAtStart(k, g0);
      if (held[k]) {
        const fromStart = this.arming.restsFromStart(k);
        const moving = fromStart ? this.movingAtEnd(k, stepper) : 0;
        let leaving = this.arming.leaving(k, g1, ah, moving !== 0);
        if (leaving === 'held' && !affine[k] && this.leftInside(stepper, k)) leaving = this.arming.release(k);
        if (leaving === 'held') {
          // (at rest at its zero since the start, and the motion moves it across, in a step
          // too short to carry it out of its rounding: a ball at rest at x = 1e6 sinks 4.9 h^2,
          // 5e-10 over rodas' first step of 1e-5, and was armed there and fell through)
          // (fromStart only: `moving` is 0 otherwise, and so is the side of one held with no
          // known side, 0 === -0, which read as a contact at the first step after its instant)
          if (fromStart && moving === -this.arming.fromSide(k) && this.contact < 0) {
            this.contact = k;
            this.contactFromStart = true;
          }
          continue;
        }
        // Resting with zero rate, leaving towards the side it fired into is a contact pushed
        // through; otherwise the step is scanned from its zero in the direction of its rate
        // (a whole flight of a ball can lie in one step).
        if (leaving === 'sitting') {
          if (Math.sign(g1) !== this.arming.fromSide(k) && this.contact < 0) {
            this.contact = k;
            this.contactFromStart = fromStart;
          }
          continue;
        }
        this.fromZero[k] = 1;
        this.earliest[k] = 0;
        candidates[nc++] = k;
        continue;
      }
      // Held by one with the same zeros (Arming.heldBySameZero): within that one's hold at the
      // step's end and inside it, its change of sign is the location's residue moving, not a
      // crossing (an event's function only: a switch has its own rules at zero)
      if (this.isEvent[k] && this.arming.heldBySameZero(k, g1, ah) && (affine[k] || !this.leftHold(stepper, k)))
        continue;
      // (a held function's side is its holding's: a bounce's residue is no side)
      if (g0 !== 0) this.lastSide[k] = g0 > 0 ? 1 : -1;
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
    this.stepA = a;
    this.stepB = b;
    if (this.checkUnresolved) {
      this.checkUnresolved = false;
      // (only the functions of events that do not commute with one fired can be ambiguous:
      // marked first, so that 130 candidates after every impact cost a look-up each)
      const mark = ++this.markId,
        marked = this.marked;
      for (const f of this.firedAtInstant) for (const k of this.conflicts.conflictingWatch(f)) marked[k] = mark;
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
    this.curveRates = isStiffStep(stepper);
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
    // (on steps that are not stiff, only event functions: a switch has its own rules at zero;
    // nor a relation's jump at a pole, where its terms are huge and no noise of theirs is)
    // (an explicit step held by stability is judged as a stiff one: its states are as far off
    // the slow solution, stiff-step.ts, isNoisyStep; its rates are left as they are)
    if (
      best >= 0 &&
      (this.curveRates || this.isEvent[best]) &&
      !this.atPole[best] &&
      this.noise.judge(
        stepper,
        best,
        a,
        this.candidateRight[best],
        b,
        this.arming.crossedTo[best],
        this.curveRates || isNoisyStep(stepper),
      )
    )
      return -1;
    return best;
  }

  /**
   * Whether held function k, back within its hold at the step's end, was off it inside the
   * step: one with a kink or a flat part (max(sin(t), 0) after it fell to zero at pi) can
   * leave its zero and come back to it within one step ([pi, 11.6] holds the whole bump over
   * [2 pi, 3 pi] and its fall at 3 pi), which the step's ends do not show. Seven even points;
   * an affine function cannot turn back, and is not sampled.
   */
  private leftInside(stepper: Stepper, k: number, hold = this.arming.lastHeldBand(k)): boolean {
    const a = stepper.tPrev,
      b = stepper.t;
    for (let i = 1; i < 8; i++) {
      const g = valueOnStep(this.ws, stepper, k, a + (i / 8) * (b - a), this.ws.yTmp);
      if (Math.abs(g) > hold) return true;
    }
    return false;
  }

  /** leftInside for function k held by one with the same zeros (Arming.band: that one's hold) */
  private leftHold(stepper: Stepper, k: number): boolean {
    return this.leftInside(stepper, k, this.arming.band(k));
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
    const rm = this.curveRates ? this.curveRate(k, tm) : m.rateOne[k](tmAbs, ws.yTmp, ws.p, ws.d, ws.sw);
    // A function leaving the zero it fired at starts from zero exactly (its rounding there
    // says nothing about its side)
    const fromZero = this.fromZero[k] === 1;
    // (so does one the instant's event iteration judged a touch, left at its zero heading back
    // to its side: x := 0 where y is 0 in exact arithmetic and -1e-16 here, x - y heading down,
    // "crossed" just after the instant, from the residue's side, round-verdicts.ts leftOnZero)
    const touched = !fromZero && this.firstAfterInstant && this.leftAtZero(k);
    // (and at rest there, its rate within its own band, with no rate: the residue's sign
    // made a crossing of an extremum at 1e-32 right after the instant, rate-band.ts)
    const g0 = fromZero || touched ? 0 : ws.gPrev[k],
      g1 = ws.gNew[k],
      r0 = fromZero && this.arming.restsInBand[k] ? 0 : ws.rPrev[k];
    if (gm !== gm) {
      this.fromZero[k] = 0;
      return false;
    }
    // A function at zero (at the start, or leaving the zero it fired at) is judged by where
    // it goes next: the sign of its rate in the direction of integration.
    let s0 = fromZero ? this.arming.holdSide[k] : touched ? Math.sign(dir * r0) : 0;
    if (s0 === 0) s0 = g0 !== 0 ? Math.sign(g0) : this.lastSide[k] || Math.sign(dir * r0);
    // (a truth value has no rate: NaN says nothing about the side)
    if (s0 !== s0) s0 = 0;
    this.scanK = k;
    this.samples.clear();
    this.samples.push(a, g0, r0);
    if (g0 === 0 && gm === 0 && g1 === 0 && !this.affine[k]) {
      // Exactly zero at both ends and the midpoint: a flat zero (max(s, 0) with s < 0 there),
      // on which the Hermite model sees nothing; s may still rise above 0 and fall back in
      // between (over [0.67, 4.09] of s = -(t - 1)(t - 2), a step dop853 took). Eight even
      // pieces: a bump narrower than that stays unseen, as one between any samples does.
      for (let i = 1; i < 8; i++) {
        const s = a + (i / 8) * (b - a);
        this.samples.push(s, this.gAt(s), this.scanRateValue);
      }
      this.samples.push(b, g1, ws.rNew[k]);
    } else this.samples.refine(this, a, g0, r0, tm, gm, rm, b, g1, ws.rNew[k], 0);
    // At zero with no rate (a flat part: max(s, 0) before s turns positive, or back on it) the
    // side it goes to is that of the first sample off zero: a bump inside the step (s from -2
    // up through 0.24 and back below 0 between two step ends where max(s, 0) is 0) is a
    // crossing like any other. (Judged only from g0 and r0, such a step was never scanned.)
    // Off zero by more than its rounding: an integrator's noise below it is no side (x - 0.5 t
    // along x' = 0.5 after x := 0, 8e-22 on rodas, was scanned and refused as unresolved).
    if (s0 === 0) {
      const noise = 4 * m.boundOne[k](ws.origin.abs(b), stepper.y, ws.p, ws.d, ws.sw);
      const g = this.samples.g;
      for (let i = 1; s0 === 0 && i < this.samples.n; i++) if (Math.abs(g[i]) > noise) s0 = Math.sign(g[i]);
    }
    if (s0 !== s0) s0 = 0;
    if (s0 === 0) {
      this.fromZero[k] = 0;
      return false;
    }
    // One the flow has not turned since it fired is scanned only from where it turns, or
    // rather from its last sample before that on the side it went to: the way back across
    // lies after it (a sample past that way back may show a rate that is a stiff step's noise).
    const from = this.arming.unturned[k];
    let start = from !== 0 ? this.settleUnturned(k, from, fromZero) : 0;
    while (start > 0 && !(from * this.samples.g[start] < 0)) start--;
    if (start > 0) s0 = -from;
    if (start >= 0 && this.scanSamples(s0, this.direction[k], dir, fromZero && start === 0, start)) return true;
    this.fromZero[k] = 0;
    return false;
  }

  /** Locates bracketed candidate k (see locate); notes a contact; true when it counts. */
  private locateFound(k: number, a: number, b: number): boolean {
    const located = this.locate(k);
    // Leaving the zero it fired at, it is back across before it ever showed the side it
    // left for: a flight lower than g's own rounding (a ball riding a moving table). That
    // is a contact the arithmetic cannot resolve as bounces. (How far on, in the run's
    // direction: backwards, a crossing a whole unit later is a negative distance, and the
    // next crossing of x^2 - 1 after the one at x = -1 was taken for a contact.)
    if (
      located &&
      this.fromZero[k] === 1 &&
      this.ws.dir * (this.candidateRight[k] - a) <= 4 * Number.EPSILON * Math.max(Math.abs(a), Math.abs(b)) &&
      this.contact < 0
    ) {
      this.contact = k;
      this.contactFromStart = false;
    }
    this.fromZero[k] = 0;
    return located;
  }

  /**
   * Function k fired from side `from` and has not been turned back towards it since
   * (arming.ts, unturned): no change of its sign is a crossing until the flow turns it. Walks
   * its samples in this step for the first whose flow rate, beyond its rounding, points to
   * `from`, and returns its index, where the flow has turned it (0 when the step
   * starts or ends with it farther on that side than the run's tolerance on it, atol
   * included: values the error control vouches for, a jump of an `if` or a reset by another
   * event's action); -1 when the flow did not turn it: nothing to find. So an excursion back
   * across that the flow cannot make is no new crossing, and one it makes is:
   * h' = -k sqrt(max(h, 0)) is never positive, and dop853's interpolant, whose inside no error
   * control watches, went up by 1.2e-9 from h = 1.2e-20 and back over a step that ended at
   * h = -1.9e-11. (The flow's rate, not the interpolant's slope a stiff step scans with.)
   */
  private settleUnturned(k: number, from: number, fromZero: boolean): number {
    const ws = this.ws,
      m = ws.model,
      dir = ws.dir,
      stepper = this.stepper!;
    const { t: sT, n: sN } = this.samples;
    const y = this.curveY;
    // (nor the residue its location left, which a steep crossing makes larger than the
    // tolerance: z - 2 located at a rate of 1e6 stood 2.2e-10 off, 100 times rtol of z)
    const held = this.arming.lastHeldBand(k);
    const beyond = (s: number, g: number): boolean => {
      if (!(from * g > 0) || !(from * g > held)) return false;
      // (at a pole on that side: beyond any tolerance, as in backTo)
      if (from * g === Infinity) return true;
      stepper.interpolateSome(s, m.watchStates[k], y);
      return from * g > functionTolerance(ws, k, ws.origin.abs(s), y, this.rtol, this.atol);
    };
    if ((!fromZero && beyond(stepper.tPrev, ws.gPrev[k])) || beyond(stepper.t, ws.gNew[k])) {
      this.arming.unturned[k] = 0;
      return 0;
    }
    for (let i = 0; i < sN; i++) {
      const t = ws.origin.abs(sT[i]);
      stepper.interpolateSome(sT[i], m.watchStates[k], y);
      const rate = m.rateOne[k](t, y, ws.p, ws.d, ws.sw);
      if (dir * rate * from > 0 && dir * rate * from > 4 * m.rateBoundOne[k](t, y, ws.p, ws.d, ws.sw)) {
        this.arming.unturned[k] = 0;
        return i;
      }
    }
    return this.backPastPole(k, from);
  }

  /**
   * The flow cannot turn a function back, but a pole can take it back to the side it fired
   * from: tan(t) - 1, rising through zero at pi/4 with a positive rate ever after, is back
   * below zero past pi/2 and rises through zero again at 5 pi/4. The index of the last sample
   * before the first pole in this step through which function k (scanK) jumps to side `from`
   * (it counts as turned there), or -1.
   */
  private backPastPole(k: number, from: number): number {
    const { t: sT, g: sG, r: sR, n: sN } = this.samples;
    for (let i = 0; i + 1 < sN; i++) {
      if (!(from * sG[i] < 0 && from * sG[i + 1] > 0)) continue;
      locateCrossing(this.scan, sT[i], sG[i], sT[i + 1], sG[i + 1], this.bracket, sR[i], sR[i + 1]);
      if (isPole(this.ws, this.stepper!, k, this.bracket.left, this.bracket.right, this.curveY)) {
        this.arming.unturned[k] = 0;
        return i;
      }
    }
    return -1;
  }

  /**
   * Walks the samples of function scanK in order; brackets its first crossing in `direction`.
   * Samples still exactly at a zero it sits at have not left it (max(h, 0) sits at zero once
   * h has reached it: no crossing until it moves): the zero it fired at (`fromZero`), one it
   * starts the step at, one it reached inside the step without crossing in its direction.
   */
  private scanSamples(
    s0: number,
    direction: 'rises' | 'falls' | 'crosses',
    dir: number,
    fromZero: boolean,
    start = 0,
  ): boolean {
    let s = s0;
    const { t: sT, g: sG, r: sR, n: sN } = this.samples;
    // (starting exactly at zero it has not crossed yet: where it reached zero, at an earlier
    // step's end, that step judged the crossing; one at zero at an instant and heading away
    // stays at exactly zero for a step shorter than its rounding takes to leave: b - 3026,
    // rising at 2, rounds to 0 for 7e-14 after the instant, a step radau5 may take)
    let atZero = fromZero || sG[start] === 0;
    for (let i = start; i + 1 < sN; i++) {
      let ta = sT[i],
        ga = sG[i],
        ra = sR[i];
      const tb = sT[i + 1],
        gb = sG[i + 1],
        rb = sR[i + 1];
      if (atZero) {
        if (gb === 0) {
          // At zero at both samples while its rates say it left and came back between them
          // (min(x - 1, 1.5 - x) over a step from x = 1 to 2, sampled at 1, 1.5 and 2): the
          // excursion's extremum shows the side it went to, and the rest is judged from there.
          if (!(ra !== 0 && Math.sign(ra) === -Math.sign(rb))) continue;
          this.scanRate = true;
          locateCrossing(this.scan, ta, ra, tb, rb, this.bracket);
          this.scanRate = false;
          const te = this.bracket.right,
            ge = this.gAt(te);
          if (!(ge !== 0)) continue;
          ta = te;
          ga = ge;
          ra = this.scanRateValue;
          s = Math.sign(ge);
        }
        atZero = false;
      }
      if (gb === 0 || Math.sign(gb) !== s) {
        // exactly zero at one sample and back on its side at the next: a touch (abs(h) at
        // h = 0), not a crossing; one that stays at zero (max(h, 0)) or goes across crosses
        if (gb === 0 && i + 2 < sN && Math.sign(sG[i + 2]) === s) {
          if (this.deltaArgument[this.scanK]) return this.touch(tb);
          continue;
        }
        if (matches(direction, dir * s))
          return this.bracketCrossing(ta, ga !== 0 ? ga : s * Number.MIN_VALUE, tb, gb, ra, rb);
        // Reached zero from the side its direction does not name, it sits there on that side:
        // the next samples at zero are the same zero, not a crossing from the other side (max(h,
        // 0) rises fired on the plateau after h fell to zero), and only leaving it the other
        // way goes on across (sitting at zero afterwards does not fire, MODEL-LANGUAGE).
        if (gb === 0) atZero = true;
        else s = Math.sign(gb);
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
      k = this.scanK;
    this.stepper!.interpolateSome(t, ws.model.watchStates[k], ws.yTmp);
    return functionTolerance(ws, k, ws.origin.abs(t), ws.yTmp, this.rtol, this.atol);
  }

  /** See delta-touch.ts: a fired delta's argument that crosses too slowly to weigh, or -1. */
  touchingDelta(fired: readonly number[], t: number, tLocal: number, y: Float64Array): number {
    return this.stepper === null ? -1 : touchingDelta(this.ws, this.stepA, fired, t, tLocal, y, this.rtol, this.atol);
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

  /**
   * Function k (scanK), leaving the zero its event fired at, starts its scan from zero exactly
   * (fromZero), on the side it leaves for; where its residue there lies on the other side,
   * its true values cross that residue's own zero just after the step's start, and a bracket
   * from the start, whose other end is on the far side (the next crossing), may collapse onto
   * that: a ball bouncing elastically beside Robertson's kinetics (radau5 at rtol 1e-6) was
   * left at h = -8e-15, rising at 14, took a step of two flights whose midpoint fell on the
   * next bounce, and that bracket, [0, 2.8557], collapsed onto 4.4e-16: a false "persisting
   * contact". The bracket starts where its values have reached the side it left for.
   */
  private pastResidue(k: number): void {
    const ws = this.ws,
      a = this.stepA,
      b = this.stepB;
    const side = this.arming.holdSide[k],
      g0 = ws.gPrev[k],
      rate = Math.abs(ws.rPrev[k]);
    if (this.fromZero[k] !== 1 || this.sampleLeft[k] !== a || side === 0 || !(g0 * side < 0) || !(rate > 0)) return;
    const right = this.sampleRight[k],
      dir = Math.sign(b - a);
    // from twice the time its rate takes to cross its residue, doubling, within the bracket
    // (d > 0 fails for a residue whose time to cross underflows: then there is no room before it)
    for (let d = (2 * Math.abs(g0)) / rate; d > 0; d *= 2) {
      const s = a + dir * d;
      if (!(dir * (right - s) > 0)) return;
      const g = this.gAt(s);
      if (g * side > 0) {
        this.sampleLeft[k] = s;
        this.sampleG[2 * k] = g;
        this.sampleR[2 * k] = this.scanRateValue;
        return;
      }
    }
  }

  /** Locates function k's bracketed crossing; false when an event placed before it used it up. */
  private locate(k: number): boolean {
    this.scanK = k;
    this.pastResidue(k);
    for (;;) {
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
      this.atPole[k] = 0;
      if (!isPole(this.ws, this.stepper!, k, this.bracket.left, this.bracket.right, this.curveY)) break;
      // An event function's sign change through a pole is no crossing (poles.ts): its first
      // crossing after the pole, if the step holds one, is the one. A relation's is, as a
      // switch's is (1/x > 2 turns true where x passes 0): a jump, not a zero within noise.
      if (!this.poleless[k]) {
        this.atPole[k] = 1;
        break;
      }
      if (!this.scanPast(k, this.bracket.right)) return false;
    }
    // a crossing an event placed before it has used up (locate before) does not count again
    const until = this.consumedUntil[k];
    if (until === until && this.ws.dir * (this.ws.origin.abs(this.bracket.right) - until) <= 0) return false;
    this.candidateLeft[k] = this.bracket.left;
    this.candidateRight[k] = this.bracket.right;
    this.located[this.locatedCount++] = k;
    this.arming.crossedTo[k] = -Math.sign(this.sampleG[2 * k]);
    // (across its zero: the side it came from says nothing about where it stands now)
    this.lastSide[k] = 0;
    return true;
  }

  /**
   * The side function k's rate at the end of the step points to, in the run's direction, where
   * it is beyond that rate's rounding (0: within it): a motion
   * that moves it, however little the step did (a ball at rest on the floor at x = 1e6 under
   * gravity sinks 4.9 h^2, below the rounding of x - 1e6 over rodas' first step of 1e-5). A
   * flat zero (max(x - 1, 0) before x reaches 1) has none.
   */
  private movingAtEnd(k: number, stepper: Stepper): number {
    const ws = this.ws;
    const rate = ws.dir * ws.rNew[k];
    const bound = ws.model.rateBoundOne[k](ws.origin.abs(stepper.t), stepper.y, ws.p, ws.d, ws.sw);
    return Math.abs(rate) > 4 * bound ? Math.sign(rate) : 0;
  }

  /**
   * Samples function k (scanK) from `from`, just past a pole, to the end of the step being
   * scanned, and brackets its first crossing there in its direction (false: none).
   */
  private scanPast(k: number, from: number): boolean {
    const b = this.stepB;
    if (!(this.ws.dir * (b - from) > 0)) return false;
    const g0 = this.gAt(from),
      r0 = this.scanRateValue;
    const tm = from + 0.5 * (b - from);
    const gm = this.gAt(tm),
      rm = this.scanRateValue;
    this.samples.clear();
    this.samples.push(from, g0, r0);
    this.samples.refine(this, from, g0, r0, tm, gm, rm, b, this.ws.gNew[k], this.ws.rNew[k], 0);
    return this.scanSamples(Math.sign(g0), this.direction[k], this.ws.dir, false);
  }

  /**
   * Whether armed event function k starts the step (right after an instant) within its own
   * rounding of zero and heading across in its direction: a gap x2 - x1 of 1e-17 between
   * spheres near x = 3, where the positions cannot tell which impact comes first.
   */
  private startsUnresolved(k: number, stepper: Stepper): boolean {
    const ws = this.ws,
      m = ws.model;
    if (!this.isEvent[k] || this.arming.held[k] || this.arming.unturned[k] || this.fromZero[k]) return false;
    if (this.instantAtStart || this.judged(k)) return false;
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

  /** Watched function k on the dense output of the step being scanned, at s (the stepper's t). */
  valueAt(k: number, s: number): number {
    return valueOnStep(this.ws, this.stepper!, k, s, this.curveY);
  }

  // What the last scan left, read-only: coincidence.ts reads it to find the functions that
  // join an instant found in that step, crossings-at-end.ts to judge its crossings at the end
  // of the range.

  /** the stepper of the last step scanned with candidates (null before the first) */
  get scannedStepper(): Stepper | null {
    return this.stepper;
  }

  /** the last step scanned, in the stepper's t: its start, its end, and its midpoint */
  get scannedStart(): number {
    return this.stepA;
  }

  get scannedEnd(): number {
    return this.stepB;
  }

  get scannedMidpoint(): number {
    return this.tm;
  }

  /** the functions that could cross in that step, as find found them, and how many */
  get scannedCandidates(): ArrayLike<number> {
    return this.stepCandidates;
  }

  get scannedCandidateCount(): number {
    return this.stepCandidateCount;
  }

  /** per candidate function: the earliest fraction of that step at which it could cross */
  get earliestFraction(): ArrayLike<number> {
    return this.earliest;
  }

  /** per function: the side of zero of its last nonzero value at a step's end (0: none) */
  get lastSides(): ArrayLike<number> {
    return this.lastSide;
  }

  /** scratch: the states of the step's dense output, as valueAt reads them; coincidence.ts's pole tests use it too */
  get scratchY(): Float64Array {
    return this.curveY;
  }

  /**
   * After an instant: the functions its actions can change forget the side they were on,
   * and whether the flow turned them since their events fired (an action may have moved
   * them anywhere; the fired events' own are armed again after this, arming.ts).
   */
  afterActions(fired: readonly number[], at: number): void {
    const ws = this.ws,
      m = ws.model,
      unturned = this.arming.unturned;
    for (const e of fired) {
      const touches = m.events[e].touches;
      for (let i = 0; i < touches.length; i++) {
        const k = touches[i];
        this.lastSide[k] = 0;
        // (a function held heading on across stays so while the actions leave its rate
        // heading that way: z - 2, held with its location's residue at a rate of -2, which a
        // later instant made -2.5, counted the residue's sign change as a new crossing)
        // Unless the actions put it back on the side it fired from, beyond what the run's
        // tolerance and its location's residue vouch for (ws.gPrev holds it after them): then
        // it has come back, by an action, and its next crossing is one. Left unturned, it was a
        // candidate again only near its zero, where no step showed the way back (x2 := 0 by a
        // tick every 1e8 under x2' = -1e8 (x2 - 1), whose `x2 - 0.5 rises` the steps after the
        // tick, far shorter than its way up, found twice in ten, status ok): settleUnturned's
        // test, which those steps never reached.
        const from = unturned[k];
        if (from !== 0 && Math.sign(ws.dir * ws.rPrev[k]) === -from && !this.backTo(k, from, at)) continue;
        unturned[k] = 0;
      }
    }
  }

  /**
   * Whether function k stands on side `from` at the instant `at` (ws.y, ws.gPrev there) beyond
   * its location's residue and the run's tolerance on it (as settleUnturned's values the error
   * control vouches for).
   */
  private backTo(k: number, from: number, at: number): boolean {
    const g = from * this.ws.gPrev[k];
    // (an infinite value on that side is there beyond any tolerance: a pole, whose bound, and so
    // the tolerance on it, is infinite too. `x := 0` at a tick put 1/x - 2, which had fallen
    // through zero before, at +Infinity: not judged back, it stayed unturned, and its next
    // `falls` at x = 1/2 was taken for the way on from its old zero: lost, status ok)
    if (g === Infinity) return true;
    return g > this.arming.lastHeldBand(k) && g > functionTolerance(this.ws, k, at, this.ws.y, this.rtol, this.atol);
  }

  /** Whether event e does not commute with one fired at the instant: one writes what the other reads. */
  private conflictsWithFired(e: number): boolean {
    return this.conflicts.conflictsWith(e, this.firedAtInstant, this.firedAtInstant.length);
  }
}
