/**
 * Firing the events of one instant: every action reads the pre-event values, all
 * assignments apply together, then event iteration (an action that makes another state
 * event's function cross fires it too, bounded); the ledger and the before/after rows.
 */
import type { Recorder } from './recorder.js';
import type { Switching } from './switching.js';
import type { ValueRecord } from './types.js';
import type { Workspace } from './workspace.js';

export const MAX_EVENT_ITERATIONS = 100;
const NONE: number[] = [];

/** the pre/post/jumps of every event of a run with `eventValues: false` */
const NO_VALUES: ValueRecord = Object.freeze(Object.create(null) as ValueRecord);

export interface FireOutcome {
  count: number;
  stopped: boolean;
  stopper: string;
  iterationFailed: boolean;
  /** every event fired at the instant, event iteration included */
  fired: number[];
  /** a switching function the actions left in a sliding mode, or -1 */
  sliding: number;
}

export function matches(direction: 'rises' | 'falls' | 'crosses', signBefore: number): boolean {
  return direction === 'crosses' || (direction === 'rises' ? signBefore < 0 : signBefore > 0);
}

export class Firing {
  /** whether the run writes rows at all, and fills the ledger's values */
  rows = true;
  withValues = true;

  constructor(
    private readonly ws: Workspace,
    private readonly recorder: Recorder,
    private readonly switching: Switching,
  ) {}

  /**
   * Applies the events `fired` (in file order) at t to (ws.y, ws.d), with the ledger and the
   * before/after rows. `dtZero`: the location's bracket in time (see Switching.lock).
   */
  fire(t: number, fired: readonly number[], dtZero: number): FireOutcome {
    const ws = this.ws,
      m = ws.model,
      rec = this.recorder;
    const { p, sw } = ws;
    let count = 0,
      stopped = false,
      stopper = '';
    const all: number[] = [];
    let round: readonly number[] = fired;
    const withValues = this.withValues;
    const needOutputs = withValues || this.rows;
    if (needOutputs) m.outputs(t, ws.y, p, ws.d, sw, ws.outPre);
    if (this.rows) rec.beforeRow(t, ws.outPre);
    for (let iteration = 0; round.length > 0; iteration++) {
      if (iteration >= MAX_EVENT_ITERATIONS)
        return { count, stopped, stopper, iterationFailed: true, fired: all, sliding: -1 };
      all.push(...round);
      const preValues = withValues ? rec.values(t, ws.outPre) : NO_VALUES;
      ws.yOut.set(ws.y);
      ws.dOut.set(ws.d);
      ws.yPre.set(ws.y);
      ws.dPre.set(ws.d);
      for (const k of round) m.events[k].apply(t, ws.y, p, ws.d, sw, ws.yOut, ws.dOut, ws.dir);
      for (const k of round) if (m.events[k].marcus) this.marcusFlow(t, k);
      // Event iteration: an action that makes another state event's function cross fires it
      // now. Only the functions these actions can move are looked at (none, when an impact
      // changes velocities and the functions read positions).
      let next: number[] | null = null;
      for (const e of round) {
        const moves = m.events[e].moves;
        for (let i = 0; i < moves.length; i++) {
          const k = moves[i],
            w = m.watchInfo[k];
          if (w.kind !== 'event' || round.includes(w.event) || next?.includes(w.event)) continue;
          const before = m.watchOne[k](t, ws.y, p, ws.d, sw),
            after = m.watchOne[k](t, ws.yOut, p, ws.dOut, sw);
          if (before === 0 || Math.sign(after) === Math.sign(before)) continue;
          if (matches(m.events[w.event].direction ?? 'crosses', Math.sign(before))) (next ??= []).push(w.event);
        }
      }
      ws.y.set(ws.yOut);
      ws.d.set(ws.dOut);
      if (needOutputs) m.outputs(t, ws.y, p, ws.d, sw, ws.outPost);
      const postValues = withValues ? rec.values(t, ws.outPost) : NO_VALUES;
      for (const k of round) {
        const ev = m.events[k];
        let jumps = NO_VALUES;
        if (withValues) {
          jumps = rec.emptyRecord();
          // Several events at one instant: each ledger line shows what its own actions did.
          const own = round.length > 1 ? this.ownEffect(t, k) : postValues;
          for (const v of ev.changes) if (v in own) jumps[v] = own[v] - preValues[v];
        }
        rec.ledger({ t, name: ev.name, kind: ev.kind, source: ev.source, pre: preValues, post: postValues, jumps });
        count++;
        if (ev.stops) {
          stopped = true;
          stopper = ev.name;
        }
      }
      round = next ? next.sort((a, b) => a - b) : NONE;
      if (needOutputs) ws.outPre.set(ws.outPost);
    }
    if (this.rows) rec.fixedRow(t, ws.outPost);
    const sliding = this.switching.lock(t, ws.y, ws.d, dtZero);
    return { count, stopped, stopper, iterationFailed: false, fired: all, sliding };
  }

  /** The output values after event k's actions alone, from the pre-event state (yPre, dPre). */
  private ownEffect(t: number, k: number): ValueRecord {
    const ws = this.ws,
      m = ws.model;
    const yk = ws.yTmp,
      dk = ws.dOwn;
    yk.set(ws.yPre);
    dk.set(ws.dPre);
    m.events[k].apply(t, ws.yPre, ws.p, ws.dPre, ws.sw, yk, dk, ws.dir);
    const out = new Float64Array(m.outputNames.length);
    m.outputs(t, yk, ws.p, dk, ws.sw, out);
    return this.recorder.values(t, out);
  }

  /** Marcus rule: dS/ds = rate(S) for s in [0, 1] (classical RK4, 256 steps), from the pre-event values. */
  private marcusFlow(t: number, k: number): void {
    const ws = this.ws;
    const ev = ws.model.events[k];
    const { targets, rate } = ev.marcus!;
    const n = targets.length;
    const dm = ws.d.slice();
    const k1 = new Float64Array(n),
      k2 = new Float64Array(n),
      k3 = new Float64Array(n),
      k4 = new Float64Array(n),
      s0 = new Float64Array(n);
    const steps = 256,
      h = ws.dir / steps;
    const evalAt = (out: Float64Array) => rate(t, ws.y, ws.p, dm, ws.sw, out);
    const setAt = (base: Float64Array, kk: Float64Array, c: number) => {
      for (let i = 0; i < n; i++) dm[targets[i]] = base[i] + c * kk[i];
    };
    for (let s = 0; s < steps; s++) {
      for (let i = 0; i < n; i++) s0[i] = dm[targets[i]];
      evalAt(k1);
      setAt(s0, k1, h / 2);
      evalAt(k2);
      setAt(s0, k2, h / 2);
      evalAt(k3);
      setAt(s0, k3, h);
      evalAt(k4);
      for (let i = 0; i < n; i++) dm[targets[i]] = s0[i] + (h / 6) * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }
    for (let i = 0; i < n; i++) ws.dOut[targets[i]] = dm[targets[i]];
  }
}
