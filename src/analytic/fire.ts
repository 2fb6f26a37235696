/**
 * The actions of one instant on the analytic path: the same semantics as the stepper's
 * firing (driver/firing.ts; MODEL-LANGUAGE.md, "Events, precisely") — every action reads the
 * pre-event values, all assignments apply together, event iteration fires what the actions
 * make cross, the ledger and the before/after rows — but at a cost of O(what the actions
 * write), not O(N): only the slots an event writes are copied (EVENTS.md 4), so an impact in
 * a row of 16384 spheres touches four numbers, not 32768.
 */
import { MAX_EVENT_ITERATIONS, type FireOutcome } from '../driver/firing.js';
import {
  afterAlone,
  CROSSED,
  heldThrough,
  judgeAcross,
  LEFT_ZERO,
  leftOnZero,
  LocatedResidues,
  NOT_CROSSED,
  NOT_HELD,
  OPEN,
  rateSign,
  readFunction,
  sideBefore,
  undoneImpacts,
  zeroFiredHere,
  type FunctionPoint,
  type HeldZeros,
} from '../driver/round-verdicts.js';
import type { Recorder } from '../driver/recorder.js';
import type { ValueRecord } from '../driver/types.js';
import type { Workspace } from '../driver/workspace.js';
import type { EventPlan } from './plan.js';
import { tieTolerance } from '../driver/time-tie.js';
import { RoundMarks } from '../driver/round-marks.js';
import { ActionResidue } from '../driver/action-residue.js';

const NONE: number[] = [];
/** the pre/post/jumps of every event of a run with `eventValues: false` */
const NO_VALUES: ValueRecord = Object.freeze(Object.create(null) as ValueRecord);

/** The stepper's outcome of an instant, without sliding modes and Marcus flows (the analytic path has neither). */
export type InstantOutcome = Omit<FireOutcome, 'sliding' | 'flowFailed'>;

export class AnalyticFiring {
  /** whether the run writes rows at all, and fills the ledger's values */
  rows = true;
  withValues = true;
  /** the run's floor of the tie tolerance (driver/time-tie.ts, tieFloor) */
  tieFloor = 1;
  /** the time of the last instant fired (NaN before the first): a run that ends there ends after it */
  lastInstant = NaN;
  /** functions that event iteration looks at, and their values, rates and roundings before the actions */
  private readonly moved: Int32Array;
  private readonly movedBefore: Float64Array;
  /**
   * The watched functions the last valuesBefore call listed in `moved` (listed) and those an
   * action of its round moves (movedNow): a lookup each, where a scan of the list and of every
   * event's `moves` made an arriving delta that touches N functions cost N²
   * (examples/lif_network.delta).
   */
  private readonly listed: RoundMarks;
  private readonly movedNow: RoundMarks;
  /** the watched functions the current instant's event iteration judged */
  private readonly judgedSet: RoundMarks;
  /** of those, the ones it left at zero without firing them (round-verdicts.ts, leftOnZero) */
  private readonly onZeroSet: RoundMarks;
  /** the functions held at rest at their own zero since an earlier instant (the engine sets it) */
  held: HeldZeros | null = null;
  /** the zeros located at the instant: each one's value there before any action */
  private readonly residues: LocatedResidues;
  /** the rounding the instant's actions left in the values they summed (driver/action-residue.ts) */
  private readonly actionResidue: ActionResidue;
  private readonly point: FunctionPoint = { g: 0, rate: 0, gBound: 0, rateBound: 0 };
  private readonly pointBefore: FunctionPoint = { g: 0, rate: 0, gBound: 0, rateBound: 0 };
  /**
   * Per event that event iteration fired: its function's value, rounding and approach sign
   * (0: a rate within its rounding) just before its own actions, after the round that sent it
   * across; the engine's re-arming reads them as it reads those of the events due at the
   * instant, taken before any action.
   */
  readonly sentValue: Float64Array;
  readonly sentBound: Float64Array;
  readonly sentApproach: Int8Array;
  /**
   * Per watched function that the last instant's event iteration judged (judged(k)): its
   * rate's own band there (0 where it was left off zero). The instant is known to the tie
   * tolerance of t, and the rate only to its motion over that: |R'| times it, R' the rate's
   * rate (as on the steppers, driver/rate-band.ts). x := 0 where v = 3.9 - 3t falls through 0
   * at t = 1.3 leaves x' = v = -4.4e-16, the location's residue: taken for motion, x set
   * onto its zero from below at rest was judged heading down, not crossed (n = 0, status ok),
   * or, at +1.1e-16, heading up and back across at once (a false "persisting contact").
   */
  readonly rateBand: Float64Array;
  /** per entry of `moved`: |R'| before the round's actions (rateOfRate) */
  private readonly accelBefore: Float64Array;
  /** the coefficients of one function (rateOfRate), grown to the highest degree asked for */
  private taylor = new Float64Array(8);

