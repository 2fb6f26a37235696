/**
 * Generated code and closed forms that grew without bound (the sixth round): each model
 * below ran out of memory, or hit "Invalid string length", before its fix. Each now runs,
 * to its exact answer, in the time a test allows.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, formatText, simulate, transformReport } from '../src/index.js';

/** an event on x1*x2*...*xn - 2 with every x_i = 1 + t: it rises through zero at 2^(1/n) - 1 */
function product(n: number): string {
  const xs = Array.from({ length: n }, (_, i) => `x${i + 1}`);
  return [
    'independent t from 0 to 1',
    'discrete m = 0',
    `event e when ${xs.join('*')} - 2 rises do m := m + 1 end`,
    ...xs.map((x) => `${x}' = 1\n${x}(0) = 1`),
  ].join('\n');
}

describe('an event function that is a product of many moving factors', () => {
  // The rounding bound of a product named each factor's bound three times (3^15 copies for 16
  // factors: "Invalid string length"), and the closed form's Taylor coefficients of a product
  // of n moving factors grow like n^k with the order k (n = 10: a minute and 2 GB; 16: out of
  // memory). Now both grow linearly; a closed form past the budget is integrated numerically.
  it.each([4, 10, 16])('%i factors: one event at 2^(1/n) - 1', (n) => {
    const r = simulate(product(n));
    expect(r.status).toBe('ok');
    expect(r.final.m).toBe(1);
    // (on the stepper at rtol 1e-6: the location is to its rounding, far below that)
    expect(Math.abs(r.events[0].t - (2 ** (1 / n) - 1))).toBeLessThan(1e-12);
  });

  it('4 factors keep their closed form; 16 say why they do not', () => {
    expect(simulate(product(4)).stats.method).toBe('analytic');
    const r = simulate(product(16));
    expect(r.stats.method).not.toBe('analytic');
    const text = formatText(transformReport(compileModel(product(16))));
    expect(text).toMatch(/event e: times are located numerically \(its function .* has coefficients that grow past/);
    expect(() => simulate(product(16), { method: 'analytic' })).toThrow(/coefficients that grow past 20000 terms/);
  });
});

describe('a power of a power of a power', () => {
  // ((x^2)^2)^...: the bound of each power named its base's bound twice (2^8 copies for eight)
  it('x^256 written as eight squarings: one event where (1 + t)^256 = 2', () => {
    const r = simulate(
      "independent t from 0 to 1\ndiscrete m = 0\nevent e when ((((((((x^2)^2)^2)^2)^2)^2)^2)^2) - 2 rises do m := m + 1 end\nx' = 1\nx(0) = 1",
      { method: 'dopri5', rtol: 1e-10 },
    );
    expect(r.status).toBe('ok');
    expect(r.final.m).toBe(1);
    // (the function's slope there is 256 * 2 / (1 + t): its rounding over that in time)
    expect(Math.abs(r.events[0].t - (2 ** (1 / 256) - 1))).toBeLessThan(1e-14);
  });
});
