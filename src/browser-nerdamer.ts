/**
 * What `nerdamer-prime/all` resolves to in the browser module (tsup.config.ts aliases it):
 * a stand-in for nerdamer that answers only once the real one, a file of its own
 * (`deltastep.algebra.js`, 0.2 MB gzipped), has been loaded by `loadExactRoots`. Until then a
 * call to `solve` throws and is remembered, so that `src/browser.ts` can tell a model that needs
 * exact roots from one that does not.
 */
interface Algebra {
  solve(equation: string, variable: string): { toString(): string };
}

let real: Algebra | null = null;
let asked = false;

export function setAlgebra(algebra: Algebra): void {
  real = algebra;
}

export function algebraLoaded(): boolean {
  return real !== null;
}

/** Whether `solve` was called without the algebra since the last call (and forget it). */
export function takeUnansweredCall(): boolean {
  const was = asked;
  asked = false;
  return was;
}

const lazy: Algebra = {
  solve(equation, variable) {
    if (real) return real.solve(equation, variable);
    asked = true;
    throw new Error('the algebra for exact roots is not loaded');
  },
};

export default lazy;
