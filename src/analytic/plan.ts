/**
 * What the event calendar needs to know about each event, worked out once per compiled model
 * from its structure (structure.ts) and closed forms (closed-form.ts): the groups to advance
 * before it fires, the slots its actions write, and the events whose predictions its actions
 * can change (EVENTS.md 4: after an event, re-predict only what it touched).
 */
import type { CoefficientFunction } from '../codegen/closed-form.js';
import type { LinearEventFunction } from '../codegen/linear-event.js';
import type { CompiledModel } from '../codegen/compile.js';
import type { SystemStructure } from '../structure/structure.js';
import type { FirstOrderSystem } from '../transform/system.js';
import type { Expr } from '../expression/ast.js';

export interface EventPlan {
  /** a state event's watch index, or -1 for a time event */
  watch: number;
  /** +1 rises, -1 falls, 0 crosses */
  dir: number;
  degree: number;
  coefficients: CoefficientFunction | null;
  /** the same for the value and the rate only (closed-form.ts, valueRate): just before its actions */
  valueRate: CoefficientFunction | null;
  /** a function along a linear block: its coefficients hold on a window only (linear-scan.ts) */
  linear: LinearEventFunction | null;
  /** the groups its function reads */
  reads: Int32Array;
  /** the groups whose motion its actions change: their states, or a step or discrete variable their equations read */
  changes: Int32Array;
  /** the groups that must be at the instant before its actions run: what it reads, what its actions read and change, what event iteration reads after it (the functions it touches) */
  touch: Int32Array;
  /** the state and step/discrete slots its actions write */
  ySlots: Int32Array;
  dSlots: Int32Array;
  /** the state events to predict again after it fires (itself included) */
  repredict: Int32Array;
  /** per entry of repredict: 1 where every group that event's function reads is in `touch` (at the instant once this event fired alone) */
  broughtFor: Uint8Array;
  /** whether its actions can change the value of an event function (events[k].moves), and of its own */
  moves: boolean;
  movesOwn: boolean;
  /** whether its actions can change its own function's value or rate (an impact, not a detector) */
  touchesOwn: boolean;
  /** the event functions of other events that its actions can turn (events[k].touches, its own left out) */
  turns: Int32Array;
  /** the events of those functions (`turns` by event index) */
  turnsEvents: Int32Array;
  /** whether its actions stop the run (it interacts with every event: those at its instant fire with it) */
  stops: boolean;
  /**
   * Whether a right-hand side of a group its actions change can turn non-finite from finite
   * values (a division, a power, a function, a branch: `k := 0` under x' = 1/k), so that it is
   * judged after the instant (finite-after.ts); sums and products of finite values are finite
   * short of overflow, which the run finds where it happens.
   */
  finiteRisk: boolean;
  /**
   * Whether a polynomial group its actions change has a Taylor coefficient (the rate's
   * included, as the closed form writes it) that multiplies, divides or calls (B/T of b' = 2 B t / T), which the values an action
   * sets can take beyond doubles where the motion stays inside them: judged after the
   * instant (finite-after.ts, overflowing). Sums of what the values are cannot, short of
   * the values themselves overflowing.
   */
  coefficientRisk: boolean;
  /**
   * The events of repredict whose functions' Taylor coefficients multiply, divide or call
   * (x*A/T under x' = 1: the rate A/T), which the values an action sets can make underflow,
   * hiding a crossing: their range guards are judged after the instant (finite-after.ts,
   * functionLost). Empty for functions that are sums, as a collision's gap.
   */
  functionRisk: Int32Array;
  /**
   * What it reads and writes, for deciding whether two events at one time commute: the
   * states, step variables and discrete variables of its function and actions, except
   * counters (a discrete only ever incremented by a constant, `hits := hits + 1`, and read by
   * nothing else), whose increments commute.
   */
  commuteReads: ReadonlySet<string>;
  commuteWrites: ReadonlySet<string>;
}

const PLANS = new WeakMap<CompiledModel, EventPlan[]>();

