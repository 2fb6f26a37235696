/**
 * The life of a contact held as a constraint (option zeno = continue; the force itself is
 * contact.ts's HeldContact): the impulse direction of each event left at zero is recorded
 * when it fires, a persisting contact or an accumulation is held from its instant (or from
 * the start of the step that pushed a sitting function across), and the contact lets go
 * where its force stops pushing, located on the dense output. The Simulator restarts the
 * stepper and refreshes the watched functions through `restarts`.
 */
import { locateCrossing } from '../integrators/locate.js';
import type { Stepper } from '../integrators/stepper.js';
import { HeldContact, impulseDirection } from './contact.js';
import type { Crossings } from './crossings.js';
import type { Recorder } from './recorder.js';
import type { SimulationResult } from './types.js';
import { sharedRhs, type Workspace } from './workspace.js';
import type { ZenoWatch } from './zeno.js';

/** What a contact reads and moves of the run: its result (the contacts list), stepper and time. */
export interface ContactRun {
  readonly result: SimulationResult;
  readonly stepper: Stepper;
  t: number;
}

/** The Simulator's restarts, which the contact's instants need. */
export interface Restarts {
  restart(stepper: Stepper, hInit?: number): void;
  refresh(t: number, y: Float64Array, d: Float64Array): void;
}

export class ContactLifecycle {
  /** the contact held now, if any */
  current: HeldContact | null = null;
  /** per watched function left at zero by its event: the impulse direction of its last firing */
  private readonly directions = new Map<number, Float64Array>();
  /** per step variable (d slot), the state it is added to */
  private readonly stepToState: Int32Array;
  private readonly lambdaProbe: Float64Array;

  constructor(
    private readonly ws: Workspace,
    private readonly crossings: Crossings,
    private readonly zeno: ZenoWatch,
    private readonly recorder: Recorder,
    private readonly restarts: Restarts,
  ) {
    const m = ws.model;
    this.stepToState = Int32Array.from(m.system.stepVariables, (sv) => m.stateNames.indexOf(sv.state));
    this.lambdaProbe = new Float64Array(ws.y.length);
  }

  /**
   * The watched function of the first fired event whose impact sends its function on across
   * (the rate changed, yet points to the side it fired into): it fired on an approach the
   * arithmetic could not see, a contact; or -1. rFire: the rates before the actions;
   * `located`: the events found at their zero at this instant. One that event iteration fired
   * (another event's action set its function onto zero) arrived by that jump, from the side it
   * stood on: an approach seen, whatever its rate. `x falls do n := n + 1` under x' = v - n,
   * set onto zero at rest from above by `at 0.5 do x := 0`, goes on down at the rate -1 its
   * own action gave it (n = 1, x(1) = -0.625); taken for an unseen approach, every stepper
   * failed with a "persisting contact" there.
   */
  unseenApproach(fired: readonly number[], rFire: Float64Array, located: readonly number[]): number {
    const ws = this.ws,
      m = ws.model,
      arming = this.crossings.arming;
    for (const e of fired) {
      const w = m.events[e].watchIndex;
      if (w < 0 || !located.includes(e) || !arming.isHeld(w) || !arming.leavesAcross(w)) continue;
      if (!(Math.abs(ws.rPrev[w] - rFire[w]) > 4 * ws.rBound[w])) continue;
      // It came in across its zero at a rate well above rounding: the approach was seen, and
      // an action that lets it through (a brake y := 0.8 y at x = 0) is no contact.
      if (ws.dir * rFire[w] * -arming.fromSide(w) > 4 * ws.rBound[w]) continue;
      return w;
    }
    return -1;
  }

  /** No contact held, no direction recorded: the start of a run. */
  reset(): void {
    this.current = null;
    sharedRhs(this.ws.model).ctx.contact = null;
    this.directions.clear();
  }

  /** Records the impulse direction of each fired event left at zero (for a contact it may become). */
  noteDirections(fired: readonly number[], rFire: Float64Array): void {
    const m = this.ws.model;
    for (const e of fired) {
      const w = m.events[e].watchIndex;
      if (w < 0 || !this.crossings.arming.isHeld(w)) continue;
      const B = impulseDirection(this.ws, this.stepToState, rFire[w], this.ws.rPrev[w]);
      if (B) this.directions.set(w, B);
    }
  }

