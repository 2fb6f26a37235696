/**
 * The dense solution of the analytic path (`dense: true`): no steps to keep, only where each
 * motion starts. Between instants every clock group follows its closed form, so the solution
 * at any t is each group's last start before t advanced to t by that closed form (clocks.ts),
 * exact to rounding like the run itself.
 *
 * - Each clock group that an output reads keeps a log of its starts: the state at t0, and its
 *   state after each instant whose events change its motion (EventStructure.changes); before
 *   such an instant also the state the events read (the left limit, the ledger's `pre`).
 *   An instant costs O(what it changes), as the engine does: an impact in a row of 16384
 *   spheres logs two spheres, not the row.
 * - A step or discrete variable that an event writes keeps a log of its values.
 * - Times are kept in two doubles (hi + lo), as the engine's clocks: a query at an instant
 *   advances by exactly the interval the engine advanced by, so the limits there are the
 *   engine's own values, bit for bit.
 *
 * The analytic path runs forwards only; switches do not occur on it (structure.ts).
 */
import type { AdvanceFunction } from '../codegen/closed-form.js';
import type { CompiledModel } from '../codegen/compile.js';
import type { DenseSource } from '../driver/dense-solution.js';
import { RecordStore, type DenseBudget } from '../driver/dense-store.js';
import type { Workspace } from '../driver/workspace.js';
import type { SystemStructure } from '../structure/structure.js';
import type { EventPlan } from './plan.js';
import { RoundMarks } from '../driver/round-marks.js';
import { stepStates } from '../driver/step-fold.js';

/** A start's kind: the state before an instant's actions (the left limit), or after them. */
const PRE = 0,
  POST = 1;
/** Field offsets of a start: its time (hi, lo), kind, then the group's states. */
const S_HI = 0,
  S_LO = 1,
  S_KIND = 2,
  S_STATES = 3;

export class ClosedFormDense implements DenseSource {
  readonly from: number;
  private readonly model: CompiledModel;
  private readonly ws: Workspace;
  private readonly advance: readonly (AdvanceFunction | null)[];
  /** the groups the outputs read, their state slots and their logs of starts */
  private readonly groups: Int32Array;
  private readonly slots: Int32Array[];
  private readonly starts: RecordStore[];
  /** per event: the positions (in `groups`) of the groups whose motion its actions change */
  private readonly changes: Int32Array[];
  /**
   * per event: the positions of the groups its jumps are folded into after the instant
   * (driver/step-fold.ts: S := 0, u := u + S). A first-order state that no equation reads back
   * (x' = v + J delta(t - hit), a dose counter tot' = delta(t - dose)) is in no group whose
   * motion the event changes, and its step variable is 0 again when the instant is logged:
   * neither log kept the jump, and sol(t) after it was the state without it (x(2) = 0 beside
   * a final row of 0.25). Logged after the fold (their PRE is not: their clocks are brought to
   * the instant only by the fold; the left limit advances the last start, as the engine does).
   */
  private readonly folds: Int32Array[];
  /** per event: the step and discrete slots its actions write */
  private readonly writes: Int32Array[];
  /** per step or discrete slot some event writes: its values after each change (hi, lo, value) */
  private readonly dLog: (RecordStore | null)[];
  /** the instants' times (hi, lo) */
  private readonly instants: RecordStore;
  private readonly d0: Float64Array;
  private readonly sw: Float64Array;
  private readonly p: Float64Array;
  /** scratch: the state and values being evaluated */
  private readonly y: Float64Array;
  private readonly d: Float64Array;
  /** the group positions the current instant phase logged */
  private readonly logged: RoundMarks;
  /** the time of the last instant logged whole (both sides), for a run whose budget ran out */
  private complete: number;

