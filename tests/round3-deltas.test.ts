/**
 * Round 3 of the delta rules (issue 20, adversarial variants of items 7, 8 and 15): what the
 * symbolic stage decided, against exact answers.
 *
 * - A Marcus flow of a delta on the state (rule 3 under `deltaRule = marcus`): the weight
 *   1/|du/dt| is taken just before the crossing (MODEL-LANGUAGE.md, rule 3), also where du/dt
 *   reads the level the pulse moves. `x' = v`, `v' = -k v delta(x - 1)` from x = 0, v = 2 has
 *   the flow dv/ds = -k v / |v-| over s in [0, 1]: v+ = v- exp(-k/|v-|). Re-reading |v| along
 *   the flow gave dv/ds = -k sign(v), v+ = v- - k (1 instead of 1.2131 for k = 1, with status
 *   ok). Bounds as in marcus.test.ts: the flow is integrated to a hundredth of the run's
 *   tolerance, and the jump adds to v = u + S, so 10 (atol + rtol |exact|) + 4 eps; x after the
 *   crossing is 1 + v+ (t - t*) with t* = 1/2 located to the run's tolerance, the same bound
 *   times the range.
 * - `transform` shows the flow with the factor held at its value before the event, in text,
 *   LaTeX and JSON alike, and the LaTeX of a Marcus flow shows its rate (it printed
 *   \varphi_1(S) alone) and folds an array's copies (one formula per element).
 */
import { describe, expect, it } from 'vitest';
import { compileModel, simulate, transformReport } from '../src/index.js';
import { formatLatex } from '../src/report/print.js';

const bound = (exact: number, rtol: number, atol: number) => 10 * (atol + rtol * Math.abs(exact)) + 4 * Number.EPSILON;
const TOLERANCES = [
  [1e-6, 1e-9],
  [1e-10, 1e-14],
] as const;

const stateMarcus = (k: number, rule = 'marcus') =>
  `independent t from 0 to 1\nparameter k = ${k}\noption deltaRule = ${rule}\nx' = v\nv' = -k*v*delta(x - 1)\nx(0) = 0; v(0) = 2`;

describe('a Marcus flow of a delta on the state takes 1/|du/dt| before the crossing', () => {
  it.each(TOLERANCES.flatMap(([rtol, atol]) => [1, 3, 0.25].map((k) => [k, rtol, atol] as const)))(
    "v' = -%s v delta(x - 1) from v = 2: v+ = 2 exp(-k/2) (rtol %s, atol %s)",
    (k, rtol, atol) => {
      const run = simulate(stateMarcus(k), { rtol, atol });
      expect(run.status).toBe('ok');
      expect(run.events).toHaveLength(1);
      const exact = 2 * Math.exp(-k / 2);
      expect(Math.abs(run.events[0].t - 0.5)).toBeLessThanOrEqual(bound(0.5, rtol, atol));
      expect(Math.abs(run.final.v - exact)).toBeLessThanOrEqual(bound(exact, rtol, atol));
      expect(Math.abs(run.final.x - (1 + exact * 0.5))).toBeLessThanOrEqual(2 * bound(1 + exact, rtol, atol));
    },
  );

  it('the left rule is unchanged: v+ = v- - k v-/|v-| = 2 - k', () => {
    const run = simulate(stateMarcus(1, 'left'), { rtol: 1e-10, atol: 1e-14 });
    expect(Math.abs(run.final.v - 1)).toBeLessThanOrEqual(bound(1, 1e-10, 1e-14));
  });

  it("a weight that does not read the jumping level flows as before: y+ = y- exp(1/|x'|) with x' = 2", () => {
    const run = simulate(
      "independent t from 0 to 1\noption deltaRule = marcus\nx' = 2\ny' = y*delta(x - 1)\nx(0) = 0; y(0) = 1",
      { rtol: 1e-10, atol: 1e-14 },
    );
    expect(Math.abs(run.final.y - Math.exp(0.5))).toBeLessThanOrEqual(bound(Math.exp(0.5), 1e-10, 1e-14));
  });

  it('transform shows the factor held before the event, in text, LaTeX and JSON alike', () => {
    const compiled = compileModel(stateMarcus(1));
    const r = transformReport(compiled);
    const flow =
      'S1 := flow of dS1/ds = (-(k*(u1 + S1))) times (1/abs(u1 + S1)) as before the event, over s in [0, 1]  (Marcus)';
    expect(r.events[0].actions).toEqual([flow]);
    expect(formatLatex(compiled.system, r)).toContain(
      '$S_{1} \\leftarrow S_{1}(1) \\text{ of } \\frac{dS_{1}}{ds} = \\left(\\frac{1}{\\left|u_{1} + S_{1}\\right|}\\right)\\Big|_{-} \\left(-\\left(k \\, \\left(u_{1} + S_{1}\\right)\\right)\\right) \\text{ (Marcus)}$',
    );
  });
});

