/**
 * The flow's functions (emit-flow.ts: the right-hand side, the watched functions, their
 * rates and rounding bounds, whole and one by one) as a source of their own, written and
 * compiled on first use. The analytic path never steps, so it never needs them: a row of
 * 1024 spheres spent a sixth of its run writing them.
 */
import type { FirstOrderSystem } from '../transform/system.js';
import type { HotFunction, ScalarFunction } from './compile.js';
import { emitFlow, type Watched } from './emit-flow.js';
import type { Emitter } from './emitter.js';
import { PRELUDE_PARTS, programOf } from './program.js';

export interface FlowFunctions {
  rhs: HotFunction;
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

/** The flow of `system`, written (`text`) and compiled (`functions`) when first asked for. */
export function flowProgram(system: FirstOrderSystem, em: Emitter, stateSlot: Map<string, number>, watched: Watched) {
  let text: FlowText | undefined;
  let made: FlowFunctions | undefined;
  const written = (): FlowText => {
    if (!text) {
      const program = programOf(em);
      emitFlow(system, em, program, stateSlot, watched);
      const f = program.families;
      text = {
        parts: program.parts.slice(PRELUDE_PARTS),
        members: `rhs, watch, watchLocked, watchRate, watchBound, rateBound, watchOne: ${f.get('watch')}, rateOne: ${f.get('watchRate')}, boundOne: ${f.get('watchBound')}, rateBoundOne: ${f.get('rateBound')}`,
      };
    }
    return text;
  };
  const functions = (): FlowFunctions => {
    if (!made) {
      const { parts, members } = written();
      const prelude = programOf(em).parts;
      made = new Function([...prelude, ...parts, `return { ${members} };`].join('\n\n'))() as FlowFunctions;
    }
    return made;
  };
  return { text: written, functions };
}
