/**
 * The driver: integrates a compiled model over its range with exact events
 * (MODEL-LANGUAGE.md, "Events, precisely").
 *
 * - Time events (delta roots, `at`, `every`) sit in a stop queue; the stepper lands on them.
 * - State events and switching functions are watched at every step end; a crossing between
 *   step ends, or one hidden inside a step (the function turns back: its rate, known
 *   symbolically, changes sign), is bracketed on the dense output (locate.ts) until the
 *   bracket is two ulps wide or 1/4096 of an ulp of the absolute time. The earliest
 *   crossing wins; coincident ones are processed together, in file order.
 * - All actions of an instant read the same pre-event values and apply together; actions
 *   that make another event function cross fire it too (bounded event iteration).
 * - After a jump the stepper restarts cleanly (derivative recomputed; the step proposal is
 *   the step before, at most twice the time since the event last fired), with its t counted
 *   from that instant: the absolute time is kept in two doubles, so an event is located
 *   with the precision of its own time scale, not of one ulp of t.
 * - A geometric accumulation of events (a ball coming to rest) stops the run with status
 *   `zeno` and the estimated accumulation point (zeno.ts).
 *
 * A `Simulator` owns every work array for one compiled model and is reused across runs
 * (sweeps, Newton iterations): nothing in the step, location or event loops allocates beyond
 * the output rows themselves.
 */
import type { CompiledModel } from '../transform/compile.js';
import { locateCrossing, type Bracket, type ScanFunction } from './locate.js';
import type { MethodName, Stepper } from './stepper.js';
import { createStepper } from './steppers.js';
import { FIRST_STEP_FAC_MAX } from './controller.js';
import { ScheduleError, scheduleTimes } from './time-roots.js';
import { ZenoWatch } from './zeno.js';
import { toText } from '../symbolic/expr.js';

export type LocateMode = 'exact' | 'before' | 'after';
export type RunStatus = 'ok' | 'stopped' | 'zeno' | 'failed';

export interface SimulateOptions {
  from?: number;
  to?: number;
  /** parameter (or unknown) values by name */
  set?: ReadonlyMap<string, number> | Readonly<Record<string, number>>;
  /** initial values by variable key (`y`, `y'`), overriding the model's */
  init?: ReadonlyMap<string, number> | Readonly<Record<string, number>>;
  method?: MethodName;
  rtol?: number;
  atol?: number;
  /** fixed step for rk4, largest step otherwise */
  step?: number;
  locate?: LocateMode;
  maxEvents?: number;
  /** keep the trajectory rows (default true); sweeps turn it off */
  record?: boolean;
  /**
   * Fill each event's `pre`, `post` and `jumps` (default true). Off, the ledger keeps when
   * and which events happened, and those three are one shared empty record: sweeps and
   * benchmarks that read only final values or event times skip building two value records
   * per event.
   */
  eventValues?: boolean;
  /** times at which to keep the state (after any event there), for boundary conditions */
  probes?: readonly number[];
}

export type ValueRecord = Record<string, number>;

export interface EventRecord {
  t: number;
  name: string;
  kind: 'time' | 'state' | 'periodic';
  source: string;
  /** values before and after the instant, and what this event's actions changed; empty when run with `eventValues: false` */
  pre: ValueRecord;
  post: ValueRecord;
  jumps: ValueRecord;
}

/** the pre/post/jumps of every event of a run with `eventValues: false` */
const NO_VALUES: ValueRecord = Object.freeze(Object.create(null) as ValueRecord);

export interface RunStats { steps: number; rejected: number; rhsEvaluations: number; events: number }

export interface SimulationResult {
  model: string;
  independent: string;
  status: RunStatus;
  message: string | null;
  accumulationPoint?: number;
  columns: string[];
  rows: number[][];
  events: EventRecord[];
  final: ValueRecord;
  stats: RunStats;
  /** state at each probe time (post-event), in the order of `options.probes` */
  probes?: { t: number; y: Float64Array; d: Float64Array }[];
}

/** The command line or a caller asked for something the model does not have. */
export class SimulationInputError extends Error {}

const DEFAULTS = { method: 'dopri5' as MethodName, rtol: 1e-6, atol: 1e-9, locate: 'exact' as LocateMode, maxEvents: 100_000 };
const MAX_EVENT_ITERATIONS = 100;
const NONE: number[] = [];
/** halvings of a step when sampling watched functions: at most 2^MAX_REFINE pieces */
const MAX_REFINE = 6;

function asMap(x: SimulateOptions['set']): Map<string, number> {
  if (!x) return new Map();
  return x instanceof Map ? new Map(x) : new Map(Object.entries(x));
}

function record(): ValueRecord {
  return Object.create(null) as ValueRecord;
}

/**
 * One right-hand-side closure per compiled model, shared by all its Simulators. A new
 * Simulator (a new sweep, a new shoot) then does not change the call target that optimised
 * stepper code was specialised to (V8's "wrong call target" deoptimisations). Runs are
 * synchronous and never nested, so each run points the context at its own arrays first.
 */
interface RhsContext { p: Float64Array; d: Float64Array; sw: Float64Array; tHi: number; tLo: number }
const SHARED_RHS = new WeakMap<CompiledModel, { ctx: RhsContext; f: (t: number, y: Float64Array, dydt: Float64Array) => void }>();
function sharedRhs(model: CompiledModel): { ctx: RhsContext; f: (t: number, y: Float64Array, dydt: Float64Array) => void } {
  let entry = SHARED_RHS.get(model);
  if (!entry) {
    const ctx: RhsContext = { p: new Float64Array(0), d: new Float64Array(0), sw: new Float64Array(0), tHi: 0, tLo: 0 };
    const rhs = model.rhs;
    // the stepper's t counts from the run's time origin (see Simulator)
    entry = { ctx, f: (t, y, dydt) => rhs(ctx.tHi + (ctx.tLo + t), y, ctx.p, ctx.d, ctx.sw, dydt) };
    SHARED_RHS.set(model, entry);
  }
  return entry;
}

/**
 * The watched function the root finder works on, as an object whose methods live on the
 * prototype: every Simulator's instance calls the same two functions, so the finder's call
 * sites stay monomorphic across Simulators (closures per Simulator deoptimised it with
 * "wrong call target" on every new sweep or shooting run).
 */
class WatchScan implements ScanFunction {
  resolution = 0;
  constructor(private readonly sim: Simulator) {}
  value(s: number): number { return this.sim.scanValue(s); }
  slope(): number { return this.sim.scanSlope(); }
}

interface QueuedEvent { t: number; event: number }