  constructor(
    private readonly ws: Workspace,
    private readonly recorder: Recorder,
    private readonly plans: readonly EventPlan[],
    /** brings the groups event k touches to the instant */
    private readonly prepare: (k: number) => void,
  ) {
    this.moved = new Int32Array(Math.max(1, ws.nWatch));
    this.movedBefore = new Float64Array(4 * Math.max(1, ws.nWatch));
    this.listed = new RoundMarks(ws.nWatch);
    this.movedNow = new RoundMarks(ws.nWatch);
    this.judgedSet = new RoundMarks(ws.nWatch);
    this.onZeroSet = new RoundMarks(ws.nWatch);
    this.residues = new LocatedResidues(ws.nWatch);
    this.actionResidue = new ActionResidue(ws);
    const n = ws.model.events.length;
    this.sentValue = new Float64Array(n);
    this.sentBound = new Float64Array(n);
    this.sentApproach = new Int8Array(n);
    this.rateBand = new Float64Array(Math.max(1, ws.nWatch));
    this.accelBefore = new Float64Array(Math.max(1, ws.nWatch));
  }

  /** the outcome of the last instant (one object, reused: the caller reads it at once) */
  private readonly outcome: InstantOutcome = {
    count: 0,
    stopped: false,
    stopper: '',
    iterationFailed: false,
    fired: [],
  };

  /**
   * Applies `fired` (in file order) at t to (ws.y, ws.d), with the ledger and the rows. The
   * outcome is reused by the next call.
   */
  fire(t: number, fired: readonly number[]): InstantOutcome {
    this.judgedSet.clear();
    this.onZeroSet.clear();
    const out = this.outcome;
    out.count = 0;
    out.stopped = false;
    out.stopper = '';
    out.iterationFailed = false;
    out.fired = [];
    // one event that moves no other function, nothing to record: the whole instant is its action
    if (
      fired.length === 1 &&
      !this.withValues &&
      !this.rows &&
      this.ws.model.events[fired[0]].moves.length === 0 &&
      !this.touchesZero(t, fired[0])
    ) {
      this.fireOne(t, fired[0]);
      out.fired.push(fired[0]);
      return out;
    }
    return this.general(t, fired);
  }

  /**
   * One event alone whose actions move no other event's function, with no rows or ledger
   * values to write. (The outcome's `fired` is then [k]: the caller knows it; it is left as
   * it was, since emptying an array costs more than the rest of an impact.)
   */
  fireOne(t: number, k: number): InstantOutcome {
    this.judgedSet.clear();
    this.onZeroSet.clear();
    // (no function at a zero located here but its own: touchesZero)
    this.residues.forget();
    this.lastInstant = t;
    const ws = this.ws,
      ev = ws.model.events[k],
      out = this.outcome;
    out.count = 0;
    out.stopped = false;
    out.stopper = '';
    out.iterationFailed = false;
    const { ySlots, dSlots } = this.plans[k];
    // (yOut, dOut start as the values before: the actions write only some of the slots)
    const { y, d, yOut, dOut } = ws;
    for (let i = 0; i < ySlots.length; i++) yOut[ySlots[i]] = y[ySlots[i]];
    for (let i = 0; i < dSlots.length; i++) dOut[dSlots[i]] = d[dSlots[i]];
    ws.applyActions(k, t, y, d, ws.sw, yOut, dOut, 1);
    for (let i = 0; i < ySlots.length; i++) y[ySlots[i]] = yOut[ySlots[i]];
    for (let i = 0; i < dSlots.length; i++) d[dSlots[i]] = dOut[dSlots[i]];
    this.recorder.ledger({
      t,
      name: ev.name,
      kind: ev.kind,
      source: ev.source,
      pre: NO_VALUES,
      post: NO_VALUES,
      jumps: NO_VALUES,
    });
    out.count = 1;
    if (ev.stops) {
      out.stopped = true;
      out.stopper = ev.name;
    }
    return out;
  }

