/**
 * Plots for a paper: the picture is as wide as what it draws (vega, rendered headless, used to
 * guess 0.8 em a character and leave the right of a long-titled plot blank), each panel has
 * its own legend, axes are named after what they draw, and whole numbers in sweeps and Monte
 * Carlo histograms are points and bars of their own, never slopes or lumps.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderHistogram, renderTrajectoryPlot, renderXYPlot } from '../src/cli/plot.js';
import { textWidth } from '../src/cli/plot-text-width.js';
import { unitsOf } from '../src/cli/plot-units.js';
import { tempModel } from './api-helpers.js';
import { ensureCliBuilt, runCli } from './helpers.js';

const svgWidth = (svg: string) => Number(/<svg[^>]*\swidth="(\d+(?:\.\d+)?)"/.exec(svg)?.[1]);
const count = (svg: string, re: RegExp) => [...svg.matchAll(re)].length;

describe('plots for a paper', () => {
  it("measures text with Helvetica's widths", () => {
    // H e l l o: 722 + 556 + 222 + 222 + 556 = 2278 thousandths of an em, 4% to spare
    expect(textWidth({ fontSize: 10 }, 'Hello')).toBe(Math.ceil(22.78 * 1.04));
    // bold is wider; a limit cuts the text as vega does
    expect(textWidth({ fontSize: 10, fontWeight: 'bold' }, 'Hello')).toBeGreaterThan(
      textWidth({ fontSize: 10 }, 'Hello'),
    );
    expect(textWidth({ fontSize: 10, limit: 20 }, 'Hello')).toBe(20);
  });

  it('a long subtitle widens the picture by its own width, not by 0.8 em a character', async () => {
    const subtitle = 'stopped at t = 4.0637128 (zeno): events of bounce accumulate at t = 4.063712768871588 (Zeno)';
    const svg = await renderXYPlot({
      title: 'Ball',
      subtitle,
      xLabel: 'e',
      series: [
        {
          name: 'h',
          points: [
            [0, 0.5],
            [1, 1.5],
          ],
        },
      ],
      look: { width: 300, height: 200 },
    });
    const text = textWidth({ fontSize: 12 }, subtitle);
    // the subtitle is wider than the plot, so it sets the width: itself and the padding
    expect(svgWidth(svg)).toBeGreaterThanOrEqual(text);
    expect(svgWidth(svg)).toBeLessThan(text + 60);
    // (vega's own estimate: 0.8 * 12 px * 92 characters = 883 px)
    expect(svgWidth(svg)).toBeLessThan(0.8 * 12 * subtitle.length);
  });

  it('a sweep draws a whole-number series as points, a continuous one as a line', async () => {
    const series: { name: string; points: [number, number][] }[] = [
      {
        name: 'n',
        points: [
          [0.2, 25],
          [0.3, 6],
          [0.4, 6],
          [1, 3],
        ],
      },
      {
        name: "x4'",
        points: [
          [0.2, 0.26],
          [0.3, 0.28],
          [0.4, 0.33],
          [1, 1],
        ],
      },
    ];
    const svg = await renderXYPlot({ title: 'Spheres', xLabel: 'e', series });
    // one line (x4'), with its 4 points; n's 4 points on their own
    expect(count(svg, /<g class="mark-line/g)).toBe(1);
    expect(count(svg, /<path[^>]*aria-label="[^"]*series: n(?:;|")/g)).toBe(4);
    // (asked for lines, both are lines)
    const lines = await renderXYPlot({ title: 'Spheres', xLabel: 'e', series, mark: 'line' });
    expect(count(lines, /<g class="mark-line/g)).toBe(2);
  });

  it('a Monte Carlo histogram of whole numbers has a bar for each, centred on it', async () => {
    const svg = await renderHistogram({ title: 'n', xLabel: 'n', values: [3, 6, 6, 6, 9, 10] });
    // 3..10: eight bars (empty ones of height 0), 6 counted three times
    const bars = [...svg.matchAll(/aria-label="n: ([\d.-]+); frequency: (\d+); x1: ([\d.-]+)"/g)].map((m) => [
      Number(m[1]),
      Number(m[3]),
      Number(m[2]),
    ]);
    expect(bars).toHaveLength(8);
    expect(bars.find((b) => b[0] === 5.5)).toEqual([5.5, 6.5, 3]);
  });

  it('each panel has its own legend, and a series keeps its colour', async () => {
    const rows = [0, 1, 2, 3].map((t) => [t, 1000 * t, t / 1000, t > 1 ? 1 : 0]);
    const svg = await renderTrajectoryPlot({
      title: 'Panels',
      independent: 't',
      columns: ['t', 'big', 'small', 'n'],
      rows,
      series: ['big', 'small', 'n'],
      events: [{ t: 1.5 }],
    });
    expect(count(svg, /role-legend"/g)).toBe(3);
    // y axes named after what they draw
    for (const name of ['>big<', '>small<', '>n<']) expect(svg).toContain(name);
    expect(svg).not.toContain('>value<');
  });

  it("reads units from the model's `# units:` comments", () => {
    const units = unitsOf("model M\n# units: t s, h m, h' m/s\n#Units: x[2] kg m^2 , bad\nh' = 1");
    expect([...units]).toEqual([
      ['t', 's'],
      ['h', 'm'],
      ["h'", 'm/s'],
      ['x[2]', 'kg m^2'],
    ]);
  });

  it('names the axes with the units the model states', async () => {
    ensureCliBuilt();
    const file = tempModel(
      'fall.delta',
      "# units: t s, h m, h' m/s, v0 m/s\nmodel Fall\nindependent t from 0 to 1\nparameter v0 = 1\nh'' = -1\nh(0) = 1; h'(0) = v0",
    );
    const r = runCli(['simulate', file, '--plot', `${file}.svg`, '--format', 'csv']);
    expect(r.status, r.stderr).toBe(0);
    const svg = readFileSync(`${file}.svg`, 'utf8');
    // h and h' differ in unit: each its own; the time axis its unit
    expect(svg).toContain(">h (m), h' (m/s)<");
    expect(svg).toContain('>t (s)<');
    // a sweep's parameter axis and its reported value
    const sweep = runCli([
      'sweep',
      file,
      '--vary',
      'v0=0:1:3',
      '--report',
      'h',
      '--quiet',
      '--plot',
      `${file}.sweep.svg`,
    ]);
    expect(sweep.status, sweep.stderr).toBe(0);
    const swept = readFileSync(`${file}.sweep.svg`, 'utf8');
    expect(swept).toContain('>v0 (m/s)<');
    expect(swept).toContain('>h (m)<');
  });
});