/** What one run carries besides the Simulator's work arrays: settings, stop queue, output. */
interface RunState {
  readonly stepper: Stepper;
  readonly result: SimulationResult;
  readonly rows: number[][];
  readonly events: EventRecord[];
  readonly keepRows: boolean;
  readonly eventValues: boolean;
  readonly locate: LocateMode;
  readonly maxEvents: number;
  /** scheduled events in the order of integration, and the next one due */
  readonly queue: QueuedEvent[];
  qi: number;
  /** probe times in the order of integration, the next one, and the states kept there */
  readonly probes: number[];
  pi: number;
  readonly probeOut: NonNullable<SimulationResult['probes']>;
  eventCount: number;
  readonly tEnd: number;
  /** the absolute time of the Simulator's y */
  t: number;
  /** the stepper has landed on tEnd and what is due there has been done */
  ended: boolean;
}

export class Simulator {
  readonly model: CompiledModel;
  private stepper: Stepper | null = null;
  private stepperKey = '';
  private readonly y: Float64Array;
  private readonly d: Float64Array;
  private readonly sw: Float64Array;
  private p: Float64Array;
  private readonly yPre: Float64Array;
  private readonly yOut: Float64Array;
  private readonly dOut: Float64Array;
  private readonly dPre: Float64Array;
  private readonly dOwn: Float64Array;
  private readonly yTmp: Float64Array;
  private readonly gPrev: Float64Array;
  private readonly gNew: Float64Array;
  private readonly rPrev: Float64Array;
  private readonly rNew: Float64Array;
  private readonly gTmp: Float64Array;
  private readonly gAfter: Float64Array;
  private readonly outPre: Float64Array;
  private readonly outPost: Float64Array;
  private readonly bracket: Bracket = { left: 0, right: 0 };
  private readonly zeno: ZenoWatch;
  private readonly candidateRight: Float64Array;
  private readonly gMid: Float64Array;
  private readonly rMid: Float64Array;
  private readonly gTmp2: Float64Array;
  /** samples of one watched function inside a step (see findCrossings) */
  private readonly sT = new Float64Array(2 ** (MAX_REFINE + 1) + 2);
  private readonly sG = new Float64Array(2 ** (MAX_REFINE + 1) + 2);
  private readonly sR = new Float64Array(2 ** (MAX_REFINE + 1) + 2);
  private sN = 0;
  private readonly plainRecords: boolean;
  /** per watched function: resting on its zero with zero rate since it last fired */
  private readonly sitting: Uint8Array;
  /** direction of the current run: +1 forward, -1 backward (jumps are undone backwards) */
  private dir = 1;
  /**
   * The time origin: the stepper's t counts from tHi + tLo, which moves to every event and
   * restart. The absolute time of a state event is kept in two doubles, so events closer
   * together than one ulp of t (a ball's last bounces before it comes to rest) are still
   * located each in its own flight, with full relative precision; the times reported are
   * the nearest doubles.
   */
  private tHi = 0;
  private tLo = 0;
  /** a switching function that the last fire() left in a sliding mode, or -1 */
  private slidingAfterFire = -1;
  /** per switch, the switches on the same function (itself included), and a copy of sw */
  private readonly sameFunction: number[][];
  private readonly swSaved: Float64Array;
  /** what ratesOnBothSides found */
  private rateAbove = 0;
  private rateBelow = 0;
  /** the stepper's growth limit after the first step of a restart (see Stepper.firstStepGrowth) */
  private readonly firstStepGrowth: number;
  /** scheduled events due at one instant (see takeDue) */
  private readonly due: number[] = [];
  private scanK = 0;
  private scanStepper: Stepper | null = null;
  /** watched function scanK (less its offset) on the dense output; its rate lands in gTmp2 */
  private gAt(s: number): number {
    const m = this.model;
    this.scanStepper!.interpolate(s, this.yTmp);
    const t = this.absT(s);
    m.watch(t, this.yTmp, this.p, this.d, this.sw, this.gTmp);
    m.watchRate(t, this.yTmp, this.p, this.d, this.sw, this.gTmp2);
    return this.gTmp[this.scanK] - this.offset[this.scanK];
  }
  /**
   * What the root finder iterates on: watched function scanK with its symbolic rate as the
   * slope, or (scanRate) that rate itself, whose zero is an extremum.
   */
  private scanRate = false;
  private readonly scan = new WatchScan(this);
  /** @internal the root finder's f(s) (see WatchScan) */
  scanValue(s: number): number {
    if (!this.scanRate) return this.gAt(s);
    this.scanStepper!.interpolate(s, this.yTmp);
    this.model.watchRate(this.absT(s), this.yTmp, this.p, this.d, this.sw, this.gTmp2);
    return this.gTmp2[this.scanK];
  }
  /** @internal the root finder's f'(s) at the point last evaluated (see WatchScan) */
  scanSlope(): number {
    return this.scanRate ? NaN : this.gTmp2[this.scanK];
  }
  /** per watched function: the end of the step whose crossing an event placed before it used up (NaN: none) */
  private readonly consumedUntil: Float64Array;
  /** per watched function: its value where its event last fired (see processInstant) */
  private readonly offset: Float64Array;
  private readonly candidateLeft: Float64Array;
  private readonly dydtProbe: Float64Array;

  constructor(model: CompiledModel) {
    this.model = model;
    const n = model.nStates, nd = model.nDiscrete, nw = model.watchInfo.length;
    this.y = new Float64Array(n); this.yPre = new Float64Array(n); this.yOut = new Float64Array(n); this.yTmp = new Float64Array(n);
    this.dydtProbe = new Float64Array(n);
    this.d = new Float64Array(nd); this.dOut = new Float64Array(nd); this.dPre = new Float64Array(nd); this.dOwn = new Float64Array(nd);
    this.sw = new Float64Array(model.nSwitch);
    this.p = model.parameters();
    this.gPrev = new Float64Array(nw); this.gNew = new Float64Array(nw); this.rPrev = new Float64Array(nw);
    this.rNew = new Float64Array(nw); this.gTmp = new Float64Array(nw); this.gAfter = new Float64Array(nw);
    this.candidateRight = new Float64Array(nw); this.offset = new Float64Array(nw);
    this.sitting = new Uint8Array(nw);
    this.consumedUntil = new Float64Array(nw);
    this.gMid = new Float64Array(nw); this.rMid = new Float64Array(nw); this.gTmp2 = new Float64Array(nw); this.candidateLeft = new Float64Array(nw);
    this.outPre = new Float64Array(model.outputNames.length); this.outPost = new Float64Array(model.outputNames.length);
    this.zeno = new ZenoWatch(model.events.length);
    const keys = model.switching.map((sf) => toText(sf.g));
    this.sameFunction = keys.map((key) => keys.flatMap((other, i) => (other === key ? [i] : [])));
    this.swSaved = new Float64Array(model.nSwitch);
    // A step that grows a thousandfold could jump over the bump of a non-affine watched
    // function without a sample near it; affine ones cannot hide a crossing that way.
    this.firstStepGrowth = model.watchInfo.every((w) => w.affine) ? FIRST_STEP_FAC_MAX : 1;
    this.plainRecords = ![model.system.independent, ...model.outputNames].includes('__proto__');
  }

