/**
 * dist/deltastep.browser.js: the library as one ES module for browsers. It is src/index.ts
 * less the computer algebra (nerdamer, two thirds of the weight), which a model needs only for
 * exact roots of a delta argument that is nonlinear in the independent variable
 * (`delta(t^2 - 2)`; `delta(t - 1)` and state events do not). `prepare(text)` compiles a model
 * and loads the algebra first when it needs it (`dist/deltastep.algebra.js`, beside the
 * module); the functions that take model text directly refuse such a model, with that advice,
 * until the algebra is loaded, so that a browser never finds other roots than Node.js.
 */
import type { CompiledModel } from './codegen/compile.js';
import { compileModel, type ExpandOptions } from './codegen/stages.js';
import { toText } from './expression/expr.js';
import { useExactRoots } from './transform/algebra.js';
import { nerdamerRoots } from './transform/exact-roots.js';
import { algebraLoaded, setAlgebra, takeUnansweredCall } from './browser-nerdamer.js';

export * from './index.js';

/** A model needs exact roots and the algebra is not loaded yet (see `prepare`). */
export class ExactRootsNotLoadedError extends Error {
  override name = 'ExactRootsNotLoadedError';
}

// (replaces the solver that src/index.ts plugs in: the same one, asked only once loaded)
useExactRoots((u, independent) => {
  takeUnansweredCall();
  const roots = nerdamerRoots(u, independent);
  if (takeUnansweredCall())
    throw new ExactRootsNotLoadedError(
      `delta(${toText(u)}) needs exact roots in ${independent}, and the browser module loads that algebra on demand: compile the model with \`await prepare(text)\` (or call \`await loadExactRoots()\` once), then run what it returns`,
    );
  return roots;
});

let loading: Promise<void> | null = null;

/** Loads the algebra for exact roots (`deltastep.algebra.js`, beside this module); once. */
export function loadExactRoots(): Promise<void> {
  loading ??= (async () => {
    // (a computed address: the bundler leaves it alone, and it holds wherever the module is served from)
    const url = new URL('./deltastep.algebra.js', import.meta.url).href;
    const algebra = (await import(/* @vite-ignore */ url)) as { default: Parameters<typeof setAlgebra>[0] };
    setAlgebra(algebra.default);
  })();
  loading.catch(() => (loading = null));
  return loading;
}

/** Whether the algebra for exact roots is loaded. */
export function exactRootsLoaded(): boolean {
  return algebraLoaded();
}

/**
 * Compiles model text as `compileModel` does, loading the algebra first if the model needs
 * exact roots; pass the result to `simulate`, `shoot` or a `Simulator`.
 */
export async function prepare(source: string, file = '<model>', options: ExpandOptions = {}): Promise<CompiledModel> {
  try {
    return compileModel(source, file, options);
  } catch (e) {
    if (!(e instanceof ExactRootsNotLoadedError)) throw e;
  }
  await loadExactRoots();
  return compileModel(source, file, options);
}
