/**
 * `transform` of an array model folds copies inside an event too (src/report/fold.ts,
 * print.ts): the delta terms alike in the equations of consecutive elements are one line, the
 * actions alike one loop, and the events of the copies of a sum over j one loop whose range is
 * the model's (`1:N`, not `1:50`), in the text and in LaTeX; JSON still lists every term and
 * action. Only lines that are the same up to their indices fold. tests/printed-forms.test.ts
 * writes folded forms out again and checks them against the jumps of runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileModel, formatLatex, formatText, transformReport } from '../src/index.js';
import { ROOT } from './helpers.js';

const lif = readFileSync(join(ROOT, 'examples', 'lif_network.delta'), 'utf8');

/** A network of three neurons whose spikes arrive d later at every neuron (a sum over j). */
const SMALL_NETWORK = `model SmallNet
independent t from 0 to 20
parameter N = 3, tau = 10, w = 0.1, d = 1
parameter I[1:N] = [1.2 + 0.1*i for i in 1:N]
for i in 1:N
  event spike[i] when v[i] - 1 rises do v[i] := 0 end
  v[i]' = (-v[i] + I[i])/tau + sum(j in 1:N, w*delta(t - spike[j] - d))
  v[i](0) = 0
end
`;

/** One kick for six elements, the third with another weight. */
const UNEVEN_KICK = `model Kicks
independent t from 0 to 3
parameter N = 6, a = 0.5
event kick at 1
for i in 1:2
  v[i]' = -v[i] + a*delta(t - kick)
end
v[3]' = -v[3] + 2*a*delta(t - kick)
for i in 4:N
  v[i]' = -v[i] + a*delta(t - kick)
end
for i in 1:N
  v[i](0) = 0
end
`;

const textOf = (src: string, set?: Record<string, number>) =>
  formatText(transformReport(compileModel(src, 'm.delta', set ? { set } : undefined)));