  /** The stepper for these settings, made once and reused while they stay the same. */
  private stepperFor(method: MethodName, rtol: number, atol: number, hMax: number, hFixed: number): Stepper {
    const key = `${method}|${rtol}|${atol}|${hMax}|${hFixed}`;
    if (this.stepper && this.stepperKey === key) return this.stepper;
    this.stepper = createStepper(method, this.model.nStates, sharedRhs(this.model).f, { rtol, atol, hMax, hFixed });
    this.stepperKey = key;
    return this.stepper;
  }

  run(options: SimulateOptions = {}): SimulationResult {
    const m = this.model;
    const sys = m.system;
    const method = options.method ?? (sys.options.get('method')?.value as MethodName | undefined) ?? DEFAULTS.method;
    const rtol = options.rtol ?? (sys.options.get('rtol')?.value as number | undefined) ?? DEFAULTS.rtol;
    const atol = options.atol ?? (sys.options.get('atol')?.value as number | undefined) ?? DEFAULTS.atol;
    const stepOpt = options.step ?? (sys.options.get('step')?.value as number | undefined);
    const locate = options.locate ?? (sys.options.get('locate')?.value as LocateMode | undefined) ?? DEFAULTS.locate;
    const maxEvents = options.maxEvents ?? (sys.options.get('maxEvents')?.value as number | undefined) ?? DEFAULTS.maxEvents;
    const keepRows = options.record ?? true;
    const eventValues = options.eventValues ?? true;

    const set = asMap(options.set);
    for (const k of set.keys()) {
      if (!m.paramNames.includes(k)) throw new SimulationInputError(`'${k}' is not a parameter or unknown of ${sys.model}; they are: ${m.paramNames.join(', ') || '(none)'}`);
    }
    const p = m.parameters(set);
    this.p = p;
    const { y, d, sw } = this;
    const ctx = sharedRhs(m).ctx;
    ctx.p = p; ctx.d = d; ctx.sw = sw;
    m.initial(p, y, d);
    for (const [key, value] of asMap(options.init)) {
      const state = sys.states.find((s) => s.variable === key);
      if (!state) {
        const discrete = m.discreteNames.indexOf(key);
        if (discrete >= sys.stepVariables.length) { d[discrete] = value; continue; }
        throw new SimulationInputError(`'${key}' in --init is not a state of ${sys.model}; the states are: ${sys.states.map((s) => s.variable).join(', ')}`);
      }
      y[m.stateNames.indexOf(state.name)] = value;
    }

    const t0 = options.from ?? (sys.range.from ? m.parametersExpr(sys.range.from, p) : 0);
    const tEnd = options.to ?? (sys.range.to ? m.parametersExpr(sys.range.to, p) : NaN);
    if (!Number.isFinite(tEnd)) throw new SimulationInputError(`no end of the range: give 'independent ${sys.independent} from A to B' in the model or --to on the command line`);
    if (!Number.isFinite(t0)) throw new SimulationInputError(`the start of the range is not a finite number`);
    const dir = tEnd >= t0 ? 1 : -1;
    this.dir = dir;
    const hFixed = stepOpt ?? Math.abs(tEnd - t0) / 1000;
    const stepper = this.stepperFor(method, rtol, atol, method === 'rk4' ? hFixed : (stepOpt ?? Infinity), hFixed);
    stepper.resetStats();
    stepper.firstStepGrowth = this.firstStepGrowth;
    this.zeno.reset();
    this.offset.fill(0);
    this.sitting.fill(0);
    this.consumedUntil.fill(NaN);

    const columns = [sys.independent, ...m.outputNames];
    const rows: number[][] = [];
    const events: EventRecord[] = [];
    const result: SimulationResult = {
      model: sys.model, independent: sys.independent, status: 'ok', message: null, columns, rows, events, final: record(),
      stats: { steps: 0, rejected: 0, rhsEvaluations: 0, events: 0 },
    };
    // probes outside the range are never reached (shoot then reports the run as too short)
    const probes = options.probes ? options.probes.filter((q) => dir * (q - t0) >= 0 && dir * (tEnd - q) >= 0) : [];
    const probeOut: NonNullable<SimulationResult['probes']> = [];
    if (options.probes) result.probes = probeOut;

    // The stop queue: scheduled times in the order of integration, then probes.
    const lo = Math.min(t0, tEnd), hi = Math.max(t0, tEnd);
    const queue: QueuedEvent[] = [];
    try {
      m.events.forEach((ev) => { for (const t of scheduleTimes(ev, p, lo, hi)) queue.push({ t, event: ev.index }); });
    } catch (err) {
      if (err instanceof ScheduleError) return this.fail(result, err.message, t0, y, d, keepRows);
      throw err;
    }
    queue.sort((a, b) => dir * (a.t - b.t) || a.event - b.event);
    probes.sort((a, b) => dir * (a - b));

    const rs: RunState = {
      stepper, result, rows, events, keepRows, eventValues, locate, maxEvents,
      queue, qi: 0, probes, pi: 0, probeOut, eventCount: 0, tEnd, t: t0, ended: t0 === tEnd,
    };
    const slidingAtStart = this.lockSwitches(t0, y, d);
    const due = this.takeDue(rs, t0);
    // (Events at the start may move the state off the sliding surface: fire() checks again.)
    if (slidingAtStart >= 0 && due.length === 0 && t0 !== tEnd) return this.fail(result, this.slidingMessage(slidingAtStart, t0), t0, y, d, keepRows);
    this.tHi = t0; this.tLo = 0;
    this.restartAtOrigin(stepper);
    let finished = false;
    // At the start either the instant's before/after rows (fire writes them) or the initial row.
    if (due.length > 0) finished = this.processInstant(rs, t0, [...due]);
    else { this.row(rs, t0, y, d, this.outPre); this.refreshWatch(t0, y, d); }
    this.takeProbes(rs, t0);
    while (!finished && !rs.ended) finished = this.advance(rs);

    const t = rs.t;
    m.outputs(t, this.y, p, this.d, sw, this.outPost);
    if (keepRows && (rows.length === 0 || rows[rows.length - 1][0] !== t)) rows.push([t, ...this.outPost]);
    result.final = this.values(t, this.outPost);
    const st = stepper.stats;
    result.stats = { steps: st.steps, rejected: st.rejected, rhsEvaluations: st.rhsEvaluations, events: rs.eventCount };
    return result;
  }

