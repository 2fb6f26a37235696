/**
 * Which events of a model commute at one instant: two events do not when what one writes the
 * other reads (their `reads` and `writes` from the compiler, counters aside). The order of
 * two impacts at opposite ends of a row does not matter; of two that share a sphere it does.
 * Names are numbered once, and each event's list of conflicting watched functions is made on
 * first use: string sets per test cost more than the rest of an impact.
 */
import type { CompiledModel } from '../codegen/compile.js';

/** Whether two sorted lists of name numbers share one. */
function meet(a: Int32Array, b: Int32Array): boolean {
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) return true;
    if (a[i] < b[j]) i++;
    else j++;
  }
  return false;
}

export class EventConflicts {
  /** per event: the names it reads and writes, numbered */
  private eventReads: Int32Array[] | null = null;
  private eventWrites: Int32Array[] | null = null;
  private readers: Map<number, number[]> | null = null;
  private writers: Map<number, number[]> | null = null;
  private readonly conflicting = new Map<number, Int32Array>();

  constructor(private readonly model: CompiledModel) {}

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
    const events = this.model.events;
    this.eventReads = events.map((ev) => id(ev.reads));
    this.eventWrites = events.map((ev) => id(ev.writes));
  }

  /** The watched functions of the events that do not commute with event f (computed once per f). */
  conflictingWatch(f: number): Int32Array {
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
    const events = this.model.events,
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

  /** Whether event e does not commute with one of the first n events of `events`. */
  conflictsWith(e: number, events: readonly number[], n: number): boolean {
    this.numberNames();
    const reads = this.eventReads!,
      writes = this.eventWrites!;
    for (let i = 0; i < n; i++) {
      const f = events[i];
      if (meet(writes[f], reads[e]) || meet(writes[e], reads[f])) return true;
    }
    return false;
  }
}