/** The plans of a model's events, worked out once (every simulator of the model shares them; they are read only). */
export function plansOf(m: CompiledModel, st: SystemStructure): EventPlan[] {
  let plans = PLANS.get(m);
  if (!plans) {
    plans = planEvents(m, st);
    PLANS.set(m, plans);
  }
  return plans;
}

export function planEvents(m: CompiledModel, st: SystemStructure): EventPlan[] {
  const cf = m.closedForm();
  const sys = m.system;
  const isStateEvent = m.events.map((ev) => ev.watchIndex >= 0);
  // readers: group -> state events whose function reads it; discrete slot -> the same
  const groupReaders = new Map<number, number[]>();
  const discreteReaders = new Map<number, number[]>();
  const push = (map: Map<number, number[]>, key: number, k: number) => {
    const list = map.get(key);
    if (list) list.push(k);
    else map.set(key, [k]);
  };
  st.events.forEach((e, k) => {
    if (!isStateEvent[k]) return;
    for (const g of e.reads) push(groupReaders, g, k);
    for (const dsl of e.readsDiscrete) push(discreteReaders, dsl, k);
  });
  const stateIndex = new Map(m.stateNames.map((n, i) => [n, i]));
  const counters = countersOf(sys, st);
  const risky = riskOf(sys);
  const coefficientRisk = coefficientRiskOf(sys, st);
  const functionRisk = functionRiskOf(sys, st);
  const discreteIndex = new Map(m.discreteNames.map((n, i) => [n, i]));
  return m.events.map((ev, k) => {
    const e = st.events[k];
    const touch = new Set<number>([...e.reads, ...e.actionReads, ...e.changes]);
    for (const w of ev.touches) {
      const info = m.watchInfo[w];
      if (info.kind === 'event') for (const g of st.events[info.event].reads) touch.add(g);
    }
    const written = new Set<string>();
    for (const a of sys.events[k].actions) if (a.kind === 'assign' || a.kind === 'jump') written.add(a.target);
    const repredict = new Set<number>(isStateEvent[k] ? [k] : []);
    for (const g of e.changes) for (const j of groupReaders.get(g) ?? []) repredict.add(j);
    for (const dsl of e.writesDiscrete) for (const j of discreteReaders.get(dsl) ?? []) repredict.add(j);
    const names = namesOf(st, k, counters);
    const touched = sorted(touch),
      again = sorted(repredict);
    const broughtFor = new Uint8Array(again.length);
    again.forEach((j, i) => {
      if (st.events[j].reads.every((g) => touch.has(g))) broughtFor[i] = 1;
    });
    const turns: number[] = [],
      turnsEvents: number[] = [];
    for (const w of ev.touches) {
      const info = m.watchInfo[w];
      if (info.kind === 'event' && info.event !== k) {
        turns.push(w);
        turnsEvents.push(info.event);
      }
    }
    return {
      commuteReads: names.reads,
      commuteWrites: names.writes,
      watch: ev.watchIndex,
      dir: ev.direction === 'rises' ? 1 : ev.direction === 'falls' ? -1 : 0,
      degree: cf.degree[k],
      coefficients: cf.coefficients[k],
      valueRate: cf.valueRate[k],
      linear: cf.linear[k],
      reads: Int32Array.from(e.reads),
      changes: Int32Array.from(e.changes),
      touch: touched,
      ySlots: sorted(new Set([...written].flatMap((n) => (stateIndex.has(n) ? [stateIndex.get(n)!] : [])))),
      dSlots: sorted(new Set([...written].flatMap((n) => (discreteIndex.has(n) ? [discreteIndex.get(n)!] : [])))),
      repredict: again,
      broughtFor,
      moves: ev.moves.length > 0,
      movesOwn: ev.watchIndex >= 0 && ev.moves.includes(ev.watchIndex),
      touchesOwn: ev.watchIndex >= 0 && ev.touches.includes(ev.watchIndex),
      turns: Int32Array.from(turns),
      turnsEvents: Int32Array.from(turnsEvents),
      stops: ev.stops,
      finiteRisk: e.changes.some((g) => st.groups[g].states.some((i) => risky(i))),
      coefficientRisk: e.changes.some((g) => coefficientRisk[g]),
      functionRisk: Int32Array.from([...again].filter((j) => functionRisk[j])),
    };
  });
}