  /**
   * Holds watched function w at zero from the instant `at` (ws.y there, the origin there):
   * its rate is set to zero along its impulse direction and the stepper restarts with the
   * contact force. False when w has no impulse direction or no rate to hold.
   */
  hold(rs: ContactRun, w: number, at: number): boolean {
    const ws = this.ws,
      m = ws.model,
      info = m.watchInfo[w];
    const B = this.directions.get(w),
      fns = m.constraintOf(w);
    if (!B || !fns || info.kind !== 'event') return false;
    const contact = new HeldContact(ws, w, info.event, B, fns, this.crossings.arming.fromSide(w) || 1);
    contact.project(at, ws.y);
    this.current = contact;
    sharedRhs(m).ctx.contact = contact;
    this.crossings.arming.holdForContact(w);
    this.zeno.forget(info.event);
    (rs.result.contacts ??= []).push({ event: m.events[info.event].name, from: at, to: null });
    this.restarts.restart(rs.stepper, Math.abs(rs.stepper.hLast) || undefined);
    this.restarts.refresh(at, ws.y, ws.d);
    // a force that does not push even now: the bodies part at once
    if (!contact.pushing) this.letGo(rs, at);
    return true;
  }

  /** A sitting function pushed across in the last step: the step is taken back and w held from its start. */
  holdFromStepStart(rs: ContactRun, w: number): boolean {
    const ws = this.ws,
      stepper = rs.stepper;
    if (!this.directions.has(w)) return false;
    const at = ws.origin.abs(stepper.tPrev);
    ws.y.set(stepper.yPrev);
    ws.origin.moveTo(stepper.tPrev);
    rs.t = at;
    return this.hold(rs, w, at);
  }

  /** Ends the contact at `at` (ws.y there, the origin there): the function sits at zero, free. */
  letGo(rs: ContactRun, at: number): void {
    const contact = this.current!,
      ws = this.ws;
    this.current = null;
    sharedRhs(this.ws.model).ctx.contact = null;
    const record = rs.result.contacts?.[rs.result.contacts.length - 1];
    if (record) record.to = at;
    // (the constraint held g to the integration's accuracy, not to its rounding)
    const m = this.ws.model,
      k = contact.k;
    ws.gBound[k] = m.boundOne[k](at, ws.y, ws.p, ws.d, ws.sw) + Math.abs(m.watchOne[k](at, ws.y, ws.p, ws.d, ws.sw));
    this.crossings.arming.releaseContact(k, contact.side);
    this.restarts.restart(rs.stepper, Math.abs(rs.stepper.hLast) || undefined);
    this.restarts.refresh(at, ws.y, ws.d);
  }

  /**
   * After an accepted step with a contact held: whether its force stopped pushing before the
   * step's earliest crossing (or its end). If so the contact ends where the force changes
   * sign, located on the dense output, and the rest of the step is taken again from there.
   */
  letsGo(rs: ContactRun, crossing: number): boolean {
    const ws = this.ws,
      stepper = rs.stepper,
      contact = this.current!;
    const end = crossing >= 0 ? this.crossings.candidateLeft[crossing] : stepper.t;
    const pushAt = (s: number): number => {
      stepper.interpolate(s, ws.yTmp);
      sharedRhs(this.ws.model).f(s, ws.yTmp, this.lambdaProbe);
      return contact.lambda * contact.gB * contact.side;
    };
    if (pushAt(end) > 0) return false;
    const scan = { resolution: this.crossings.scan.resolution, value: pushAt, slope: () => NaN };
    const bracket = { left: 0, right: 0 };
    const start = pushAt(stepper.tPrev);
    if (start <= 0) bracket.right = stepper.tPrev;
    else locateCrossing(scan, stepper.tPrev, start, end, pushAt(end), bracket);
    const at = ws.origin.abs(bracket.right);
    stepper.interpolate(bracket.right, ws.y);
    // grid rows inside the step up to the release
    this.recorder.gridRows(stepper, rs.t, at, stepper.tPrev, bracket.right);
    ws.origin.moveTo(bracket.right);
    rs.t = at;
    this.recorder.stepRow(at, ws.y, ws.d);
    this.letGo(rs, at);
    return true;
  }
}