  /**
   * One accepted step towards the next stop (a scheduled event, a probe or the end), with
   * its crossings and what lands there; true when the run is over. Kept apart from the
   * set-up in `run` so that this loop, small, gets optimised early in a cold process.
   */
  private advance(rs: RunState): boolean {
    const m = this.model, stepper = rs.stepper, dir = this.dir;
    const nextQueued = rs.qi < rs.queue.length ? rs.queue[rs.qi].t : rs.tEnd;
    const nextProbe = rs.pi < rs.probes.length ? rs.probes[rs.pi] : rs.tEnd;
    const tStop = dir > 0 ? Math.min(nextQueued, nextProbe, rs.tEnd) : Math.max(nextQueued, nextProbe, rs.tEnd);
    // where the stepper must land, in its own t; 0 when the origin is already there
    const stopLocal = this.localT(tStop);
    if (stopLocal !== 0 && dir * stopLocal > 0) {
      const outcome = stepper.step(stopLocal);
      if (outcome !== 'accepted') {
        const at = this.absT(stepper.t);
        const what = outcome === 'nonFinite' ? this.describeNonFinite(stepper.t, stopLocal) : `the step size fell below the resolution of ${m.system.independent} (the solution changes too fast: a singularity or an extremely stiff problem)`;
        this.fail(rs.result, `${what}, at ${m.system.independent} = ${at}`, at, stepper.y, this.d, rs.keepRows);
        return true;
      }
      const landed = stepper.t === stopLocal;
      const tNewAbs = landed ? tStop : this.absT(stepper.t);
      const nw = m.watchInfo.length;
      if (nw > 0) {
        m.watch(tNewAbs, stepper.y, this.p, this.d, this.sw, this.gNew);
        m.watchRate(tNewAbs, stepper.y, this.p, this.d, this.sw, this.rNew);
        const crossing = this.findCrossings(stepper, dir);
        if (crossing >= 0) return this.crossingInstant(rs, crossing, tNewAbs);
      }
      this.y.set(stepper.y);
      for (let k = 0; k < nw; k++) this.gPrev[k] = this.gNew[k] - this.offset[k];
      this.rPrev.set(this.rNew);
      if (!landed) {
        rs.t = tNewAbs;
        if (rs.keepRows) this.row(rs, tNewAbs, this.y, this.d, this.outPre);
        return false;
      }
    }
    // landed on tStop (or the origin is already there)
    rs.t = tStop;
    if (tStop === nextQueued && rs.qi < rs.queue.length) {
      // fire() writes the before and after rows of the instant; the origin moves there exactly
      this.tHi = tStop; this.tLo = 0;
      if (this.processInstant(rs, tStop, [...this.takeDue(rs, tStop)])) return true;
    } else if (rs.keepRows) this.row(rs, tStop, this.y, this.d, this.outPre);
    this.takeProbes(rs, tStop);
    // Only the stepper landing on the end ends the run: an absolute time that merely rounds
    // to tEnd (steps below one ulp of t, or a crossing half an ulp before the end) has not
    // integrated the rest, and events or probes at the end would be lost.
    if (tStop === rs.tEnd) rs.ended = true;
    return false;
  }

  /** The instant of the earliest crossing in the last step: its events, or a switch. */
  private crossingInstant(rs: RunState, crossing: number, tNewAbs: number): boolean {
    const m = this.model, stepper = rs.stepper, dir = this.dir;
    let locate = rs.locate;
    const nw = m.watchInfo.length;
    // Group every crossing at the earliest instant; events in file order.
    const tc = this.candidateRight[crossing];
    const tolerance = 4 * Number.EPSILON * Math.max(1, Math.abs(this.absT(tc)));
    const firedEvents: number[] = [];
    let switched = false;
    let eventLeft = NaN;
    for (let k = 0; k < nw; k++) {
      if (!(this.candidateRight[k] === this.candidateRight[k]) || dir * (this.candidateRight[k] - tc) > tolerance) continue;
      const w = m.watchInfo[k];
      if (w.kind === 'event') {
        firedEvents.push(w.event);
        if (!(eventLeft === eventLeft) || dir * (this.candidateLeft[k] - eventLeft) < 0) eventLeft = this.candidateLeft[k];
      } else switched = true;
    }
    firedEvents.sort((a, b) => a - b);
    // --locate before/after places events the way tools without location do; a switch of the
    // right-hand side is always located exactly: the integrator never steps across one
    // (MODEL-LANGUAGE), and at the step's start the switch would be found again, forever.
    if (firedEvents.length === 0) locate = 'exact';
    // The instant is the right end of the collapsed bracket (the first double at or past the
    // zero). Events read the state at the left end, a double earlier: those are the left
    // limits the weights need, still on the near side of the crossing.
    let at = tc;
    if (locate === 'after') at = stepper.t;
    else if (locate === 'before') at = stepper.tPrev;
    if (locate === 'exact') stepper.interpolate(firedEvents.length > 0 ? eventLeft : at, this.yTmp);
    else this.yTmp.set(locate === 'after' ? stepper.y : stepper.yPrev);
    const t = locate === 'after' ? tNewAbs : this.absT(at);
    const rows = rs.rows;
    if (locate === 'before' && rs.keepRows && rows.length > 0 && rows[rows.length - 1][0] === this.absT(stepper.tPrev)) rows.pop();
    rs.t = t;
    this.y.set(this.yTmp);
    if (firedEvents.length > 0) {
      // Placed at the start of its step, an event has used up its crossing in that step: the
      // step taken again from there would find it again (an action that leaves the function
      // alone), and again, until a false Zeno stop.
      if (locate === 'before') {
        const stepEnd = this.absT(stepper.t);
        for (const e of firedEvents) if (m.events[e].watchIndex >= 0) this.consumedUntil[m.events[e].watchIndex] = stepEnd;
      }
      this.moveOrigin(at);
      return this.processInstant(rs, t, firedEvents);
    }
    if (switched) {
      this.row(rs, t, this.y, this.d, this.outPre);
      const sliding = this.lockSwitches(t, this.y, this.d);
      if (sliding >= 0 && t !== rs.tEnd) { this.fail(rs.result, this.slidingMessage(sliding, t), t, this.y, this.d, rs.keepRows); return true; }
      this.moveOrigin(at);
      this.restartAtOrigin(stepper, stepper.hLast !== 0 ? stepper.hLast : undefined);
      this.refreshWatch(t, this.y, this.d);
    }
    return false;
  }