/**
 * The counters of a model: discrete variables that every action writing them increments by
 * a constant (`hits := hits + 1`) and that no event function and no other action reads.
 */
function countersOf(sys: FirstOrderSystem, st: SystemStructure): Set<string> {
  const counters = new Set(sys.discretes.map((d) => d.name));
  for (const e of st.events) {
    for (const k of e.conditionNames) counters.delete(k);
    for (const a of e.actions) {
      if (a.increment) continue;
      counters.delete(a.target);
      for (const k of a.reads) counters.delete(k);
    }
  }
  return counters;
}

/** What event k's function and actions read and write, counters left out (see EventPlan.commuteReads). */
function namesOf(st: SystemStructure, k: number, counters: Set<string>): { reads: Set<string>; writes: Set<string> } {
  const e = st.events[k];
  const reads = new Set<string>(e.conditionNames),
    writes = new Set<string>();
  for (const a of e.actions) {
    for (const r of a.reads) reads.add(r);
    writes.add(a.target);
  }
  for (const c of counters) {
    reads.delete(c);
    writes.delete(c);
  }
  return { reads, writes };
}

/** Per state (system order): whether its right-hand side can turn non-finite from finite values (EventPlan.finiteRisk). */
function riskOf(sys: FirstOrderSystem): (state: number) => boolean {
  const named = new Map(sys.namedValues.map((v) => [v.name, v.expr]));
  const memo = new Map<string, boolean>();
  const risky = (e: Expr): boolean => {
    switch (e.kind) {
      case 'number':
      case 'derivative':
        return false;
      case 'name': {
        const def = named.get(e.name);
        if (def === undefined) return false;
        let r = memo.get(e.name);
        if (r === undefined) {
          memo.set(e.name, true);
          r = risky(def);
          memo.set(e.name, r);
        }
        return r;
      }
      case 'unary':
        return e.op === 'not' || risky(e.operand);
      case 'binary':
        return !(e.op === '+' || e.op === '-' || e.op === '*') || risky(e.left) || risky(e.right);
      default:
        return true;
    }
  };
  const byState = sys.equations.map((q) => risky(q.rhs));
  return (i) => byState[i] ?? true;
}

/** Per clock group: whether a Taylor coefficient of its states (x's own left out) is more than sums (EventPlan.coefficientRisk). */
function coefficientRiskOf(sys: FirstOrderSystem, st: SystemStructure): boolean[] {
  const more = moreThanSums(sys);
  const risky = new Array<boolean>(st.groups.length).fill(false);
  for (const c of st.components) {
    if (c.kind !== 'polynomial' || c.taylor === null || c.group < 0) continue;
    if (c.taylor.slice(1).some(more)) risky[c.group] = true;
  }
  return risky;
}

/** Per event: whether its function's Taylor coefficients are more than sums (EventPlan.functionRisk). */
function functionRiskOf(sys: FirstOrderSystem, st: SystemStructure): boolean[] {
  const more = moreThanSums(sys);
  return st.events.map((e) => e.taylor !== null && e.taylor.some(more));
}

/** Whether e multiplies, divides or calls (a named value judged as one): what may under- or overflow. */
function moreThanSums(sys: FirstOrderSystem): (e: Expr) => boolean {
  const named = new Set(sys.namedValues.map((v) => v.name));
  const more = (e: Expr): boolean => {
    switch (e.kind) {
      case 'number':
      case 'derivative':
        return false;
      case 'name':
        // (a named value may be a product: judged as one)
        return named.has(e.name);
      case 'unary':
        return e.op === 'not' || more(e.operand);
      case 'binary':
        return !(e.op === '+' || e.op === '-') || more(e.left) || more(e.right);
      default:
        return true;
    }
  };
  return more;
}

function sorted(s: Set<number>): Int32Array {
  return Int32Array.from(s).sort();
}