  private general(t: number, fired: readonly number[]): InstantOutcome {
    this.lastInstant = t;
    const ws = this.ws,
      m = ws.model,
      rec = this.recorder,
      plans = this.plans,
      out = this.outcome;
    const { p, sw, y, d, yOut, dOut, yPre, dPre } = ws;
    const all = out.fired;
    let round: readonly number[] = fired;
    const withValues = this.withValues;
    const needOutputs = withValues || this.rows;
    if (needOutputs) m.outputsAtInstant(t, y, p, d, sw, ws.outPre, 1);
    if (this.rows) rec.beforeRow(t, ws.outPre);
    this.residues.take(ws, t, fired, tieTolerance(t, this.tieFloor));
    this.actionResidue.begin();
    for (let iteration = 0; round.length > 0; iteration++) {
      if (iteration >= MAX_EVENT_ITERATIONS) {
        out.iterationFailed = true;
        return out;
      }
      for (const k of round) {
        all.push(k);
        if (iteration > 0) this.prepare(k);
      }
      const preValues = withValues ? rec.values(t, ws.outPre) : NO_VALUES;
      for (const k of round) {
        const { ySlots, dSlots } = plans[k];
        for (let i = 0; i < ySlots.length; i++) yPre[ySlots[i]] = yOut[ySlots[i]] = y[ySlots[i]];
        for (let i = 0; i < dSlots.length; i++) dPre[dSlots[i]] = dOut[dSlots[i]] = d[dSlots[i]];
      }
      this.actionResidue.startRound(round);
      for (const k of round) ws.applyActions(k, t, y, d, sw, yOut, dOut, 1, this.actionResidue.scale);
      this.actionResidue.endRound(yOut, dOut);
      // Event iteration: the functions these actions can move, before and after.
      const nMoved = this.valuesBefore(t, round);
      const own = round.length > 1 ? this.ownBefore(t, round) : null;
      this.commit(round, yOut, dOut);
      let next = this.crossedBy(t, nMoved);
      // (an impact of the round that another of its events undid goes round again: driver/firing.ts)
      const undone =
        own &&
        undoneImpacts(
          m,
          round,
          1,
          tieTolerance(t, this.tieFloor),
          (k) => own.rates.get(k) ?? NaN,
          (e) => own.alone.get(e) ?? 0,
          (k) => readFunction(ws, k, t, y, d, this.point),
        );
      if (undone) next = this.resend(t, undone, own!.rates, next);
      // (after the events: relations at their zero on the side the motion goes on to)
      if (needOutputs) m.outputsAtInstant(t, y, p, d, sw, ws.outPost, -1);
      const postValues = withValues ? rec.values(t, ws.outPost) : NO_VALUES;
      // several events at one instant: each ledger line shows what its own actions did, from
      // the values before the round (put back once, and the round's results after the ledger)
      const alone = withValues && round.length > 1;
      if (alone) for (const j of round) this.restore(j, yPre, dPre);
      for (const k of round) {
        const ev = m.events[k];
        let jumps = NO_VALUES;
        if (withValues) {
          jumps = rec.emptyRecord();
          const own = alone ? this.ownEffect(t, k) : postValues;
          for (const v of ev.changes) if (v in own) jumps[v] = own[v] - preValues[v];
        }
        rec.ledger({ t, name: ev.name, kind: ev.kind, source: ev.source, pre: preValues, post: postValues, jumps });
        out.count++;
        if (ev.stops) {
          out.stopped = true;
          out.stopper = ev.name;
        }
      }
      if (alone) this.commit(round, yOut, dOut);
      round = next ? next.sort((a, b) => a - b) : NONE;
      if (needOutputs) ws.outPre.set(ws.outPost);
    }
    if (this.rows) rec.fixedRow(t, ws.outPost);
    return out;
  }

  /**
   * Whether the last instant's event iteration judged watched function k (an action could
   * move it; sentAcross decided from its values before and after): if it did not fire, it
   * touched zero or was moved off it, and the next prediction takes it as leaving zero.
   */
  judged(k: number): boolean {
    return this.judgedSet.has(k);
  }