  /** Fires `fired` at `at` (the time origin already there) and restarts; true when the run is over. */
  private processInstant(rs: RunState, at: number, fired: number[]): boolean {
    const m = this.model, sys = m.system, stepper = rs.stepper, result = rs.result;
    const outcome = this.fire(at, fired, rs.events, rs.keepRows ? rs.rows : null, rs.eventValues);
    rs.eventCount += outcome.count;
    // (a `stop` there, or the end of the range, leaves nothing to integrate)
    if (this.slidingAfterFire >= 0 && !outcome.stopped && at !== rs.tEnd) { this.fail(result, this.slidingMessage(this.slidingAfterFire, at), at, this.y, this.d, rs.keepRows); return true; }
    if (outcome.iterationFailed) { this.fail(result, `event iteration at ${sys.independent} = ${at} did not settle after ${MAX_EVENT_ITERATIONS} rounds: actions keep making event functions cross`, at, this.y, this.d, rs.keepRows); return true; }
    // Restart with the step size in use before the event as the proposal: the controller
    // shrinks it if the new motion needs that, and the heuristic's evaluations are saved.
    // At most twice the time since one of these events last fired: an event often comes
    // back at the pace of its last occurrences (a ball's flights, shrinking towards a Zeno
    // point), and a step a million times longer than the flight it contains (the error
    // estimate of a parabola is zero, so nothing would shrink it) has dense output whose
    // rounding, on the flight's scale, hides where the bounce is.
    let proposal = Math.abs(stepper.hLast);
    for (const k of fired) {
      const gap = this.zeno.sinceLast(k, this.tHi, this.tLo);
      if (gap > 0 && proposal > 2 * gap) proposal = 2 * gap;
    }
    this.restartAtOrigin(stepper, proposal !== 0 ? proposal : undefined);
    this.refreshWatch(at, this.y, this.d);
    // A function that has just fired sits at its zero, up to the rounding of the location
    // (h = -1e-16 after a bounce). That residue becomes its offset: crossings of g - offset
    // count from here, so it fires again only after it has left zero and crossed, and
    // rounding on the wrong side of zero cannot make it fire at once.
    // (With --locate before/after the function is not at zero when the action fires: no offset.)
    if (rs.locate === 'exact') {
      const noise = this.stateNoise(this.y);
      for (const k of outcome.fired) {
        const w = m.events[k].watchIndex;
        if (w >= 0) {
          this.offset[w] += this.gPrev[w];
          this.gPrev[w] = 0;
          // Zero with zero rate (a plastic collision: equal velocities after it): it rests
          // on its zero and rounding wiggles it; armed again once it has really left.
          this.sitting[w] = Math.abs(this.rPrev[w]) <= noise * 1e-2 ? 1 : 0;
        }
      }
    }
    if (rs.eventCount > rs.maxEvents) {
      this.fail(result, `more than ${rs.maxEvents} events by ${sys.independent} = ${at}; raise option maxEvents if that many are expected`, at, this.y, this.d, rs.keepRows);
      return true;
    }
    for (const k of fired) {
      const acc = this.zeno.note(k, this.tHi, this.tLo);
      if (acc !== null) {
        result.status = 'zeno';
        result.accumulationPoint = acc;
        result.message = `events of ${m.events[k].name} accumulate at ${sys.independent} = ${acc} (Zeno): the run stops at ${at}, after ${rs.eventCount} events`;
        return true;
      }
    }
    if (outcome.stopped) { result.status = 'stopped'; result.message = `stopped by event ${outcome.stopper} at ${sys.independent} = ${at}`; return true; }
    return false;
  }

  /** The scheduled events due at `at` (taken off the queue), in queue order. */
  private takeDue(rs: RunState, at: number): number[] {
    const due = this.due;
    due.length = 0;
    while (rs.qi < rs.queue.length && Math.abs(rs.queue[rs.qi].t - at) <= 4 * Number.EPSILON * Math.max(1, Math.abs(at))) due.push(rs.queue[rs.qi++].event);
    return due;
  }

  /** Keeps the state for the probes at t. */
  private takeProbes(rs: RunState, t: number): void {
    while (rs.pi < rs.probes.length && rs.probes[rs.pi] === t) { rs.probeOut.push({ t, y: this.y.slice(), d: this.d.slice() }); rs.pi++; }
  }

  /** A row of outputs at (t, yy, dd), kept when the run records rows. */
  private row(rs: RunState, t: number, yy: Float64Array, dd: Float64Array, out: Float64Array): void {
    this.model.outputs(t, yy, this.p, dd, this.sw, out);
    if (rs.keepRows) { const r = new Array<number>(out.length + 1); r[0] = t; for (let i = 0; i < out.length; i++) r[i + 1] = out[i]; rs.rows.push(r); }
  }

  /** Absolute time of the stepper's t = tau. */
  private absT(tau: number): number {
    return this.tHi + (this.tLo + tau);
  }

  /** The stepper's t for the absolute time T. */
  private localT(T: number): number {
    return T - this.tHi - this.tLo;
  }

  /**
   * Restarts the stepper at (this.y), at the time origin moved there (`moveOrigin`); its t
   * is 0 there.
   */
  private restartAtOrigin(stepper: Stepper, hInit?: number): void {
    const ctx = sharedRhs(this.model).ctx;
    ctx.tHi = this.tHi; ctx.tLo = this.tLo;
    // steps down to the resolution of the absolute time in two doubles, not of one double
    stepper.minStep = 16 * Number.EPSILON * Number.EPSILON * Math.abs(this.tHi);
    // Events are located to 1/4096 of an ulp of the absolute time: fine enough that their
    // rounding does not add up over a thousand events (the reason for the origin), not so
    // fine that the finder bisects through the plateau where a flat event function rounds to
    // exactly zero (a ball's last flights: 1e-21 wide, found to 1e-25 at one bit per call).
    this.scan.resolution = (2 * Number.EPSILON * Math.abs(this.tHi)) / 4096;
    stepper.reset(0, this.y, hInit);
  }

  /** Moves the time origin to the stepper's t = tau (exactly: a two-sum into hi + lo). */
  private moveOrigin(tau: number): void {
    const hi = this.tHi, sum = hi + tau;
    const back = sum - hi;
    const err = (hi - (sum - back)) + (tau - back);
    const lo = this.tLo + err;
    this.tHi = sum + lo;
    this.tLo = lo - (this.tHi - sum);
  }

  /** Rounding noise of functions of the state: a few ulps of its largest component. */
  private stateNoise(y: Float64Array): number {
    let scale = 1;
    for (let i = 0; i < y.length; i++) { const a = Math.abs(y[i]); if (a > scale) scale = a; }
    return 64 * Number.EPSILON * scale;
  }

  /** The watched functions (less their offsets) and their rates at a restart point. */
  private refreshWatch(t: number, y: Float64Array, d: Float64Array): void {
    const m = this.model;
    m.watch(t, y, this.p, d, this.sw, this.gPrev);
    m.watchRate(t, y, this.p, d, this.sw, this.rPrev);
    for (let k = 0; k < this.gPrev.length; k++) this.gPrev[k] -= this.offset[k];
  }

  /** Marks a failed run: keeps what was computed and adds the state where it failed. */
  private fail(result: SimulationResult, message: string, t: number, y: Float64Array, d: Float64Array, keepRows: boolean): SimulationResult {
    result.status = 'failed';
    result.message = message;
    this.model.outputs(t, y, this.p, d, this.sw, this.outPost);
    const last = result.rows[result.rows.length - 1];
    if (keepRows && Number.isFinite(t) && !(last && last[0] === t)) result.rows.push([t, ...this.outPost]);
    result.final = this.values(t, this.outPost);
    return result;
  }

