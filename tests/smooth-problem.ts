import type { JacobianFunctions, Rhs } from '../src/integrators/stepper.js';

/**
 * A nonlinear, non-autonomous problem whose solution is y = sin t + e^{−2t}: f = y' − (y² −
 * y(t)²) − 2(y − y(t)) along it. The implicit methods' order is measured on it (stiff.test.ts,
 * radau5.test.ts).
 */
export const smooth: { f: Rhs; jac: JacobianFunctions; exact: (t: number) => number } = {
  f: (t, y, d) => {
    d[0] = -2 * (y[0] - Math.sin(t)) + Math.cos(t) - y[0] * y[0] + (Math.sin(t) + Math.exp(-2 * t)) ** 2;
  },
  jac: {
    dfdy: (_t, y, out) => {
      out[0] = -2 - 2 * y[0];
      return true;
    },
    dfdt: (t, _y, out) => {
      const s = Math.sin(t) + Math.exp(-2 * t);
      out[0] = 2 * Math.cos(t) - Math.sin(t) + 2 * s * (Math.cos(t) - 2 * Math.exp(-2 * t));
    },
    lower: 0,
    upper: 0,
  },
  exact: (t) => Math.sin(t) + Math.exp(-2 * t),
};
