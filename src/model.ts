/**
 * The pipeline, stage by stage: text -> ModelAst -> AnalysedModel -> FirstOrderSystem ->
 * CompiledModel. Each stage is pure and its result printable; these helpers run them in order.
 */
import { readFileSync } from 'node:fs';
import { analyse, type AnalysedModel } from './symbolic/analyse.js';
import type { ModelAst } from './symbolic/ast.js';
import { ModelError } from './symbolic/errors.js';
import { parseModel } from './symbolic/parser.js';
import { compile, type CompiledModel } from './transform/compile.js';
import type { FirstOrderSystem } from './transform/system.js';
import { transform } from './transform/transform.js';

export function parse(source: string, file = '<model>'): ModelAst {
  return parseModel(source, file);
}

export function analyseModel(source: string, file = '<model>'): AnalysedModel {
  return analyse(parseModel(source, file));
}

export function transformModel(source: string, file = '<model>'): FirstOrderSystem {
  return transform(analyseModel(source, file));
}

export function compileModel(source: string, file = '<model>'): CompiledModel {
  return compile(transformModel(source, file));
}

/**
 * Reads a model file as text. A missing file, a directory, or bytes that are not UTF-8 text
 * are model errors at 1:1 with a message that says so (never an exception from fs).
 */
export function readModelFile(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const what = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'this is a directory, not a model file' : code === 'EACCES' ? 'permission denied' : `cannot read the file (${code ?? 'unknown error'})`;
    throw new ModelError(path, '', null, what, 'Give the path of a .delta model file.');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ModelError(path, '', null, 'the file is not UTF-8 text', 'A model is a text file; check that this is the right file.');
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text;
}