describe('transform folds the copies inside an event of an array model', () => {
  it('the LIF network: one delayed-delta event per neuron, once, with its 50 terms and 50 jumps as loops', () => {
    const text = textOf(lif);
    expect(text.split('\n').length).toBeLessThan(40);
    expect(text).toContain(
      [
        'events (processed in this order at one instant)',
        '  for i in 1:N:',
        '    spike[i]  [state] when u[i] + S[i] - vth rises',
        '        from: event spike[i] when v[i] - vth rises do v[i] := vr; spikes := spikes + 1 end',
        '        u[i] := vr - S[i]',
        '        spikes := spikes + 1',
        '  for i in 1:N:',
        '    delta(t - spike[i] - d)  [time] d after each spike[i] (d = 2)',
        '        from: w*delta(t - spike[i] - d) in the equation of v[j], for j in 1:N',
        '        for j in 1:N: S[j] := S[j] + w',
        '',
      ].join('\n'),
    );
    // how each part is integrated: the model's range too
    expect(text).toContain('\n  for i in 1:N: u[i]   closed form: linear,');
    expect(text).toContain('\n  for i in 1:N: event spike[i]: times are roots of');
    expect(text).not.toMatch(/in 1:50\b|S\[2\] :=|delta term:/);
    // the same printout for another N, but for N, the values of I and the padding of names
    const shape = (t: string) =>
      t
        .replace(/N = \d+/, '')
        .replace(/I\[1:\d+\] = \[.*\]/, '')
        .replace(/ +/g, ' ');
    expect(shape(textOf(lif, { N: 20 }))).toBe(shape(text));
  });

  it('the LIF network in JSON: every term and every action still listed; the template folds them', () => {
    const r = transformReport(compileModel(lif));
    const delayed = r.events.filter((e) => e.delay);
    expect(delayed).toHaveLength(50);
    for (const [k, e] of delayed.entries()) {
      expect(e.delay).toEqual({ after: `spike[${k + 1}]`, by: 'd', value: 2 });
      expect(e.deltaSources).toEqual(Array(50).fill(`w*delta(t - spike[${k + 1}] - d)`));
      expect(e.actions).toEqual(Array.from({ length: 50 }, (_, j) => `S[${j + 1}] := S[${j + 1}] + w`));
    }
    expect(r.template!.events[1]).toEqual({
      for: 'i',
      from: 1,
      to: 50,
      range: '1:N',
      body: ['delta(t - spike[i] - d) [time] d after each spike[i] (d = 2): for j in 1:N: S[j] := S[j] + w'],
    });
  });

  it('LaTeX of a small network with a delayed delta: the events once, the jumps as one formula over j', () => {
    const m = compileModel(SMALL_NETWORK);
    const latex = formatLatex(m.system, transformReport(m));
    expect(latex).toContain(
      [
        '  \\item[] for $i = 1, \\dots, N$:',
        '    \\item \\texttt{delta(t - spike[i] - d)} at $t = t_{\\mathit{spike[i]}} + d$ for each occurrence of \\texttt{spike[i]}: $\\mathit{S[j]} \\leftarrow \\mathit{S[j]} + w$ for $j = 1, \\dots, N$',
        '',
      ].join('\n'),
    );
    expect(latex).toContain('% step variables: for i in 1:N: S[i] (the jumps of v[i])\n');
    // (a sum folds inside one formula; the actions of an event are no sum)
    expect(latex).not.toMatch(/\\sum|S\[2\]/);
    // the text says the same
    expect(formatText(transformReport(m))).toContain(
      '        from: w*delta(t - spike[i] - d) in the equation of v[j], for j in 1:N\n        for j in 1:N: S[j] := S[j] + w\n',
    );
  });

  it('an element whose term differs is shown on its own: only lines alike up to their indices fold, three or more', () => {
    const text = textOf(UNEVEN_KICK);
    expect(text).toContain(
      [
        '  kick  [time] at 1',
        '      from: event kick at 1',
        '      delta term: a*delta(t - kick)',
        '      delta term: a*delta(t - kick)',
        '      delta term: 2*a*delta(t - kick)',
        '      delta term: a*delta(t - kick) in the equation of v[j], for j in 4:6',
        '      S[1] := S[1] + a',
        '      S[2] := S[2] + a',
        '      S[3] := S[3] + 2*a',
        '      for j in 4:6: S[j] := S[j] + a',
        '',
      ].join('\n'),
    );
    const m = compileModel(UNEVEN_KICK);
    const r = transformReport(m);
    expect(formatLatex(m.system, r)).toContain(
      '  \\item \\texttt{kick} at $t \\in \\{1\\}$: $\\mathit{S[1]} \\leftarrow \\mathit{S[1]} + a,\\ \\mathit{S[2]} \\leftarrow \\mathit{S[2]} + a,\\ \\mathit{S[3]} \\leftarrow \\mathit{S[3]} + 2 \\, a$, $\\mathit{S[j]} \\leftarrow \\mathit{S[j]} + a$ for $j = 4, \\dots, 6$\n',
    );
    expect(r.events[0].actions).toEqual([1, 2, 3, 4, 5, 6].map((k) => `S[${k}] := S[${k}] + ${k === 3 ? '2*a' : 'a'}`));
    expect(r.template!.events).toEqual([
      'kick [time] at 1: S[1] := S[1] + a; S[2] := S[2] + a; S[3] := S[3] + 2*a; (for j in 4:6: S[j] := S[j] + a)',
    ]);
  });

  it('the same model written without arrays prints every term and action as before', () => {
    const lines = [1, 2, 3, 4, 5, 6].map(
      (k) => `v${k}' = -v${k} + ${k === 3 ? '2*a' : 'a'}*delta(t - kick)\nv${k}(0) = 0`,
    );
    const text = textOf(`parameter a = 0.5\nevent kick at 1\n${lines.join('\n')}\n`);
    expect(text).not.toMatch(/for \w+ in|in the equation of/);
    expect(text.match(/ {6}delta term: a\*delta\(t - kick\)\n/g)).toHaveLength(5);
    expect(text).toContain('      S5 := S5 + a\n      S6 := S6 + a\n');
  });
});
