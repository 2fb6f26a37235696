/**
 * What each event reads and writes, and which watched functions it can move: through the
 * named values they use, the names each watched function and rate reads; the slots each
 * event's actions write; from them `moves` (functions whose values an action can change),
 * `touches` (values or rates) and the reads and writes that decide whether two events commute.
 */
import type { Expr } from '../expression/ast.js';
import { references } from '../expression/expr.js';
import type { FirstOrderSystem } from '../transform/system.js';
import { accumulatorsOf, addedTo } from './accumulators.js';
import type { WatchEntry } from './compile.js';

/** The dependencies between events and watched functions (see the header). */
export function eventDependencies(
  system: FirstOrderSystem,
  stateNames: string[],
  stateSlot: Map<string, number>,
  watchInfo: WatchEntry[],
  watchExprs: Expr[],
  rateExprs: (Expr | null)[],
) {
  // Which watched functions read which names, through the named values they use.
  const namedExpr = new Map(system.namedValues.map((v) => [v.name, v.expr]));
  // What each named value reads, through the others, found once: every event of a row of
  // spheres reads its impulse J through two jumps, its function and its rate, and each read
  // walked J's definition again. (In the order a walk through the definitions meets them,
  // which merging these lists in order keeps: named values form no cycle.)
  const namedReads = new Map<string, readonly string[]>();
  const readsOfNamed = (k: string, nx: Expr): readonly string[] => {
    let reads = namedReads.get(k);
    if (reads === undefined) {
      reads = [...readsOf(nx)];
      namedReads.set(k, reads);
    }
    return reads;
  };
  const readsOf = (e: Expr): Set<string> => {
    const out = new Set<string>();
    for (const k of references(e))
      if (!out.has(k)) {
        out.add(k);
        const nx = namedExpr.get(k);
        if (nx) for (const j of readsOfNamed(k, nx)) out.add(j);
      }
    return out;
  };
  const watchReads = watchExprs.map(readsOf);
  const writtenSlots = system.events.map((ev) => {
    const slots = new Set<string>();
    for (const a of ev.actions) {
      if (a.kind === 'assign' || a.kind === 'jump') slots.add(a.target);
      if (a.kind === 'marcus') a.jumps.forEach((j) => slots.add(j.target));
    }
    return slots;
  });
  const rateReads = rateExprs.map((r) => (r ? readsOf(r) : new Set<string>()));
  // (loops, not flatMap, whose arrays of one were much of this for a row of 1024 spheres)
  const watchStates = watchReads.map((reads, k) => {
    const slots = new Set<number>();
    for (const names of [reads, rateReads[k]])
      for (const name of names) {
        const slot = stateSlot.get(name);
        if (slot !== undefined) slots.add(slot);
      }
    return Int32Array.from(slots).sort();
  });
  const watchOfEvent = new Map<number, number>();
  watchInfo.forEach((w, k) => {
    if (w.kind === 'event') watchOfEvent.set(w.event, k);
  });
  // What can change when or whether an event fires: the states, the step variables and the
  // names any watched function or rate reads (a counter that only outputs read cannot).
  const dynamic = new Set<string>([...stateNames, ...system.stepVariables.map((sv) => sv.name)]);
  for (const r of [...watchReads, ...rateReads]) for (const k of r) dynamic.add(k);
  // What the order of two events changes: besides those, a discrete variable an action reads
  // (`m := n` beside `n := n + 1`: fired apart, one reads what the other wrote) or sets, but
  // not an accumulator that only its additions read (`hits := hits + 1`): additions commute.
  const ordered = new Set(dynamic);
  for (const d of discretesOrdered(system)) ordered.add(d);
  const eventReads = system.events.map((ev, i) => {
    const reads = new Set<string>();
    const w = watchOfEvent.get(i);
    if (w !== undefined) {
      for (const k of watchReads[w]) reads.add(k);
      for (const k of rateReads[w]) reads.add(k);
    }
    for (const a of ev.actions) {
      if (a.kind === 'assign') for (const k of readsOf(a.value)) reads.add(k);
      if (a.kind === 'jump') for (const k of readsOf(a.increment)) reads.add(k);
      if (a.kind === 'marcus')
        a.jumps.forEach((j) => {
          for (const k of readsOf(j.rate)) reads.add(k);
          if (j.frozen) for (const k of readsOf(j.frozen)) reads.add(k);
        });
    }
    const out = new Set<string>();
    for (const k of reads) if (ordered.has(k)) out.add(k);
    return out;
  });
  // (through an index from name to the functions that read it: events x functions was
  // 2 million set look-ups at N = 1024)
  const readers = new Map<string, number[]>();
  watchReads.forEach((reads, k) => {
    for (const name of reads) {
      const list = readers.get(name);
      if (list) list.push(k);
      else readers.set(name, [k]);
    }
  });
  const rateReaders = new Map<string, number[]>();
  rateReads.forEach((reads, k) => {
    for (const name of reads) {
      const list = rateReaders.get(name);
      if (list) list.push(k);
      else rateReaders.set(name, [k]);
    }
  });
  const functionsReading = (slots: ReadonlySet<string>, indexes: Map<string, number[]>[]): Int32Array => {
    const ks = new Set<number>();
    for (const sl of slots) for (const index of indexes) for (const k of index.get(sl) ?? []) ks.add(k);
    return Int32Array.from(ks).sort();
  };
  const moves = writtenSlots.map((slots) => functionsReading(slots, [readers]));
  const touches = writtenSlots.map((slots) => functionsReading(slots, [readers, rateReaders]));
  return { namedExpr, watchStates, watchOfEvent, ordered, eventReads, writtenSlots, moves, touches };
}

/**
 * The discrete variables whose values depend on the order of the events that write or read
 * them: all but the accumulators (every assignment to it adds a term that does not read it,
 * accumulators.ts) that no action reads otherwise.
 */
function discretesOrdered(system: FirstOrderSystem): Set<string> {
  const discretes = new Set(system.discretes.map((d) => d.name));
  const accumulators = accumulatorsOf(system);
  const ordered = new Set<string>();
  const readIn = (e: Expr) => {
    for (const k of references(e)) if (discretes.has(k)) ordered.add(k);
  };
  for (const ev of system.events)
    for (const a of ev.actions) {
      if (a.kind === 'assign') {
        const added = accumulators.has(a.target) ? addedTo(a.target, a.value) : null;
        if (added === null && discretes.has(a.target)) ordered.add(a.target);
        readIn(added?.term ?? a.value);
      } else if (a.kind === 'jump') readIn(a.increment);
      else if (a.kind === 'marcus')
        for (const j of a.jumps) {
          readIn(j.rate);
          if (j.frozen) readIn(j.frozen);
        }
    }
  return ordered;
}