  /**
   * Forgets the last instant's judgements at the start of a run: they belong to the run that
   * made them. (Kept, a function the previous run's last instant left at its zero, x := 0 with
   * x heading down, was taken at the next run's start as at zero: its value there divided out
   * as a root, e3 fired where x came back to its initial -1: n = 1 for 0 in every run of a
   * sweep after the first.)
   */
  beginRun(): void {
    this.judgedSet.clear();
    this.onZeroSet.clear();
  }

  /** Whether the last instant's event iteration judged function k a touch: left at its zero, not fired. */
  leftAtZero(k: number): boolean {
    return this.onZeroSet.has(k);
  }

  /** Writes the round's results (yOut, dOut at the slots it writes) into y and d. */
  private commit(round: readonly number[], ys: Float64Array, ds: Float64Array): void {
    const { y, d } = this.ws;
    for (const k of round) {
      const { ySlots, dSlots } = this.plans[k];
      for (let i = 0; i < ySlots.length; i++) y[ySlots[i]] = ys[ySlots[i]];
      for (let i = 0; i < dSlots.length; i++) d[dSlots[i]] = ds[dSlots[i]];
    }
  }

  /**
   * The state events' functions the round's actions can send across, read before them (into
   * `moved`); returns how many. A function whose value no action of the round changes (its
   * rate may change), that sits beyond its rounding of zero and whose zero was not located at
   * this instant is left out: `sentAcross` needs a change of sign or a value within that band.
   */
  private valuesBefore(t: number, round: readonly number[]): number {
    const ws = this.ws,
      m = ws.model,
      { y, p, d, sw } = ws;
    let n = 0;
    const listed = this.listed,
      movedNow = this.movedNow;
    listed.clear();
    movedNow.clear();
    // the functions an action of the round can change the value of (its events' `moves`)
    for (const e of round) {
      const moves = m.events[e].moves;
      for (let i = 0; i < moves.length; i++) movedNow.add(moves[i]);
    }
    for (const e of round) {
      const touches = m.events[e].touches;
      for (let i = 0; i < touches.length; i++) {
        const k = touches[i],
          w = m.watchInfo[k];
        if (w.kind !== 'event' || round.includes(w.event) || listed.has(k)) continue;
        // (a delta's argument that an action jumps across zero never passes through it: no
        // weight, no impulse; `n := 0.5` at t = 1 with delta(t - n) gave y = 1, exact 0)
        const ev = m.events[w.event];
        if (ev.kind === 'state' && ev.fromDelta) continue;
        if (!movedNow.has(k) && !zeroFiredHere(m, k, this.outcome.fired) && !this.residues.located(ws, k)) {
          const g = m.watchOne[k](t, y, p, d, sw);
          if (Math.abs(g) > 4 * m.boundOne[k](t, y, p, d, sw)) continue;
        }
        this.moved[n] = k;
        listed.add(k);
        readFunction(ws, k, t, ws.y, ws.d, this.point);
        this.point.gBound += this.actionResidue.of(k, t, ws.y, ws.d, sw, true);
        this.movedBefore[4 * n] = this.point.g;
        this.movedBefore[4 * n + 1] = this.point.rate;
        this.movedBefore[4 * n + 2] = this.point.gBound;
        this.movedBefore[4 * n + 3] = this.point.rateBound;
        this.accelBefore[n] = this.rateOfRate(k, t);
        n++;
      }
    }
    return n;
  }

