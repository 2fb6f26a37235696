/**
 * The actions of events as code: every right-hand side reads the values before the instant,
 * then all assignments happen; jumps add (and subtract when the run goes backwards), and a
 * variable that every assignment only adds to accumulates. Also the rates of Marcus flows and
 * what each event stops or changes.
 */
import type { AssignAction, FirstOrderSystem, JumpAction } from '../transform/system.js';
import { differentiate } from '../expression/expr.js';
import { accumulatorsOf, addedTo } from './accumulators.js';
import { LEFT_SIDE_HELPER, type Emitter } from './emitter.js';
import type { Program } from './program.js';

/** Writes the events' actions (and Marcus rates) into `program`; returns what each event stops, flows and changes. */
export function emitEventActions(
  system: FirstOrderSystem,
  em: Emitter,
  program: Program,
  slotIndex: (n: string) => { array: 'y' | 'd'; index: number },
) {
  const { parts, fn, family, bodyOf } = program;
  // Event actions: every right-hand side reads the pre-event values, then all assignments happen.
  const accumulators = accumulatorsOf(system);
  const nStates = system.states.length;
  const eventMeta: { written: number[]; stops: boolean; marcusTargets: number[] | null; changes: string[] }[] = [];
  const applyBodies: string[] = [];
  system.events.forEach((ev, i) => {
    // Assignments set a slot; jumps add to it (deltas at one instant all count), reversed
    // when the run goes backwards (dir = -1) so that integrating back undoes the step.
    // A variable that every assignment only adds to (`hits := hits + 1`, `E := E - loss`)
    // accumulates: two events at one instant that each count both count, as two deltas'
    // jumps do. (Where a plain assignment also writes it, the last in file order wins.)
    const writes = ev.actions.filter((a): a is AssignAction | JumpAction => a.kind === 'assign' || a.kind === 'jump');
    const marcus = ev.actions.find((a) => a.kind === 'marcus');
    const added = writes.map((a) =>
      a.kind === 'assign' && accumulators.has(a.target) ? addedTo(a.target, a.value) : null,
    );
    const values = writes.map((a, k) => (a.kind === 'assign' ? (added[k]?.term ?? a.value) : a.increment));
    // A Marcus rate's frozen factor (rule 3's 1/|du/dt|) is read with the other pre-event
    // values, by the actions, into an array of this event that its rate function reads along
    // the flow (the flow itself sees only the moving step variables).
    const flowJumps = marcus?.kind === 'marcus' ? marcus.jumps : [];
    const frozen = flowJumps.flatMap((j, k) => (j.frozen ? [{ k, expr: j.frozen }] : []));
    if (frozen.length > 0) parts.push(`const frozen${i} = new Array(${flowJumps.length}).fill(0);`);
    // A delta root's weight 1/|u'(t)| (rule 1) is read at the double t nearest the root, off
    // by up to half an ulp of t: where u' is small beside u'' times that ulp, a large error
    // ((t - 1)^2 - 1e-20: u' = 2e-10 at 1 - 1e-10, read 5.5e-7 off; (t - 1)^2 - 1e-30, 6%,
    // status ok). The run passes the root's residual tr (the exact root minus t, from the root
    // finder's Newton step, event-times.ts), and every term of such an event, each of which
    // carries the factor 1/|u'(t)| once (transform/events.ts), is scaled by |u'(t)| / |u'(t +
    // tr)|, u'(t + tr) from its Taylor series to the third derivative.
    const sched = ev.schedule;
    const slope =
      sched?.kind === 'roots' && !sched.exactRoot ? differentiate(sched.argument, system.independent) : null;
    const curvature = slope && differentiate(slope, system.independent);
    const torsion = curvature && differentiate(curvature, system.independent);
    const read = [...values, ...frozen.map((f) => f.expr), ...(slope ? [slope, curvature!, torsion!] : [])];
    // A Marcus flow's rates carry that factor too (its rate is the jump's increment, held
    // along the flow): the actions keep the correction in an array of this event that the
    // rate function reads, as they keep a frozen factor. The rate read 1/|u'| at the double:
    // y' = k y delta((t - 1)^2 - 1e-30) flowed 13.5 % off, status ok (round17-marcus).
    const flowScaled = slope !== null && marcus !== undefined;
    if (flowScaled) parts.push(`const rootScale${i} = [1];`);
    // Before: a relation of the right-hand side reads the branch of the step that ended at
    // the instant, its left limit, like every other value an action reads (at the instant
    // itself h < R may already read false: a rule's value held there would be the stale one);
    // one that only actions read is taken at its left limit too, from its rate (Emitter's
    // `before`): `G = 3*x while x < 0.5` read as x reaches 0.5 is 1.5 on every path, not the
    // held value of before the window, whichever side of 0.5 the located instant rounds to.
    applyBodies.push(
      bodyOf(
        read,
        'before',
        ((e: Emitter) => {
          const lines: string[] = [];
          let rs = '';
          if (slope) {
            lines.push(
              `  const rootSlope = ${e.expr(slope, 'before')};\n`,
              `  const rootScale = tr ? Math.abs(rootSlope) / Math.abs(rootSlope + tr * (${e.expr(curvature!, 'before')} + tr * 0.5 * ${e.expr(torsion!, 'before')})) : 1;\n`,
            );
            rs = ' * rootScale';
            if (flowScaled) lines.push(`  rootScale${i}[0] = rootScale;\n`);
          }
          values.forEach((v, k) =>
            lines.push(`  const x${k} = ${rs ? `(${e.expr(v, 'before')})${rs}` : e.expr(v, 'before')};\n`),
          );
          for (const f of frozen)
            lines.push(
              `  frozen${i}[${f.k}] = ${rs ? `(${e.expr(f.expr, 'before')})${rs}` : e.expr(f.expr, 'before')};\n`,
            );
          writes.forEach((a, k) => {
            const s = slotIndex(a.target);
            const target = `${s.array === 'y' ? 'yOut' : 'dOut'}[${s.index}]`;
            const op = a.kind === 'jump' ? '+= dir *' : added[k] ? added[k].op : '=';
            // (the magnitude the written value is summed from, where the caller asks: an
            // addition's is the running value's and the increment's, and its rounding adds to
            // what the slot carries; an assignment's is its expression's; action-residue.ts)
            const f = s.array === 'y' ? s.index : nStates + s.index;
            const scale =
              a.kind === 'jump' || added[k]
                ? `sc[${f}] += Math.abs(${target}) + ${e.magnitude(values[k], 'before')}`
                : `sc[${f}] = ${e.magnitude(a.value, 'before')}`;
            lines.push(`  if (sc !== undefined) ${scale};\n`);
            lines.push(`  ${target} ${op} x${k};\n`);
          });
          return lines.join('');
        })(em),
      ),
    );
    const rates = marcus?.kind === 'marcus' ? marcus.jumps.map((j) => j.rate) : [];
    const held = flowJumps.map((j) => j.frozen !== undefined);
    // (the rates of a Marcus flow; events without one share a function that does nothing)
    if (marcus?.kind === 'marcus')
      parts.push(
        fn(`rate${i}(t, y, p, d, sw, out)`, rates, 'direct', (e) =>
          rates
            .map(
              (r, k) =>
                `  out[${k}] = ${flowScaled ? `rootScale${i}[0] * ` : ''}${held[k] ? `frozen${i}[${k}] * (${e.expr(r, 'direct')})` : `(${e.expr(r, 'direct')})`};\n`,
            )
            .join(''),
        ),
      );
    const changes = new Set<string>();
    for (const a of ev.actions) {
      if (a.kind === 'assign' || a.kind === 'jump') changes.add(a.variable);
      if (a.kind === 'marcus') a.jumps.forEach((j) => changes.add(j.variable));
    }
    eventMeta.push({
      // (the slots its assignments and jumps write, states first, then d: sc's indices)
      written: writes.map((a) => {
        const s = slotIndex(a.target);
        return s.array === 'y' ? s.index : nStates + s.index;
      }),
      stops: ev.actions.some((a) => a.kind === 'stop'),
      marcusTargets: marcus?.kind === 'marcus' ? marcus.jumps.map((j) => slotIndex(j.target).index) : null,
      changes: [...changes],
    });
  });
  // (the helper of `before` relations, only in programs whose actions read one)
  if (applyBodies.some((b) => b.includes('leftSide('))) parts.push(LEFT_SIDE_HELPER);
  family('apply', 't, y, p, d, sw, yOut, dOut, dir, sc, tr', () => applyBodies);
  return eventMeta;
}
