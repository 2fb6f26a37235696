/**
 * Event functions with a kink or a flat part at zero (issue 20, item 6): max, min, if, step
 * and sqrt of them are ordinary in models. The event fires at the first instant its function
 * reaches zero from the side its direction names, found by bracketing the sign to the
 * resolution of t, whatever the interpolant suggests; a function that sits at zero afterwards
 * does not fire again; one that only touches zero and turns back (abs(h) at h = 0) does not
 * cross. With h' = -1 from h = 1 (and x' = 1 from 0) every one of them reaches zero at t = 1.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const METHODS: [string, object][] = [
  ['auto', {}],
  ['dopri5', { rtol: 1e-10, atol: 1e-12 }],
  ['dop853', {}],
  ['rodas', {}],
  ['radau5', { rtol: 1e-10, atol: 1e-12 }],
  ['rk4', {}],
];

const model = (condition: string) => `independent t from 0 to 3
discrete n = 0
event e when ${condition} do n := n + 1 end
h' = -1
x' = 1
h(0) = 1; x(0) = 0
`;

describe('a function that reaches zero and stays there fires once, where it reaches it', () => {
  const conditions = [
    'max(h, 0) falls',
    'max(h, 0) crosses',
    'sqrt(max(h, 0)) falls',
    'max(h, 0)^2 falls',
    'min(x - 1, 0) rises',
    'min(x - 1, 0) crosses',
    'if x < 1 then x - 1 else 0 rises',
    'if x < 1 then x - 1 else 0 crosses',
    'step(-h) - 1 rises',
  ];
  for (const condition of conditions)
    for (const [method, tol] of METHODS)
      it(`${condition}, ${method}`, () => {
        const run = simulate(model(condition), { method: method as never, ...tol });
        expect(run.status).toBe('ok');
        expect(run.final.n).toBe(1);
        // h = 1 - t is integrated to a few ulps (dop853's twelve stages round to six): the
        // first double where h <= 0 is within them
        expect(Math.abs(run.events[0].t - 1)).toBeLessThanOrEqual(16 * Number.EPSILON);
      });
});

describe('a function that touches zero and turns back does not cross', () => {
  for (const [method, tol] of METHODS)
    it(`abs(h) falls, ${method}: no event, at any tolerance`, () => {
      const run = simulate(model('abs(h) falls'), { method: method as never, ...tol });
      expect(run.status).toBe('ok');
      expect(run.final.n).toBe(0);
    });
});