describe('the LaTeX of a Marcus flow', () => {
  it('shows each rate, and an array of flows as one formula with its range', () => {
    const compiled = compileModel(
      "independent t from 0 to 2\noption deltaRule = marcus\nparameter N = 50\nfor i in 1:N\n  x[i]' = -x[i]^2*delta(t - 1)\n  x[i](0) = i\nend",
    );
    const latex = formatLatex(compiled.system, transformReport(compiled));
    expect(latex).toContain(
      '\\item \\texttt{delta(t - 1)} at $t \\in \\{1\\}$: $\\mathit{S[j]} \\leftarrow \\mathit{S[j]}(1) \\text{ of } \\frac{d\\mathit{S[j]}}{ds} = -\\left(\\mathit{u[j]} + \\mathit{S[j]}\\right)^{2} \\text{ (Marcus)}$ for $j = 1, \\dots, N$',
    );
    // the flow it prints: dx/ds = -x^2 gives x+ = x-/(1 + x-)
    const run = simulate(compiled, { rtol: 1e-10, atol: 1e-14 });
    for (const i of [1, 7, 50]) {
      const exact = i / (1 + i);
      expect(Math.abs(run.final[`x[${i}]`] - exact)).toBeLessThanOrEqual(bound(exact, 1e-10, 1e-14));
    }
  });
});

describe('two terms of one event on one level flow as one Marcus rate', () => {
  // y' = y delta(t - 1) + y delta(t - 1) is y' = 2 y delta(t - 1): dy/ds = 2y, y+ = e^2 y-
  // (two flow components writing one step variable kept the last alone: e y-).
  it.each(TOLERANCES)("y' = y delta(t - 1) + y delta(t - 1): y(1+) = e^2 (rtol %s, atol %s)", (rtol, atol) => {
    const compiled = compileModel(
      "independent t from 0 to 2\noption deltaRule = marcus\ny' = y*delta(t - 1) + y*delta(t - 1)\ny(0) = 1",
    );
    expect(transformReport(compiled).events[0].actions).toEqual([
      'S1 := flow of dS1/ds = u1 + S1 + u1 + S1 over s in [0, 1]  (Marcus)',
    ]);
    const run = simulate(compiled, { rtol, atol });
    expect(Math.abs(run.final.y - Math.exp(2))).toBeLessThanOrEqual(bound(Math.exp(2), rtol, atol));
  });

  it.each(TOLERANCES)(
    "on the state, with the held factor: v' = -v delta(x - 1) - v/2 delta(x - 1) gives v+ = 2 exp(-3/4) (rtol %s, atol %s)",
    (rtol, atol) => {
      const run = simulate(
        "independent t from 0 to 1\noption deltaRule = marcus\nx' = v\nv' = -v*delta(x - 1) - 0.5*v*delta(x - 1)\nx(0) = 0; v(0) = 2",
        { rtol, atol },
      );
      const exact = 2 * Math.exp(-0.75);
      expect(Math.abs(run.final.v - exact)).toBeLessThanOrEqual(bound(exact, rtol, atol));
    },
  );
});

describe('the note on the rule of an array of terms at one event', () => {
  it('names the first terms, the last and how many, not every copy', () => {
    const compiled = compileModel(
      "independent t from 0 to 2\noption deltaRule = marcus\nparameter N = 1000\nfor i in 1:N\n  x[i]' = -x[i]^2*delta(t - 1)\n  x[i](0) = i\nend",
    );
    expect(transformReport(compiled).warnings).toEqual([
      'deltaRule marcus at delta(t - 1): the weight of -x[1]^2*delta(t - 1), -x[2]^2*delta(t - 1), -x[3]^2*delta(t - 1), ..., -x[1000]^2*delta(t - 1) (1000 in all) depends on x[1], x[2], x[3], ..., x[1000] (1000 in all), which the same delta makes jump; the weight uses the flow of the pulse over unit time (Marcus), y+ = phi(1; y-).',
    ]);
  });
});

describe('the LaTeX form has the notes of the text and JSON forms', () => {
  it('which deltaRule applied where, one comment line per note', () => {
    const compiled = compileModel(
      "independent t from 0 to 3\noption deltaRule = marcus\nevent hit when x - 1 rises\nx' = 1\ny' = -y^2*delta(t - hit) + y*delta(x - 2)\nx(0) = 0; y(0) = 2",
    );
    const r = transformReport(compiled);
    expect(r.warnings).toHaveLength(2);
    const latex = formatLatex(compiled.system, r);
    expect(latex).toContain(['% notes', ...r.warnings.map((w) => `%  - ${w}`)].join('\n'));
    // the run it describes: dy/ds = -y^2 from 2 gives 2/3, then dy/ds = y over unit time (|x'| = 1) e*2/3
    const run = simulate(compiled, { rtol: 1e-10, atol: 1e-14 });
    const exact = (Math.E * 2) / 3;
    expect(Math.abs(run.final.y - exact)).toBeLessThanOrEqual(bound(exact, 1e-10, 1e-14));
  });
});
