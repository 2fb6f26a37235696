/**
 * What the commands transform and shoot do, and the model loading that simulate shares (in
 * simulate.ts), loaded only when one of them runs (so that `deltastep --help` does not load
 * the pipeline): read and compile the model, run it, write the result.
 */
import { compileModel, parse } from '../codegen/stages.js';
import type { SimulateOptions } from '../driver/index.js';
import type { Expr } from '../expression/ast.js';
import { references, walk } from '../expression/expr.js';
import type { ShootOptions, ShootResult } from '../shooting/newton.js';
import { needsExactRoots } from '../transform/algebra.js';
import type { CompiledModel } from '../codegen/compile.js';
import { checkSchedules, formatLatex, formatText, segmentsComments, transformReport } from '../report/print.js';
import {
  CliError,
  EXIT,
  checkRunOptions,
  formatFlag,
  initRuns,
  parseAssignments,
  simulateOptions,
  type SharedFlags,
} from './options.js';
import { emit, simulationText, table, toJson } from './output.js';
import { plotLook, type PlotLookFlags } from './trajectory-data.js';
import { modelText } from './model-text.js';
import { escapeText } from '../expression/terminal-text.js';

/**
 * Loads and compiles a model; model errors propagate as ModelError (exit 1). The computer
 * algebra for exact roots (nerdamer-prime, 0.15 s to load) is loaded only when a delta
 * argument needs it (transform/algebra.ts).
 */
export async function loadModel(file: string, set?: SimulateOptions['set']): Promise<CompiledModel> {
  const source = modelText(file);
  // (--set of a structural parameter, N of `for i in 1:N`, writes the arrays out for that N)
  const ast = parse(source, file, { set });
  const independent = ast.statements.find((s) => s.kind === 'independent')?.name ?? 't';
  const deltaArguments: Expr[] = [];
  const visit = (e: Expr) =>
    walk(e, (n) => {
      if (n.kind === 'call' && n.name === 'delta') deltaArguments.push(n.args[0]);
    });
  // (deltas stand in equations only, named variables' definitions included)
  for (const s of ast.statements)
    if (s.kind === 'equation') {
      visit(s.lhs);
      visit(s.rhs);
    }
  if (needsExactRoots(deltaArguments, independent, (e) => references(e))) await import('../transform/exact-roots.js');
  // (from the tree parsed above: parsing the text again was a tenth of a 1024-sphere row's run)
  const model = compileModel(ast);
  // Double roots of delta arguments and similar schedule problems are model errors: find them
  // now (as transformReport would, without writing the report).
  checkSchedules(model);
  return model;
}

function shootText(r: ShootResult): string {
  const names = Object.keys(r.unknowns);
  const lines = [
    `shoot: ${r.converged ? 'converged' : 'did not converge'} (${r.status}) after ${Math.max(0, r.iterations.length - 1)} Newton iteration(s), ${r.residualEvaluations} shots${r.message ? `\n${r.message}` : ''}`,
    '',
  ];
  lines.push(
    table(
      ['k', ...names, 'max |residual|'],
      r.iterations.map((it) => [it.k, ...names.map((n) => it.unknowns[n]), it.residualNorm]),
    ),
  );
  lines.push(
    '',
    table(
      ['unknown', 'value'],
      names.map((n) => [n, r.unknowns[n]]),
    ),
  );
  lines.push(
    '',
    table(
      ['boundary condition', 'residual'],
      Object.entries(r.residuals).map(([k, v]) => [k, v]),
    ),
  );
  if (r.solution) lines.push('', simulationText(r.solution));
  return lines.join('\n') + '\n';
}

export async function runShoot(
  file: string,
  flags: SharedFlags & PlotLookFlags & { jacobian?: string; lower?: string; upper?: string },
): Promise<number> {
  const format = formatFlag(flags, ['text', 'json'], 'text');
  const options = simulateOptions(flags);
  const inits = initRuns(flags);
  if (inits.length > 1)
    throw new CliError(
      `--init was given ${inits.length} times; shoot solves for one set of initial values: run shoot once per --init`,
    );
  if (inits[0]) options.init = inits[0];
  // (Newton's method and its linear algebra load only for shoot)
  const { checkShootable, checkShootConditions, checkShootOptions, shoot } = await import('../shooting/newton.js');
  const shootOptions: ShootOptions = { ...options, jacobian: flags.jacobian as ShootOptions['jacobian'] };
  if (shootOptions.jacobian === undefined) delete shootOptions.jacobian;
  if (flags.lower !== undefined) shootOptions.lower = parseAssignments('--lower', flags.lower);
  if (flags.upper !== undefined) shootOptions.upper = parseAssignments('--upper', flags.upper);
  checkShootOptions(shootOptions, 'flags');
  const model = await loadModel(file, options.set);
  checkShootable(model);
  checkRunOptions(model, options);
  checkShootConditions(model, options, 'flags');
  const result = shoot(model, shootOptions);
  emit(format === 'json' ? toJson(result) : shootText(result), flags.out);
  // (the shooting's own first: how well the conditions fix the unknowns; then the solution's run)
  for (const w of [...result.warnings, ...(result.solution?.warnings ?? [])])
    process.stderr.write(`${escapeText(file)}: warning: ${w}\n`);
  if (flags.plot && result.solution)
    await (
      await import('./trajectory-plot.js')
    ).plotRuns([result.solution], flags.plot, undefined, plotLook(flags, file));
  if (!result.converged) {
    process.stderr.write(`${escapeText(file)}: shooting did not converge: ${result.message ?? result.status}\n`);
    return EXIT.numerics;
  }
  // (the solution's own end, as simulate's: a failure 3, an accumulation after the conditions 4)
  const end = result.solution?.status;
  if (end === 'failed' || end === 'zeno')
    process.stderr.write(`${escapeText(file)}: the solution's run: ${result.solution!.message}\n`);
  return end === 'failed' ? EXIT.numerics : end === 'zeno' ? EXIT.zeno : EXIT.ok;
}

export async function runTransform(file: string, flags: { format?: string; out?: string }): Promise<number> {
  const format = formatFlag(flags, ['text', 'latex', 'json', 'js'], 'text');
  const model = await loadModel(file);
  const report = transformReport(model);
  const text =
    format === 'json'
      ? toJson(report)
      : format === 'latex'
        ? formatLatex(model.system, report)
        : format === 'js'
          ? `// ${report.model}: generated by deltastep (slots: y = [${model.stateNames.join(', ')}], d = [${model.discreteNames.join(', ')}], p = [${model.paramNames.join(', ')}])\n${segmentsComments(report).join('\n')}\n${model.source}\n`
          : formatText(report);
  emit(text, flags.out);
  return EXIT.ok;
}