  constructor(
    model: CompiledModel,
    st: SystemStructure,
    plans: readonly EventPlan[],
    ws: Workspace,
    readonly budget: DenseBudget,
    t0: number,
    /** where the run ended (its final values' time), read when asked */
    private readonly ended: () => number,
  ) {
    this.model = model;
    this.ws = ws;
    this.advance = model.closedForm().advance;
    this.groups = Int32Array.from(st.outputReads);
    const position = new Int32Array(st.groups.length).fill(-1);
    this.groups.forEach((g, i) => (position[g] = i));
    this.slots = [...this.groups].map((g) => Int32Array.from(st.groups[g].states));
    this.starts = this.slots.map((s) => new RecordStore(S_STATES + s.length, budget, 2));
    this.changes = st.events.map((e) =>
      Int32Array.from(
        e.changes.filter((g) => position[g] >= 0),
        (g) => position[g],
      ),
    );
    this.writes = plans.map((plan) => plan.dSlots);
    const stateGroup = new Int32Array(ws.y.length).fill(-1);
    st.groups.forEach((g, i) => {
      for (const s of g.states) stateGroup[s] = i;
    });
    const folded = stepStates(ws);
    this.folds = plans.map((plan) => {
      const at = new Set<number>();
      for (const k of plan.dSlots) {
        const s = k < folded.length ? folded[k] : -1;
        const g = s >= 0 ? stateGroup[s] : -1;
        if (g >= 0 && position[g] >= 0) at.add(position[g]);
      }
      return Int32Array.from(at);
    });
    this.dLog = Array.from(ws.d, () => null);
    for (const w of this.writes) for (const k of w) this.dLog[k] ??= new RecordStore(3, budget, 2);
    this.instants = new RecordStore(2, budget);
    this.logged = new RoundMarks(this.groups.length);
    this.from = t0;
    this.p = ws.p.slice();
    this.d0 = ws.d.slice();
    this.sw = ws.sw.slice();
    this.y = new Float64Array(ws.y.length);
    this.d = new Float64Array(ws.d.length);
    // (as a PRE: events at t0 log their groups' PRE and POST after it, in that order)
    for (let i = 0; i < this.groups.length; i++) this.log(i, t0, 0, PRE);
    this.complete = t0;
  }

  end(): number {
    return this.budget.full ? this.complete : this.ended();
  }

  /** Logs group position i's state (ws.y) at hi + lo; false past the budget. */
  private log(i: number, hi: number, lo: number, kind: number): boolean {
    const s = this.starts[i];
    if (this.budget.full || !s.push()) {
      this.budget.refuse(hi + lo);
      return false;
    }
    const buf = s.buf,
      off = s.off,
      slots = this.slots[i],
      y = this.ws.y;
    buf[off + S_HI] = hi;
    buf[off + S_LO] = lo;
    buf[off + S_KIND] = kind;
    for (let j = 0; j < slots.length; j++) buf[off + S_STATES + j] = y[slots[j]];
    return true;
  }

  /** The instant at hi + lo has begun: the groups its events change are there, before their actions. */
  arrived(hi: number, lo: number, due: readonly number[]): void {
    if (this.budget.full) return;
    if (!this.instants.push()) return this.budget.refuse(hi + lo);
    this.instants.buf[this.instants.off] = hi;
    this.instants.buf[this.instants.off + 1] = lo;
    this.logChanged(hi, lo, due, PRE);
  }

  /** The actions of the instant at hi + lo are done (`fired`: every event that fired, event iteration included). */
  fired(hi: number, lo: number, fired: readonly number[]): void {
    if (this.budget.full) return;
    this.logChanged(hi, lo, fired, POST);
    // (the groups the jumps were folded into, those logChanged did not log: its marks stand)
    for (const k of fired) {
      const f = this.folds[k];
      for (let j = 0; j < f.length; j++) {
        const i = f[j];
        if (this.logged.has(i)) continue;
        this.logged.add(i);
        if (!this.log(i, hi, lo, POST)) return;
      }
    }
    const d = this.ws.d;
    for (const k of fired) {
      const w = this.writes[k];
      for (let j = 0; j < w.length; j++) {
        const slot = w[j],
          L = this.dLog[slot]!;
        const last = L.count > 0 ? L.field(L.count - 1, 2) : this.d0[slot];
        if (Object.is(last, d[slot])) continue;
        if (!L.push()) return this.budget.refuse(hi + lo);
        L.buf[L.off] = hi;
        L.buf[L.off + 1] = lo;
        L.buf[L.off + 2] = d[slot];
      }
    }
    if (!this.budget.full) this.complete = hi + lo;
  }