  /** The events whose functions the round's actions sent across in their direction (sentAcross), or null. */
  private crossedBy(t: number, n: number): number[] | null {
    const ws = this.ws,
      m = ws.model,
      before = this.pointBefore,
      mb = this.movedBefore;
    let next: number[] | null = null;
    for (let i = 0; i < n; i++) {
      const k = this.moved[i];
      before.g = mb[4 * i];
      before.rate = mb[4 * i + 1];
      before.gBound = mb[4 * i + 2];
      before.rateBound = mb[4 * i + 3];
      before.rateBand = 0;
      this.rateBand[k] = 0;
      const after = readFunction(ws, k, t, ws.y, ws.d, this.point);
      // (a value an action summed onto its zero: on the scale of the terms it summed)
      after.gBound += this.actionResidue.of(k, t, ws.y, ws.d, ws.sw);
      const e = (m.watchInfo[k] as { event: number }).event;
      // (the analytic path locates a zero to the tie tolerance of t)
      // (or, whatever its expression, its value there: LocatedResidues.located)
      const firedHere = zeroFiredHere(m, k, this.outcome.fired) || this.residues.located(ws, k);
      // (held at rest at its own zero since an earlier instant: it leaves zero, or stays there
      // and is predicted from it, engine.ts; as on the steppers)
      const held = firedHere ? NOT_HELD : heldThrough(this.held, m, k, 1, before, after);
      if (held === LEFT_ZERO) this.judgedSet.add(k);
      if (held !== NOT_HELD) continue;
      const dt = tieTolerance(t, this.tieFloor);
      // where its zero was located at this instant, a value within its rounding and the
      // location's is that zero: the sign of the residue is noise (x = 0.1 t at 0.3, located
      // at 2.9999999999999996, is 5.6e-17 short), and an action that then moves it away is a
      // reset, not a crossing from the residue's side
      if (firedHere && Math.abs(before.g) <= 4 * before.gBound + Math.abs(before.rate) * dt) before.g = 0;
      // (and stays it while no action changes the value, whatever the rate does)
      this.residues.zeroOut(k, before, after);
      // (left near its zero: its rate within the rate's own band is zero, see rateBand)
      let band = 0;
      if (Math.abs(after.g) <= 4 * after.gBound + Math.abs(before.rate) * dt)
        band = Math.max(this.accelBefore[i], this.rateOfRate(k, t)) * dt;
      before.rateBand = after.rateBand = band;
      this.rateBand[k] = band;
      const verdict = judgeAcross(m.events[e].direction ?? 'crosses', 1, before, after, firedHere, dt, dt);
      if (verdict !== OPEN) this.judgedSet.add(k);
      if (verdict === NOT_CROSSED && leftOnZero(before, after, firedHere, dt, dt)) this.onZeroSet.add(k);
      else this.onZeroSet.delete(k);
      if (verdict === CROSSED) {
        (next ??= []).push(e);
        this.sentValue[e] = after.g;
        // (where its zero was located here, its value is as good as that location: the
        // residue of `x falls` at the instant `x rises` fired on a linear block is 4.2e-13,
        // x' = 1087 over the rounding of t; within its rounding alone, it "crossed again" at
        // once, a false persisting contact)
        this.sentBound[e] = after.gBound + (firedHere ? Math.abs(before.rate) * dt : 0);
        // (at rest after the round, it arrived by the jump: from the side it stood on before,
        // a ball lowered onto the floor by a reset, which its impact then leaves at rest)
        this.sentApproach[e] =
          Math.abs(after.rate) > after.rateBound + band ? Math.sign(after.rate) : -sideBefore(before);
      }
    }
    return next;
  }

  /**
   * |R'|, the rate of watched function k's rate along the flow at the instant (its groups
   * there): twice its Taylor coefficient of order 2; 0 for a function of lower degree.
   */
  private rateOfRate(k: number, t: number): number {
    const w = this.ws.model.watchInfo[k];
    if (w.kind !== 'event') return 0;
    const plan = this.plans[w.event];
    if (plan.coefficients === null || plan.degree < 2) return 0;
    if (this.taylor.length < 2 * (plan.degree + 1)) this.taylor = new Float64Array(2 * (plan.degree + 1));
    const ws = this.ws;
    plan.coefficients(t, ws.y, ws.p, ws.d, this.taylor);
    const r = 2 * Math.abs(this.taylor[2]);
    // (beyond double range it measures nothing: no band, as on the steppers)
    return Number.isFinite(r) ? r : 0;
  }

  /**
   * Before the round's actions (for undoneImpacts): its own state event functions' rates, and
   * the sign of each one's rate after its own event's actions alone (where another event of
   * the round touches it too: only there can the round undo an impact).
   */
  private ownBefore(t: number, round: readonly number[]): { rates: Map<number, number>; alone: Map<number, number> } {
    const ws = this.ws,
      m = ws.model,
      rates = new Map<number, number>(),
      alone = new Map<number, number>();
    for (const e of round) {
      const k = m.events[e].watchIndex;
      if (k < 0) continue;
      rates.set(k, readFunction(ws, k, t, ws.y, ws.d, this.point).rate);
      if (round.some((o) => o !== e && m.events[o].touches.includes(k)))
        alone.set(e, rateSign(afterAlone(ws, e, k, t, ws.y, ws.d, this.point)));
    }
    return { rates, alone };
  }