  private values(t: number, out: Float64Array): ValueRecord {
    // Plain objects with keys in a fixed order share one hidden class (fast); a model that
    // names a variable __proto__ needs a prototype-free object for it to be an ordinary key.
    const v: ValueRecord = this.plainRecords ? {} : record();
    v[this.model.system.independent] = t;
    const names = this.model.outputNames;
    for (let i = 0; i < names.length; i++) v[names[i]] = out[i];
    return v;
  }

  /**
   * Names the derivative that is not finite. The failing stage lies somewhere in the step
   * after t, so probe ahead along the last derivative (an Euler extrapolation) at growing
   * distances until a component of the right-hand side is NaN or infinite. t and tLimit
   * are the stepper's (counted from the time origin).
   */
  private describeNonFinite(t: number, tLimit: number): string {
    const m = this.model;
    const st = this.stepper!;
    const name = (i: number) => `the right-hand side of ${m.system.states[i].standsFor}' is ${this.dydtProbe[i]}`;
    const probe = (s: number): string | null => {
      for (let i = 0; i < m.nStates; i++) this.yTmp[i] = st.y[i] + (s - t) * st.dydt[i];
      m.rhs(this.absT(s), this.yTmp, this.p, this.d, this.sw, this.dydtProbe);
      for (let i = 0; i < m.nStates; i++) if (!Number.isFinite(this.dydtProbe[i])) return name(i);
      return null;
    };
    const found = probe(t);
    if (found) return found;
    const span = tLimit - t;
    for (let f = 1e-15; f <= 1; f *= 2) {
      const hit = probe(t + f * span);
      if (hit) return `${hit} just after ${m.system.independent} = ${this.absT(t)}`;
    }
    return 'the right-hand side became NaN or infinite within the step';
  }

  /**
   * Sets the locked switching values at (t, y). On an exact zero the rate (in the direction
   * of integration) says which side the solution is going to.
   */
  private lockSwitches(t: number, y: Float64Array, d: Float64Array): number {
    const m = this.model;
    if (m.nSwitch === 0) return -1;
    m.watch(t, y, this.p, d, this.sw, this.gTmp);
    m.watchRate(t, y, this.p, d, this.sw, this.gAfter);
    const noise = this.stateNoise(y);
    let atZero = false;
    m.watchInfo.forEach((w, k) => {
      if (w.kind !== 'switch') return;
      let g = this.gTmp[k];
      if (g === 0) g = this.sideAtZero(k, w.index, t, y, d) * 1e-300;
      // the side of zero whose branch is taken, for the sliding test below
      this.gMid[k] = Math.abs(this.gTmp[k]) <= noise ? Math.sign(g) : 0;
      if (this.gMid[k] !== 0) atZero = true;
      switch (m.switching[w.index].primitive) {
        case 'lt': this.sw[w.index] = g < 0 || (g === 0 && this.gTmp[k] < 0) ? 1 : 0; break;
        case 'le': this.sw[w.index] = g <= 0 ? 1 : 0; break;
        case 'gt': this.sw[w.index] = g > 0 ? 1 : 0; break;
        case 'ge': this.sw[w.index] = g >= 0 ? 1 : 0; break;
        case 'step': this.sw[w.index] = g >= 0 ? 1 : 0; break;
        case 'sign': this.sw[w.index] = Math.sign(g); break;
      }
    });
    if (!atZero) return -1;
    // Sliding: at a switching function's zero, the motion of either side drives it back
    // (x' = if x > 0 then -1 else 1 at x = 0). Crossing after crossing would follow, each a
    // rounding apart; integrating on with either branch is wrong. Only both sides together
    // tell (at an event the state sits on the near side of a zero it is about to cross), with
    // every switch on the same function set to the same side (`Vy < 0` and `Vy >= 0` of one
    // model), and only where the motion of this side reaches zero within a few ulps of t
    // (slowly approaching a surface is not sliding on it).
    for (let k = 0; k < m.watchInfo.length; k++) {
      const w = m.watchInfo[k];
      if (w.kind !== 'switch' || this.gMid[k] === 0) continue;
      this.ratesOnBothSides(k, w.index, t, y, d);
      const fromAbove = this.rateAbove, fromBelow = this.rateBelow;
      const g = this.gTmp[k], rate = g > 0 ? fromAbove : fromBelow;
      const reaches = g === 0 || Math.abs(g) <= 64 * Number.EPSILON * Math.max(1, Math.abs(t)) * Math.abs(rate);
      if (fromAbove < 0 && fromBelow > 0 && reaches) return k;
    }
    return -1;
  }

  /**
   * The side of its zero that switching function k (switch j), exactly 0 here, goes to: the
   * side whose own branch keeps the motion there. Deciding by the rate under the branch in
   * use went wrong at an equilibrium on the surface: x' = if x > c then -(x - c) else 1
   * reaches x = c with rate 0 above; the branch below moved it up, for good, while the
   * switch stayed locked below. When both sides are consistent (or neither: sliding) the
   * rate under the branch in use decides, as before.
   */
  private sideAtZero(k: number, j: number, t: number, y: Float64Array, d: Float64Array): number {
    const rateNow = this.gAfter[k];
    this.ratesOnBothSides(k, j, t, y, d);
    const up = this.rateAbove, down = this.rateBelow;
    if (up >= 0 && down > 0) return 1;
    if (up < 0 && down <= 0) return -1;
    return rateNow === rateNow ? Math.sign(this.dir * rateNow) : 0;
  }

  /**
   * The rate of watched function k (switch j) in the direction of integration under the
   * branch of each side of its zero (every switch on the same function set alike), into
   * rateAbove and rateBelow; the switches are left as they were.
   */
  private ratesOnBothSides(k: number, j: number, t: number, y: Float64Array, d: Float64Array): void {
    const m = this.model;
    this.swSaved.set(this.sw);
    this.setSwitchSide(j, 1);
    m.watchRate(t, y, this.p, d, this.sw, this.rMid);
    this.rateAbove = this.dir * this.rMid[k];
    this.setSwitchSide(j, -1);
    m.watchRate(t, y, this.p, d, this.sw, this.rMid);
    this.rateBelow = this.dir * this.rMid[k];
    this.sw.set(this.swSaved);
  }

  /** Sets every switch on the same function as switch j to the branch of `side` of its zero. */
  private setSwitchSide(j: number, side: number): void {
    const m = this.model;
    for (const i of this.sameFunction[j]) {
      const primitive = m.switching[i].primitive;
      this.sw[i] = primitive === 'sign' ? side : (primitive === 'lt' || primitive === 'le') === side < 0 ? 1 : 0;
    }
  }

  /** The message for a sliding motion along watched (switching) function k at t. */
  private slidingMessage(k: number, t: number): string {
    const m = this.model, w = m.watchInfo[k];
    let what = w.kind === 'switch' ? m.switching[w.index].source : 'a switching function';
    // in the user's names: uK + SK is the derivative that jumps (see transform)
    for (const sv of m.system.stepVariables) what = what.split(`${sv.state} + ${sv.name}`).join(sv.variable);
    return `sliding mode at ${m.system.independent} = ${t}: on both sides of ${what} the motion turns back to it, so the solution would slide along it (a Filippov sliding motion, as ideal dry friction or a relay), which deltastep does not integrate; smooth the switch (e.g. tanh(v/eps) for sign(v)) or model the stuck phase with a discrete mode`;
  }