  private logChanged(hi: number, lo: number, events: readonly number[], kind: number): void {
    const logged = this.logged;
    logged.clear();
    for (const k of events) {
      const c = this.changes[k];
      for (let j = 0; j < c.length; j++) {
        const i = c[j];
        if (logged.has(i)) continue;
        logged.add(i);
        if (!this.log(i, hi, lo, kind)) return;
      }
    }
  }

  outputsAt(t: number, left: boolean, out: Float64Array): void {
    // the time in two doubles: an instant's own, or t itself
    const I = this.instants;
    let a = 0,
      b = I.count;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (I.field(mid, 0) + I.field(mid, 1) < t) a = mid + 1;
      else b = mid;
    }
    let hi = t,
      lo = 0,
      kind = POST;
    const atInstant = a < I.count && I.field(a, 0) + I.field(a, 1) === t;
    if (atInstant) {
      // (instants closer than an ulp of t round to one t: the first one's left, the last one's right)
      if (!left) while (a + 1 < I.count && I.field(a + 1, 0) + I.field(a + 1, 1) === t) a++;
      hi = I.field(a, 0);
      lo = I.field(a, 1);
      if (left) kind = PRE;
    }
    const d = this.d;
    d.set(this.d0);
    for (let slot = 0; slot < d.length; slot++) {
      const L = this.dLog[slot];
      // (a value changes after the actions: the left limit at an instant has the one before)
      const i = L === null ? -1 : lastAtOrBefore(L, hi, lo, kind, false);
      if (i >= 0) d[slot] = L!.field(i, 2);
    }
    const y = this.y,
      p = this.p;
    for (let g = 0; g < this.groups.length; g++) {
      const s = this.starts[g],
        slots = this.slots[g];
      const i = lastAtOrBefore(s, hi, lo, kind, true);
      s.at(i < 0 ? 0 : i);
      const buf = s.buf,
        off = s.off;
      for (let j = 0; j < slots.length; j++) y[slots[j]] = buf[off + S_STATES + j];
      // (as Clocks.to: the interval from the start's time in two doubles)
      const sh = buf[off + S_HI],
        sl = buf[off + S_LO];
      const h = hi - sh + (lo - sl);
      const advance = this.advance[this.groups[g]];
      if (h !== 0 && advance !== null) advance(sh + sl, h, y, p, d);
    }
    // (at an instant, as its rows and ledger read them: before its events or after)
    if (atInstant) this.model.outputsAtInstant(t, y, p, d, this.sw, out, kind === PRE ? 1 : -1);
    else this.model.outputs(t, y, p, d, this.sw, out);
  }
}

/**
 * The last record of L at or before (hi, lo, kind), records ordered by time and then by kind
 * (PRE before POST): at the time of an instant, kind PRE takes its PRE record only, POST
 * either. Records without a kind (`kinded` false: the values of step and discrete variables)
 * are POST, values after their instant. -1 when there is none.
 */
function lastAtOrBefore(L: RecordStore, hi: number, lo: number, kind: number, kinded: boolean): number {
  let a = 0,
    b = L.count;
  while (a < b) {
    const mid = (a + b) >>> 1;
    const rh = L.field(mid, S_HI),
      rl = L.field(mid, S_LO);
    const after = rh > hi || (rh === hi && (rl > lo || (rl === lo && (kinded ? L.field(mid, S_KIND) : POST) > kind)));
    if (after) b = mid;
    else a = mid + 1;
  }
  return a - 1;
}
