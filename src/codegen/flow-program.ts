/**
 * The flow's functions (emit-flow.ts: the right-hand side, the watched functions, their
 * rates and rounding bounds, whole and one by one) as sources of their own, written and
 * compiled on first use. The analytic path never steps: it needs the right-hand side only to
 * check that a result is finite, and each watched function alone for event iteration, but
 * never all of them at once (writing them all was a sixth of a cold run of a row of 1024
 * spheres). So the right-hand side is a source by itself, the watched functions all at once
 * another, and one by one a third.
 */
import type { FirstOrderSystem } from '../transform/system.js';
import type { HotFunction, ScalarFunction } from './compile.js';
import { emitWatchArrays, emitWatchFamilies, rhsPart, type Watched } from './emit-flow.js';
import type { Emitter } from './emitter.js';
import { PRELUDE_PARTS, programOf } from './program.js';

/** The watched functions all at once (the stepper's). */
export interface WatchArrays {
  watch: HotFunction;
  watchLocked: HotFunction;
  watchRate: HotFunction;
  watchBound: HotFunction;
  rateBound: HotFunction;
}

/** Each watched function alone, its rate and their rounding bounds. */
export interface WatchFamilies {
  watchOne: ScalarFunction[];
  rateOne: ScalarFunction[];
  boundOne: ScalarFunction[];
  /** the magnitudes each watched function adds up (the scale of its terms, not its rounding) */
  sizeOne: ScalarFunction[];
  rateBoundOne: ScalarFunction[];
}

export interface FlowText {
  /** the flow's parts of the generated source, after the prelude */
  parts: string[];
  /** its members of the object the source returns */
  members: string;
}

/** The flow of `system`, written (`text`) and compiled (`rhs`, `arrays`, `families`) when first asked for. */
export function flowProgram(system: FirstOrderSystem, em: Emitter, stateSlot: Map<string, number>, watched: Watched) {
  const cached = <T>(make: () => T): (() => T) => {
    let value: T | undefined;
    return () => (value ??= make());
  };
  const rhsText = cached(() => rhsPart(system, programOf(em), stateSlot));
  const arraysText = cached((): FlowText => {
    const program = programOf(em);
    emitWatchArrays(system, program, watched);
    return {
      parts: program.parts.slice(PRELUDE_PARTS),
      members: 'watch, watchLocked, watchRate, watchBound, rateBound',
    };
  });
  const familiesText = cached((): FlowText => {
    const program = programOf(em);
    emitWatchFamilies(watched, program);
    const f = program.families;
    return {
      parts: program.parts.slice(PRELUDE_PARTS),
      members: `watchOne: ${f.get('watch')}, rateOne: ${f.get('watchRate')}, boundOne: ${f.get('watchBound')}, sizeOne: ${f.get('watchSize')}, rateBoundOne: ${f.get('rateBound')}`,
    };
  });
  const compiled = <T>(parts: string[], returned: string): T =>
    new Function([...programOf(em).parts, ...parts, `return ${returned};`].join('\n\n'))() as T;
  return {
    /** the whole flow as one source shows it: the right-hand side, then the watched functions at once and alone */
    text: (): FlowText => {
      const a = arraysText(),
        f = familiesText();
      return { parts: [rhsText(), ...a.parts, ...f.parts], members: `rhs, ${a.members}, ${f.members}` };
    },
    rhs: cached((): HotFunction => compiled<HotFunction>([rhsText()], 'rhs')),
    arrays: cached((): WatchArrays => {
      const { parts, members } = arraysText();
      return compiled<WatchArrays>(parts, `{ ${members} }`);
    }),
    families: cached((): WatchFamilies => {
      const { parts, members } = familiesText();
      return compiled<WatchFamilies>(parts, `{ ${members} }`);
    }),
  };
}
