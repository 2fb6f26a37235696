/**
 * The eleventh round at the command line's and the library's layers: what a sweep or a Monte
 * Carlo batch gives against the runs of simulate (value by value), and the grids of
 * FROM:TO:COUNT at the edge of double precision; each find against its exact answer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { compileModel, simulate, Simulator } from '../src/index.js';
import { parseReport, runChunk, sweepValue } from '../src/batch/index.js';
import { parseOutputTimes } from '../src/cli/output-times.js';
import { tempModel } from './api-helpers.js';
import { ensureCliBuilt, runCli } from './helpers.js';

beforeAll(() => ensureCliBuilt());

describe('FROM:TO:COUNT whose width is finite but a multiple of it is not', () => {
  // 0:1.5e308:5 is 0, 3.75e307, 7.5e307, 1.125e308, 1.5e308, all finite; (TO - FROM)·k
  // overflowed for k = 2, 3, so a sweep ran k = Infinity ("2 of 5 runs failed ... k = Infinity")
  // and --output-times said "must be an array of finite numbers". The width divided by 4 is
  // exact (a power of two), so each value is the double nearest 1.5e308·k/4.
  const exact = [0, 3.75e307, 7.5e307, 1.5e308 * 0.75, 1.5e308];

  it('every value is the finite one, in a sweep and in --output-times', () => {
    expect([0, 1, 2, 3, 4].map((k) => sweepValue(0, 1.5e308, 5, k))).toEqual(exact);
    expect(parseOutputTimes('0:1.5e308:5')).toEqual(exact);
    // the decimal grids keep their values bit for bit (the width times k first)
    expect([0, 1, 2].map((k) => sweepValue(0.1, 0.3, 3, k))).toEqual([0.1, 0.2, 0.3]);
    expect(parseOutputTimes('-1e308:1e308:5')).toEqual([-1e308, -5e307, 0, 5e307, 1e308]);
  });

  it('sweep --vary k=0:1.5e308:5: five runs ok, each reporting its k', () => {
    const file = tempModel('wide.delta', "independent t from 0 to 1\nparameter k = 1\nx' = 0\nx(0) = 0\n");
    const r = runCli(['sweep', file, '--vary', 'k=0:1.5e308:5', '--report', 'k', '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { rows: number[][]; status: string[] };
    expect(doc.status).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(doc.rows.map((row) => row[1])).toEqual(exact);
  });
});

describe("a batch's runs on method auto where an event makes a linear block stiff", () => {
  // x' = -on K (x - y), y' = -0.1 y + 0.05 x, on toggled every 1 (from t = 0): auto starts on
  // the analytic path, whose scan turns stiff when on = 1, and hands the run to the stepper
  // (round6-analytic). simulate() did; a sweep's run failed ("auto takes it where nothing was
  // streamed yet"), its sink being one that keeps nothing. The crossing of x = 0.3 at
  // K = 1e6 is 10.3414631933391802 (mpmath, round 7's helper).
  const text =
    'independent t from 0 to 30\nparameter K = 1e6\ndiscrete on = 0, n = 0, last = 0\n' +
    'event sw every 1 do on := 1 - on end\nevent e1 when x - 0.3 falls do n := n + 1; last := t end\n' +
    "x' = -on*K*(x - y)\ny' = -0.1*y + 0.05*x\nx(0) = 1; y(0) = 0.5\n";
  const options = { rtol: 1e-10, atol: 1e-14 };

  it('each run is the run simulate() makes: ok, one crossing, at its exact time', () => {
    const model = compileModel(text);
    const report = parseReport('n, last');
    const chunk = runChunk(new Simulator(model), report, options, ['K'], Float64Array.of(1e6, 1e8));
    expect(chunk.status).toEqual(['ok', 'ok']);
    for (const [k, K] of [1e6, 1e8].entries()) {
      const alone = simulate(model, { ...options, set: { K } });
      expect(alone.status).toBe('ok');
      expect(chunk.values[2 * k]).toBe(1);
      expect(chunk.values[2 * k + 1]).toBe(alone.final.last);
    }
    // (at rtol 1e-10 on a crossing at rate ~0.03: 1e-9 in time)
    expect(Math.abs(chunk.values[1] - 10.3414631933391802)).toBeLessThan(1e-9);
  });

  it('the command line: sweep exits 0 with both runs ok', () => {
    const file = tempModel('stiff.delta', text);
    const r = runCli([
      'sweep',
      file,
      '--vary',
      'K=1e6:1e8:2',
      '--report',
      'n, last',
      '--rtol',
      '1e-10',
      '--atol',
      '1e-14',
      '--format',
      'json',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { rows: number[][]; status: string[] };
    expect(doc.status).toEqual(['ok', 'ok']);
    expect(Math.abs(doc.rows[0][2] - 10.3414631933391802)).toBeLessThan(1e-9);
  });
});

describe('method analytic in a batch on a model that has no closed form', () => {
  // simulate --method analytic refuses such a model, a usage error (exit 2, CLI.md); sweep and
  // montecarlo ran every run, each failed with that message, exit 3 ("the numerics failed")
  const text = "independent t from 0 to 2\nparameter k = 1\nx'' = -k*x - 0.1*x'^3\nx(0) = 1; x'(0) = 0\n";
  const ball =
    "independent t from 0 to 3\nparameter e = 0.8\nevent b when h falls\nh'' = -9.81 - (1 + e)*h'*delta(t - b)\nh(0) = 1; h'(0) = 0\n";

  it('sweep and montecarlo: a usage error before any run, as simulate gives', () => {
    const file = tempModel('cubic.delta', text);
    const simulateRun = runCli(['simulate', file, '--method', 'analytic']);
    expect(simulateRun.status).toBe(2);
    for (const args of [
      ['sweep', file, '--vary', 'k=1:2:3'],
      ['montecarlo', file, '--sample', 'k~uniform(1,2)', '--samples', '3', '--report', 'x'],
    ]) {
      const r = runCli([...args, '--method', 'analytic', '--format', 'json']);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(simulateRun.stderr);
    }
  });

  it('--zeno continue with method analytic likewise; a model that qualifies still runs', () => {
    const file = tempModel('ball.delta', ball);
    const refused = runCli(['sweep', file, '--vary', 'e=0.5:0.6:2', '--method', 'analytic', '--zeno', 'continue']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/method analytic cannot run .*zeno = continue holds contacts/);
    // (bounces accumulate at sqrt(2/9.81) (1 + e)/(1 - e), past t = 3 for e >= 0.8): the runs
    // are those of simulate, bit for bit
    const r = runCli(['sweep', file, '--vary', 'e=0.8:0.85:2', '--method', 'analytic', '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { rows: number[][] };
    const alone = simulate(ball, { method: 'analytic', set: { e: 0.85 } });
    expect(doc.rows[1][1]).toBe(alone.final.h);
  });
});

describe('--max-steps reached on a slow problem is no stiffness', () => {
  // x'' = -0.01 x (period 63) under dopri5 takes accurate steps of about 1.5 to 13; with
  // --max-steps 20 the run said "the problem looks stiff (... 1.35) ... run it with --method
  // rodas": the one-step ratio h·‖Δf‖/‖Δy‖ exceeded 1, far inside dopri5's stability region
  // (3.25), while the method's own test (Hairer's) said not stiff. Free fall over [0, 1000]
  // (x'' = -1, exact for dopri5: steps of 70) said the same at --max-steps 5.
  const slow = "independent t from 0 to 1000\nx'' = -0.01*x\nx(0) = 1; x'(0) = 0";
  const fall = "independent t from 0 to 1000\nx'' = -1 + 0*x\nx(0) = 0; x'(0) = 0";

  it.each([
    [slow, 'dopri5', 20],
    [slow, 'dop853', 10],
    [fall, 'dopri5', 5],
  ] as const)('%#: the limit is named, with the steps the range needs', (text, method, maxSteps) => {
    const r = simulate(text, { method, maxSteps, record: false });
    expect(r.status).toBe('failed');
    expect(r.message).not.toMatch(/stiff/);
    expect(r.message).toMatch(
      /^more than \d+ steps by t = [\d.]+: at this step size the rest of the range \([\d.]+\) needs about \d+ more steps; raise maxSteps/,
    );
  });

  it("a stiff problem still says so: y' = -1e6 (y - cos t) under dopri5, 100 steps", () => {
    const r = simulate("independent t from 0 to 1\ny' = -1e6*(y - cos(t))\ny(0) = 0", {
      method: 'dopri5',
      maxSteps: 100,
      record: false,
    });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/the problem looks stiff .*run it with --method rodas/);
  });
});