  /**
   * Brackets every watched function's first crossing (in its direction) in the last step;
   * returns the index of the earliest, or -1. `candidateRight[k]` is NaN for functions that
   * do not cross.
   *
   * Step ends alone miss a function that turns back inside the step (scipy#9228). So each
   * step is also sampled at its midpoint, and where the cubic Hermite model built from the
   * values and rates (rates known symbolically) disagrees with a sample, the interval is
   * halved (to depth MAX_REFINE); within each resolved interval, a sign change of the rate
   * marks an extremum, which is located and checked for a hidden double crossing.
   */
  private findCrossings(stepper: Stepper, dir: number): number {
    const m = this.model;
    const nw = m.watchInfo.length;
    const a = stepper.tPrev, b = stepper.t;
    if (!this.needsSamples(b - a)) {
      for (let k = 0; k < nw; k++) {
        this.candidateRight[k] = NaN;
        if (this.sitting[k] && Math.abs(this.gNew[k] - this.offset[k]) > this.stateNoise(stepper.y)) this.sitting[k] = 0;
      }
      return -1;
    }
    const tm = a + 0.5 * (b - a);
    stepper.interpolate(tm, this.yTmp);
    const tmAbs = this.absT(tm);
    m.watch(tmAbs, this.yTmp, this.p, this.d, this.sw, this.gMid);
    m.watchRate(tmAbs, this.yTmp, this.p, this.d, this.sw, this.rMid);
    this.scanStepper = stepper;
    let best = -1;
    for (let k = 0; k < nw; k++) {
      this.candidateRight[k] = NaN;
      const w = m.watchInfo[k];
      const direction = w.kind === 'event' ? m.events[w.event].direction ?? 'crosses' : 'crosses';
      const off = this.offset[k];
      const g0 = this.gPrev[k], g1 = this.gNew[k] - off, gm = this.gMid[k] - off;
      if (this.sitting[k]) {
        if (Math.abs(g1) > this.stateNoise(stepper.y)) this.sitting[k] = 0;
        continue;
      }
      if (g0 !== g0 || g1 !== g1 || gm !== gm) continue;
      // A function sitting at zero (at the start or after its own action) is judged by where
      // it goes next: the sign of its rate in the direction of integration.
      const s0 = g0 !== 0 ? Math.sign(g0) : Math.sign(dir * this.rPrev[k]);
      if (s0 === 0) continue;
      this.scanK = k;
      this.sN = 0;
      this.pushSample(a, g0, this.rPrev[k]);
      this.refine(a, g0, this.rPrev[k], tm, gm, this.rMid[k], b, g1, this.rNew[k], 0);
      if (this.scanSamples(s0, direction, dir)) {
        if (best < 0 || dir * (this.candidateRight[k] - this.candidateRight[best]) < 0) best = k;
      }
    }
    return best;
  }

  /**
   * Whether any watched function may cross zero inside the step of length h. A function
   * that keeps one sign at both ends, farther from zero there than the largest excursion its
   * end rates and its change over the step make plausible (|g'| would have to exceed the sum
   * of both end rates somewhere inside an accepted step), cannot reach zero: the step needs
   * no dense output at all. This spares the midpoint sample (and DOP853's three extra
   * stages) on the steps far from every event, which are most steps.
   */
  private needsSamples(h: number): boolean {
    const nw = this.model.watchInfo.length;
    const ah = Math.abs(h);
    for (let k = 0; k < nw; k++) {
      const off = this.offset[k];
      const g0 = this.gPrev[k], g1 = this.gNew[k] - off;
      // a function resting on its zero is not scanned in this step (see findCrossings)
      if (this.sitting[k] || g0 !== g0 || g1 !== g1) continue;
      // Only an affine function of the state is bounded by its end values and rates: along
      // a well-resolved motion it has no bump inside the step (exp(-(x - 5)^2) - 0.5 has one
      // with nil rates at both ends).
      if (!this.model.watchInfo[k].affine) return true;
      const r0 = this.rPrev[k], r1 = this.rNew[k];
      const excursion = ah * (Math.abs(r0) + Math.abs(r1)) + Math.abs(g1 - g0);
      if (!(excursion === excursion)) return true;
      if (g0 > 0 && g1 > 0 && g0 > excursion && g1 > excursion) continue;
      if (g0 < 0 && g1 < 0 && -g0 > excursion && -g1 > excursion) continue;
      return true;
    }
    return false;
  }

  private pushSample(t: number, g: number, r: number): void {
    this.sT[this.sN] = t; this.sG[this.sN] = g; this.sR[this.sN] = r; this.sN++;
  }

  /** Appends the samples of (ta, tb] for function scanK, halving where the Hermite model fails. */
  private refine(ta: number, ga: number, ra: number, tm: number, gm: number, rm: number, tb: number, gb: number, rb: number, depth: number): void {
    const h = tb - ta;
    const predicted = 0.5 * (ga + gb) + (h * (ra - rb)) / 8;
    const scale = Math.max(Math.abs(ga), Math.abs(gb), Math.abs(gm));
    const resolved = !(Math.abs(gm - predicted) > 0.05 * scale) || depth >= MAX_REFINE || ra !== ra;
    if (resolved) {
      this.pushSample(tm, gm, rm);
      this.pushSample(tb, gb, rb);
      return;
    }
    const t1 = ta + 0.5 * (tm - ta), t2 = tm + 0.5 * (tb - tm);
    const g1 = this.gAt(t1), r1 = this.gTmp2[this.scanK];
    this.refine(ta, ga, ra, t1, g1, r1, tm, gm, rm, depth + 1);
    const g2 = this.gAt(t2), r2 = this.gTmp2[this.scanK];
    this.refine(tm, gm, rm, t2, g2, r2, tb, gb, rb, depth + 1);
  }

  /** Walks the samples of function scanK in order; brackets its first crossing in `direction`. */
  private scanSamples(s0: number, direction: 'rises' | 'falls' | 'crosses', dir: number): boolean {
    let s = s0;
    for (let i = 0; i + 1 < this.sN; i++) {
      const ta = this.sT[i], tb = this.sT[i + 1];
      const ga = this.sG[i], gb = this.sG[i + 1];
      const ra = this.sR[i], rb = this.sR[i + 1];
      if (gb === 0 || Math.sign(gb) !== s) {
        if (matches(direction, s)) return this.bracketCrossing(ta, ga !== 0 ? ga : s * Number.MIN_VALUE, tb, gb, ra, rb);
        s = gb !== 0 ? Math.sign(gb) : -s;
        continue;
      }
      // Same sign at both ends: an extremum between them may hide two crossings.
      if (!(ra === ra && rb === rb) || Math.sign(ra) === Math.sign(rb) || dir * s * ra >= 0) continue;
      this.scanRate = true;
      locateCrossing(this.scan, ta, ra, tb, rb, this.bracket);
      this.scanRate = false;
      const te = this.bracket.right;
      const ge = this.gAt(te), re = this.gTmp2[this.scanK];
      if (ge !== 0 && Math.sign(ge) === s) continue;
      if (matches(direction, s)) return this.bracketCrossing(ta, ga !== 0 ? ga : s * Number.MIN_VALUE, te, ge, ra, re);
      if (ge !== 0 && matches(direction, -s)) return this.bracketCrossing(te, ge, tb, gb, re, rb);
    }
    return false;
  }

