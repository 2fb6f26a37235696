/**
 * What a batch reports from each run: expressions of its final values (`n`, `x4'`,
 * `x4' - x3'`), parsed with the model language's own parser and evaluated per run.
 */
import type { Expr } from '../expression/ast.js';
import { ModelError } from '../expression/errors.js';
import { BUILTIN_IMPLEMENTATIONS, evaluate, MissingValue } from '../expression/evaluate.js';
import { constantValue, mapExpr, walk } from '../expression/expr.js';
import { parseExpression, splitExpressionList } from '../language/parser.js';
import { missingNameMessage } from '../language/element-names.js';
import type { CompiledModel } from '../codegen/compile.js';
import type { SimulationResult } from '../driver/index.js';

export interface ReportExpr {
  label: string;
  expr: Expr;
}

/** Thrown for a --report, --vary or --sample text that cannot be used; `message` says why. */
export class BatchInputError extends Error {}

/** Splits "n, x4'" at top-level commas and parses each expression. */
export function parseReport(text: string): ReportExpr[] {
  return splitExpressionList(text)
    .filter((p) => p.length > 0)
    .map((label) => {
      try {
        return { label, expr: elementsByName(parseExpression(label, '--report'), label) };
      } catch (err) {
        if (err instanceof ModelError) throw new BatchInputError(`--report '${label}': ${err.what}`);
        throw err;
      }
    });
}

/**
 * `x[1]` and `x[2]'` as the names of the elements they are (`x[1]`, `x[2]'`), the names the
 * run's final values and parameters have; an index must be a whole number.
 */
function elementsByName(e: Expr, label: string): Expr {
  return mapExpr(e, (node) => {
    if ((node.kind !== 'name' && node.kind !== 'derivative') || !node.indices) return undefined;
    const at = node.indices.map((i) => constantValue(i));
    if (!at.every((v): v is number => v !== null && Number.isInteger(v))) {
      throw new BatchInputError(
        `--report '${label}': the index of ${node.name}[...] must be a whole number, as in ${node.name}[1]`,
      );
    }
    const name = `${node.name}[${at.join(',')}]`;
    return node.kind === 'name'
      ? { kind: 'name', name, span: node.span }
      : { kind: 'derivative', name, order: node.order, span: node.span };
  });
}

/**
 * A run's final value of `key`, or undefined when the run has none: its own keys only, since
 * the record may be a plain object and a model may call a parameter `constructor` or
 * `toString` (an inherited member must never stand in for a value).
 */
export function finalValue(final: Readonly<Record<string, number>>, key: string): number | undefined {
  return Object.hasOwn(final, key) ? final[key] : undefined;
}

/** The value of each report expression on a run's final values (and the parameters). */
export function reportValues(
  report: ReportExpr[],
  run: SimulationResult,
  parameters: ReadonlyMap<string, number>,
): number[] {
  const lookup = (k: string) => finalValue(run.final, k) ?? parameters.get(k);
  return report.map((r) => {
    try {
      return evaluate(r.expr, lookup);
    } catch (err) {
      if (err instanceof MissingValue) {
        throw new BatchInputError(
          `--report '${r.label}': '${err.key}' is not a final value of the run; they are ${Object.keys(run.final).join(', ')}`,
        );
      }
      throw err;
    }
  });
}

/**
 * Checks once, before any run, that every name in the report is something a run's final
 * values (the independent variable and the outputs) or the parameters can give, and every
 * function a built-in one: a batch of thousands of runs should not start to fail on its
 * first row, and a worker thread cannot tell a typo from a bug.
 */
export function checkReport(report: readonly ReportExpr[], model: CompiledModel): void {
  const finals = [model.system.independent, ...model.outputNames];
  const known = new Set([...finals, ...model.paramNames, 'pi']);
  for (const r of report) {
    walk(r.expr, (node) => {
      const key =
        node.kind === 'name' ? node.name : node.kind === 'derivative' ? node.name + "'".repeat(node.order) : null;
      if (key !== null && !known.has(key)) {
        throw new BatchInputError(
          `--report '${r.label}': ${missingNameMessage(key, [...finals, ...model.paramNames], `a final value of ${model.system.model}`, 'the final values and parameters are')}`,
        );
      }
      if (node.kind === 'call' && (node.derivativeOrder > 0 || !Object.hasOwn(BUILTIN_IMPLEMENTATIONS, node.name))) {
        throw new BatchInputError(
          `--report '${r.label}': '${node.name}' is not a built-in function; they are ${Object.keys(BUILTIN_IMPLEMENTATIONS).join(', ')}`,
        );
      }
    });
  }
}