  /**
   * Adds the undone impacts to the next round, re-armed as any event iteration fires: from
   * their zero (the instant located it), with their value, rounding and approach after the
   * round (crossedBy).
   */
  private resend(t: number, undone: readonly number[], rates: Map<number, number>, next: number[] | null): number[] {
    const ws = this.ws,
      m = ws.model,
      out = next ?? [];
    for (const e of undone) {
      if (out.includes(e)) continue;
      const k = m.events[e].watchIndex;
      const after = readFunction(ws, k, t, ws.y, ws.d, this.point);
      out.push(e);
      this.judgedSet.add(k);
      this.sentValue[e] = after.g;
      this.sentBound[e] = after.gBound + Math.abs(rates.get(k) ?? 0) * tieTolerance(t, this.tieFloor);
      this.sentApproach[e] = Math.abs(after.rate) > after.rateBound ? Math.sign(after.rate) : 0;
    }
    return out;
  }

  /**
   * Whether a function event k's actions can turn (its `touches`) sits within its rounding of
   * zero at t: then event iteration must look at it (the next sphere of Newton's cradle),
   * and the instant takes the general path. Its own function, at zero because it fired, is
   * not looked at: event iteration leaves out the functions of the events it fires
   * (`valuesBefore`), and re-arming decides about it (predict.ts).
   */
  touchesZero(t: number, k: number): boolean {
    const turns = this.plans[k].turns;
    if (turns.length === 0) return false;
    const ws = this.ws,
      m = ws.model,
      { y, p, d, sw } = ws;
    // (the getters of the compiled model once, not per function)
    const watchOne = m.watchOne,
      boundOne = m.boundOne;
    const own = m.events[k].watchIndex;
    const zero = own >= 0 ? m.watchInfo[own].zeroOf : -1;
    const dt = own >= 0 ? tieTolerance(t, this.tieFloor) : 0;
    for (let i = 0; i < turns.length; i++) {
      const w = turns[i];
      // (one with k's zeros, `x falls` beside `x rises`, is at the zero k was located at,
      // whatever the residue: event iteration judges it, as the thermostat's other switch)
      if (zero >= 0 && m.watchInfo[w].zeroOf === zero) return true;
      const g = watchOne[w](t, y, p, d, sw);
      // (and so is one whose value is within its rounding and what its rate covers over the
      // location's span, whatever its expression: 2x' beside x' crosses, LocatedResidues.located)
      const band = 4 * boundOne[w](t, y, p, d, sw);
      if (!(Math.abs(g) > band)) return true;
      if (dt > 0 && Math.abs(g) <= band + Math.abs(m.rateOne[w](t, y, p, d, sw)) * dt) return true;
    }
    return false;
  }

  /**
   * What the location at the last instant (on the general path) leaves in watched function k,
   * whose event did not fire there, where its value lay at that zero (LocatedResidues.located:
   * within its rounding and its rate over the rounding of t, whatever its expression); else NaN.
   */
  locatedBand(k: number): number {
    return this.residues.located(this.ws, k) ? this.residues.bandOf(k) : NaN;
  }

  /**
   * The output values after event k's actions alone, with (y, d) at the values before the
   * round (the caller puts them there once: per event it was O(round) each, and 42% of the
   * LIF network at N = 200), which it leaves as it found them.
   */
  private ownEffect(t: number, k: number): ValueRecord {
    const ws = this.ws,
      m = ws.model;
    const { y, d, yPre, dPre, yTmp, dOwn } = ws;
    const { ySlots, dSlots } = this.plans[k];
    for (let i = 0; i < ySlots.length; i++) yTmp[ySlots[i]] = y[ySlots[i]];
    for (let i = 0; i < dSlots.length; i++) dOwn[dSlots[i]] = d[dSlots[i]];
    ws.applyActions(k, t, y, d, ws.sw, yTmp, dOwn, 1);
    this.restore(k, yTmp, dOwn);
    const out = new Float64Array(m.outputNames.length);
    m.outputsAtInstant(t, y, ws.p, d, ws.sw, out, -1);
    this.restore(k, yPre, dPre);
    return this.recorder.values(t, out);
  }

  private restore(k: number, ys: Float64Array, ds: Float64Array): void {
    const { y, d } = this.ws;
    const { ySlots, dSlots } = this.plans[k];
    for (let i = 0; i < ySlots.length; i++) y[ySlots[i]] = ys[ySlots[i]];
    for (let i = 0; i < dSlots.length; i++) d[dSlots[i]] = ds[dSlots[i]];
  }
}
