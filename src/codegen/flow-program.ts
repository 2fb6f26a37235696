/**
 * The flow's functions (emit-flow.ts: the right-hand side, the watched functions, their
 * rates and rounding bounds, whole and one by one) as sources of their own, written and
 * compiled on first use. The analytic path never steps: it needs the right-hand side only to
 * check that a result is finite, and the rest not at all (writing them was a sixth of a cold
 * run of a row of 1024 spheres). So the right-hand side is a source by itself, and the
 * watched functions another.
 */
import type { FirstOrderSystem } from '../transform/system.js';
import type { HotFunction, ScalarFunction } from './compile.js';
import { emitFlow, rhsPart, type Watched } from './emit-flow.js';
import type { Emitter } from './emitter.js';
import { PRELUDE_PARTS, programOf } from './program.js';

export interface WatchFunctions {
  watch: HotFunction;
  watchLocked: HotFunction;
  watchRate: HotFunction;
  watchBound: HotFunction;
  rateBound: HotFunction;
  watchOne: ScalarFunction[];
  rateOne: ScalarFunction[];
  boundOne: ScalarFunction[];
  rateBoundOne: ScalarFunction[];
}

export interface FlowText {
  /** the flow's parts of the generated source, after the prelude */
  parts: string[];
  /** its members of the object the source returns */
  members: string;
}

/** The flow of `system`, written (`text`) and compiled (`rhs`, `watched`) when first asked for. */
export function flowProgram(system: FirstOrderSystem, em: Emitter, stateSlot: Map<string, number>, watched: Watched) {
  let rhsText: string | undefined;
  let watchText: FlowText | undefined;
  let rhs: HotFunction | undefined;
  let made: WatchFunctions | undefined;
  const rhsWritten = () => (rhsText ??= rhsPart(system, programOf(em), stateSlot));
  const watchWritten = (): FlowText => {
    if (!watchText) {
      const program = programOf(em);
      emitFlow(system, program, watched);
      const f = program.families;
      watchText = {
        parts: program.parts.slice(PRELUDE_PARTS),
        members: `watch, watchLocked, watchRate, watchBound, rateBound, watchOne: ${f.get('watch')}, rateOne: ${f.get('watchRate')}, boundOne: ${f.get('watchBound')}, rateBoundOne: ${f.get('rateBound')}`,
      };
    }
    return watchText;
  };
  const compiled = <T>(parts: string[], returned: string): T =>
    new Function([...programOf(em).parts, ...parts, `return ${returned};`].join('\n\n'))() as T;
  return {
    /** the whole flow as one source shows it: the right-hand side, then the watched functions */
    text: (): FlowText => {
      const w = watchWritten();
      return { parts: [rhsWritten(), ...w.parts], members: `rhs, ${w.members}` };
    },
    rhs: (): HotFunction => (rhs ??= compiled<HotFunction>([rhsWritten()], 'rhs')),
    watched: (): WatchFunctions => {
      if (!made) {
        const { parts, members } = watchWritten();
        made = compiled<WatchFunctions>(parts, `{ ${members} }`);
      }
      return made;
    },
  };
}