  private bracketCrossing(left: number, gl: number, right: number, gr: number, rl: number, rr: number): boolean {
    const k = this.scanK;
    locateCrossing(this.scan, left, gl, right, gr, this.bracket, rl, rr);
    // a crossing an event placed before it has used up (locate before) does not count again
    const until = this.consumedUntil[k];
    if (until === until && this.dir * (this.absT(this.bracket.right) - until) <= 0) return false;
    this.candidateLeft[k] = this.bracket.left;
    this.candidateRight[k] = this.bracket.right;
    return true;
  }

  /**
   * Applies the events `fired` (in file order) at t to (this.y, this.d): every action reads
   * the pre-event values; then event iteration; then the ledger and the before/after rows.
   */
  private fire(t: number, fired: number[], ledger: EventRecord[], rows: number[][] | null, withValues: boolean): { count: number; stopped: boolean; stopper: string; iterationFailed: boolean; fired: number[] } {
    const m = this.model;
    const { p, sw } = this;
    this.slidingAfterFire = -1;
    let count = 0, stopped = false, stopper = '';
    const all: number[] = [];
    let round = fired;
    const needOutputs = withValues || rows !== null;
    if (needOutputs) m.outputs(t, this.y, p, this.d, sw, this.outPre);
    if (rows) rows.push([t, ...this.outPre]);
    for (let iteration = 0; round.length > 0; iteration++) {
      if (iteration >= MAX_EVENT_ITERATIONS) return { count, stopped, stopper, iterationFailed: true, fired: all };
      all.push(...round);
      const preValues = withValues ? this.values(t, this.outPre) : NO_VALUES;
      this.yOut.set(this.y);
      this.dOut.set(this.d);
      this.yPre.set(this.y);
      this.dPre.set(this.d);
      for (const k of round) m.events[k].apply(t, this.y, p, this.d, sw, this.yOut, this.dOut, this.dir);
      for (const k of round) if (m.events[k].marcus) this.marcusFlow(t, k);
      m.watch(t, this.y, p, this.d, sw, this.gTmp);
      m.watch(t, this.yOut, p, this.dOut, sw, this.gAfter);
      this.y.set(this.yOut);
      this.d.set(this.dOut);
      if (needOutputs) m.outputs(t, this.y, p, this.d, sw, this.outPost);
      const postValues = withValues ? this.values(t, this.outPost) : NO_VALUES;
      for (const k of round) {
        const ev = m.events[k];
        let jumps = NO_VALUES;
        if (withValues) {
          jumps = this.plainRecords ? {} : record();
          // Several events at one instant: each ledger line shows what its own actions did.
          const own = round.length > 1 ? this.ownEffect(t, k) : postValues;
          for (const v of ev.changes) if (v in own) jumps[v] = own[v] - preValues[v];
        }
        ledger.push({ t, name: ev.name, kind: ev.kind, source: ev.source, pre: preValues, post: postValues, jumps });
        count++;
        if (ev.stops) { stopped = true; stopper = ev.name; }
      }
      // Event iteration: an action that makes another state event's function cross fires it now.
      let next: number[] | null = null;
      for (let k = 0; k < m.watchInfo.length; k++) {
        const w = m.watchInfo[k];
        if (w.kind !== 'event' || round.includes(w.event)) continue;
        const before = this.gTmp[k], after = this.gAfter[k];
        const direction = m.events[w.event].direction ?? 'crosses';
        if (before !== 0 && Math.sign(after) !== Math.sign(before) && matches(direction, Math.sign(before))) (next ??= []).push(w.event);
      }
      round = next ? next.sort((a, b) => a - b) : NONE;
      if (needOutputs) this.outPre.set(this.outPost);
    }
    if (rows) rows.push([t, ...this.outPost]);
    this.slidingAfterFire = this.lockSwitches(t, this.y, this.d);
    return { count, stopped, stopper, iterationFailed: false, fired: all };
  }

  /** The output values after event k's actions alone, from the pre-event state (yPre, dPre). */
  private ownEffect(t: number, k: number): ValueRecord {
    const m = this.model;
    const yk = this.yTmp, dk = this.dOwn;
    yk.set(this.yPre); dk.set(this.dPre);
    m.events[k].apply(t, this.yPre, this.p, this.dPre, this.sw, yk, dk, this.dir);
    const out = new Float64Array(m.outputNames.length);
    m.outputs(t, yk, this.p, dk, this.sw, out);
    return this.values(t, out);
  }

  /** Marcus rule: dS/ds = rate(S) for s in [0, 1] (classical RK4, 256 steps), from the pre-event values. */
  private marcusFlow(t: number, k: number): void {
    const ev = this.model.events[k];
    const { targets, rate } = ev.marcus!;
    const n = targets.length;
    const dm = this.d.slice();
    const k1 = new Float64Array(n), k2 = new Float64Array(n), k3 = new Float64Array(n), k4 = new Float64Array(n), s0 = new Float64Array(n);
    const steps = 256, h = this.dir / steps;
    const evalAt = (out: Float64Array) => rate(t, this.y, this.p, dm, this.sw, out);
    const setAt = (base: Float64Array, kk: Float64Array, c: number) => { for (let i = 0; i < n; i++) dm[targets[i]] = base[i] + c * kk[i]; };
    for (let s = 0; s < steps; s++) {
      for (let i = 0; i < n; i++) s0[i] = dm[targets[i]];
      evalAt(k1); setAt(s0, k1, h / 2);
      evalAt(k2); setAt(s0, k2, h / 2);
      evalAt(k3); setAt(s0, k3, h);
      evalAt(k4);
      for (let i = 0; i < n; i++) dm[targets[i]] = s0[i] + (h / 6) * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }
    for (let i = 0; i < n; i++) this.dOut[targets[i]] = dm[targets[i]];
  }
}

function matches(direction: 'rises' | 'falls' | 'crosses', signBefore: number): boolean {
  return direction === 'crosses' || (direction === 'rises' ? signBefore < 0 : signBefore > 0);
}

/** One run of a compiled model. For repeated runs keep a {@link Simulator}. */
export function simulateCompiled(model: CompiledModel, options: SimulateOptions = {}): SimulationResult {
  return new Simulator(model).run(options);
}
