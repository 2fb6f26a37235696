import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Expr, ModelAst, Statement } from '../src/expression/ast.js';
import { ModelError } from '../src/expression/errors.js';
import { tokenize } from '../src/language/lexer.js';
import { parseModel } from '../src/language/parser.js';
import { SPEC_EXAMPLES as LANGUAGE_EXAMPLES } from './helpers.js';

const MODELS_DIR = fileURLToPath(new URL('./fixtures/reference/models/', import.meta.url));

/** Every model example of MODEL-LANGUAGE.md (verbatim, shared with the other tests), and the
 * statements its tables quote. */
const SPEC_EXAMPLES: Readonly<Record<string, string>> = {
  ...LANGUAGE_EXAMPLES,
  snippets: `situation braking = h < R and Vy < 0
output y, y'
option method = dop853
option rtol = 1e-8
option deltaRule = marcus
option deltaRule = left
event kick at 1, 2.5, 4
event tick every 0.5 from 1
event tock every 0.5
event done when x falls do stop end
m*y'' + c*y' + k*y = F*delta(t - 1)
q = F*delta(x - a)
y' = y*delta(t - 1)
u1 = delta(2*t - 1) + delta(t^2 - 1) + delta(sin(pi*t)) + delta(x1 - x2)
u2 = delta'(t - 1) + delta''(t - 1) + step(t) + sign(t)
u3 = t*delta'(t-1)
u4 = sin(t) + cos(t) + tan(t) + asin(t) + acos(t) + atan(t) + atan2(t, 1) + sinh(t) + cosh(t) + tanh(t)
u5 = exp(1) + log(t) + sqrt(t) + abs(t) + min(t, 1) + max(t, 1)
u6 = if t < 1 then 0 else 1
`,
  emptyOfStatements: `# only a comment
// and another

`,
};

function parse(source: string): ModelAst {
  return parseModel(source, 'm.delta');
}

function only(source: string): Statement {
  const ast = parse(source);
  expect(ast.statements).toHaveLength(1);
  return ast.statements[0];
}

/** The right-hand side of a single equation `x = EXPR`. */
function rhs(expr: string): Expr {
  const s = only(`x = ${expr}`);
  if (s.kind !== 'equation') throw new Error(`not an equation: ${s.kind}`);
  return s.rhs;
}

/** A compact, span-free rendering of an expression tree for shape assertions. */
function show(e: Expr): string {
  switch (e.kind) {
    case 'number':
      return String(e.value);
    case 'name':
      return e.name;
    case 'derivative':
      return e.name + "'".repeat(e.order);
    case 'unary':
      return `(${e.op === 'not' ? 'not ' : e.op}${show(e.operand)})`;
    case 'binary':
      return `(${show(e.left)} ${e.op} ${show(e.right)})`;
    case 'call':
      return `${e.name}${"'".repeat(e.derivativeOrder)}[${e.args.map(show).join(', ')}]`;
    case 'if':
      return `(if ${show(e.condition)} then ${show(e.then)} else ${show(e.otherwise)})`;
  }
}

function messageOf(source: string): string {
  try {
    parse(source);
  } catch (err) {
    expect(err).toBeInstanceOf(ModelError);
    return (err as ModelError).message;
  }
  throw new Error(`expected a ModelError for ${JSON.stringify(source)}`);
}

describe('valid models', () => {
  for (const [name, source] of Object.entries(SPEC_EXAMPLES)) {
    it(`parses the spec example ${name}`, () => {
      const ast = parse(source);
      expect(ast.file).toBe('m.delta');
      expect(ast.source).toBe(source);
    });
  }

  const files = readdirSync(MODELS_DIR)
    .filter((f) => f.endsWith('.delta'))
    .sort();
  it('finds the reference models', () => {
    expect(files.length).toBeGreaterThan(10);
  });
  for (const f of files) {
    const source = readFileSync(`${MODELS_DIR}${f}`, 'utf8');
    if (f === 'reject_syntax.delta') {
      it('rejects reject_syntax.delta on line 2', () => {
        expect(() => parseModel(source, f)).toThrow(ModelError);
        expect(() => parseModel(source, f)).toThrow(/^reject_syntax\.delta:2:\d+: /);
      });
    } else {
      it(`parses the reference model ${f}`, () => {
        expect(parseModel(source, f).statements.length).toBeGreaterThan(0);
      });
    }
  }

  it('gives the heavy rope its statements in order', () => {
    const ast = parse(SPEC_EXAMPLES.heavyRope);
    expect(ast.statements.map((s) => s.kind)).toEqual([
      'model',
      'independent',
      'parameter',
      'unknown',
      'equation',
      'equation',
      'condition',
      'condition',
      'condition',
      'condition',
      'condition',
    ]);
  });

  it('parses an empty file and a file of comments into no statements', () => {
    expect(parse('').statements).toEqual([]);
    expect(parse('\n\n  \t\n').statements).toEqual([]);
    expect(parse(SPEC_EXAMPLES.emptyOfStatements).statements).toEqual([]);
  });

  it('treats e, pi and JavaScript-ish words as ordinary names', () => {
    const s = only('constructor = e + pi + __proto__ + toString + process + hasOwnProperty');
    expect(s.kind).toBe('equation');
    if (s.kind !== 'equation') return;
    expect(show(s.lhs)).toBe('constructor');
    expect(show(s.rhs)).toBe('(((((e + pi) + __proto__) + toString) + process) + hasOwnProperty)');
  });

  it('accepts CRLF and CR line ends and a byte-order mark', () => {
    const ast = parse("\uFEFFx' = -x\r\nx(0) = 1\ry = 2\r\n");
    expect(ast.statements.map((s) => s.kind)).toEqual(['equation', 'condition', 'equation']);
    expect(ast.statements[1].span.line).toBe(2);
    expect(ast.statements[2].span.line).toBe(3);
  });
});

describe('expression shapes', () => {
  it.each([
    ['-x^2', '(-(x ^ 2))'],
    ['a - b - c', '((a - b) - c)'],
    ['2^3^2', '(2 ^ (3 ^ 2))'],
    ['a*b/c', '((a * b) / c)'],
    ['a/b*c', '((a / b) * c)'],
    ['a + b*c', '(a + (b * c))'],
    ['(a + b)*c', '((a + b) * c)'],
    ['2^-1', '(2 ^ (-1))'],
    ['2^-x^2', '(2 ^ (-(x ^ 2)))'],
    ['-2^2', '(-(2 ^ 2))'],
    ['--x', '(-(-x))'],
    ['+x - -y', '((+x) - (-y))'],
    ['a^b*c', '((a ^ b) * c)'],
    ["y'^2", "(y' ^ 2)"],
    ['not a < b', '(not (a < b))'],
    ['not not a', '(not (not a))'],
    ['a < b and c > d or e == f', '(((a < b) and (c > d)) or (e == f))'],
    ['a or b and c', '(a or (b and c))'],
    ['a + 1 <= b - 1', '((a + 1) <= (b - 1))'],
    ['a != b', '(a != b)'],
    ['if a then b else c', '(if a then b else c)'],
    ['if a then b else if c then d else e', '(if a then b else (if c then d else e))'],
    ['if a then if b then c else d else e', '(if a then (if b then c else d) else e)'],
    ['if a < 1 and b then x + 1 else x - 1', '(if ((a < 1) and b) then (x + 1) else (x - 1))'],
    ['1 + if a then b else c + 1', '(1 + (if a then b else (c + 1)))'],
    ["delta'(t - 1)", "delta'[(t - 1)]"],
    ["delta''(u)", "delta''[u]"],
    ['atan2(y, x)', 'atan2[y, x]'],
    ['min(a, max(b, c))', 'min[a, max[b, c]]'],
    ['.5 + 0.5 + 1e-3 + 2.5E+4 + 1.', '((((0.5 + 0.5) + 0.001) + 25000) + 1)'],
    ["x'' + x'''", "(x'' + x''')"],
  ])('%s parses as %s', (source, shape) => {
    expect(show(rhs(source))).toBe(shape);
  });

  it('records derivative orders and delta derivative orders', () => {
    const e = rhs("y''' + delta''(t)");
    expect(e).toMatchObject({
      kind: 'binary',
      left: { kind: 'derivative', name: 'y', order: 3 },
      right: { kind: 'call', name: 'delta', derivativeOrder: 2 },
    });
  });

  it('keeps numbers exact as JavaScript reads them', () => {
    expect(rhs('0.1')).toMatchObject({ kind: 'number', value: 0.1 });
    expect(rhs('1e-3')).toMatchObject({ kind: 'number', value: 1e-3 });
    expect(rhs('2.5E+4')).toMatchObject({ kind: 'number', value: 25000 });
  });
});

describe('statements', () => {
  it('parses model and independent with and without a range', () => {
    const ast = parse('model Ball\nindependent s from 0 to 2*pi');
    expect(ast.statements[0]).toMatchObject({ kind: 'model', name: 'Ball' });
    const ind = ast.statements[1];
    expect(ind.kind).toBe('independent');
    if (ind.kind !== 'independent') return;
    expect(ind.name).toBe('s');
    expect(show(ind.from!)).toBe('0');
    expect(show(ind.to!)).toBe('(2 * pi)');
    expect(only('independent x')).toMatchObject({ kind: 'independent', name: 'x', from: null, to: null });
  });

  it('parses declarations with expressions and several names', () => {
    const s = only('parameter g = 9.81, m = 2*g, k = -1');
    expect(s.kind).toBe('parameter');
    if (s.kind !== 'parameter') return;
    expect(s.declarations.map((d) => d.name)).toEqual(['g', 'm', 'k']);
    expect(show(s.declarations[1].value)).toBe('(2 * g)');
    expect(only('unknown H = 5')).toMatchObject({ kind: 'unknown', declarations: [{ name: 'H' }] });
    expect(only('discrete n = 0, mode = 1')).toMatchObject({
      kind: 'discrete',
      declarations: [{ name: 'n' }, { name: 'mode' }],
    });
  });

  it('parses situations, outputs and options', () => {
    const s = only('situation braking = h < R and Vy < 0');
    expect(s).toMatchObject({ kind: 'situation', name: 'braking' });
    if (s.kind === 'situation') expect(show(s.condition)).toBe('((h < R) and (Vy < 0))');
    expect(only("output h, h', x''")).toMatchObject({
      kind: 'output',
      variables: [
        { name: 'h', order: 0 },
        { name: 'h', order: 1 },
        { name: 'x', order: 2 },
      ],
    });
    expect(only('option method = dop853')).toMatchObject({
      kind: 'option',
      name: 'method',
      value: { kind: 'name', name: 'dop853' },
    });
    expect(only('option step = 0.01')).toMatchObject({
      kind: 'option',
      name: 'step',
      value: { kind: 'number', value: 0.01 },
    });
    expect(only('option rtol = 1e-10')).toMatchObject({
      kind: 'option',
      name: 'rtol',
      value: { kind: 'number', value: 1e-10 },
    });
  });

  it('parses the three kinds of events', () => {
    const ast = parse(
      [
        'event bounce when h falls',
        'event wall when x - 0.5 crosses do y := -0.9*y end',
        'event kick at 1, 2 do x := x + 1; n := n + 1 end',
        "event tick every 0.5 from 1 do y' := 0; stop end",
        'event tock every 2',
        'event up when u rises do end',
      ].join('\n'),
    );
    const [bounce, wall, kick, tick, tock, up] = ast.statements;
    expect(bounce).toMatchObject({
      kind: 'event',
      name: 'bounce',
      trigger: { kind: 'when', direction: 'falls', expr: { kind: 'name', name: 'h' } },
      actions: null,
    });
    expect(wall).toMatchObject({
      kind: 'event',
      trigger: { kind: 'when', direction: 'crosses' },
      actions: [{ kind: 'assign', target: { name: 'y', order: 0 } }],
    });
    expect(kick).toMatchObject({
      trigger: { kind: 'at', times: [{ value: 1 }, { value: 2 }] },
      actions: [{ kind: 'assign' }, { kind: 'assign' }],
    });
    expect(tick).toMatchObject({
      trigger: { kind: 'every', period: { value: 0.5 }, from: { value: 1 } },
      actions: [{ kind: 'assign', target: { name: 'y', order: 1 } }, { kind: 'stop' }],
    });
    expect(tock).toMatchObject({ trigger: { kind: 'every', from: null }, actions: null });
    expect(up).toMatchObject({ actions: [] });
  });

  it("reads an event's own locate (state events only), with or without actions", () => {
    const ast = parse(
      [
        'event wall when x - 0.5 crosses locate before do y := -0.9*y end',
        'event brake when x crosses locate after',
        'event hit when x rises locate exact do stop end',
        'event plain when x falls',
      ].join('\n'),
    );
    expect(ast.statements.map((s) => (s.kind === 'event' ? s.locate : 'no event'))).toEqual([
      'before',
      'after',
      'exact',
      undefined,
    ]);
    expect(ast.statements[0]).toMatchObject({ actions: [{ kind: 'assign' }] });
    expect(messageOf('event kick at 1 locate before')).toBe(
      "m.delta:1:17: 'locate' applies to state events (when ... rises/falls/crosses), not to the at event 'kick'\n  event kick at 1 locate before\n                  ^\nA time event is always hit exactly; remove locate, or write the event with when.",
    );
    expect(messageOf('event e when x rises locate early')).toBe(
      "m.delta:1:29: expected exact, before or after after 'locate' in event 'e', found 'early'\n  event e when x rises locate early\n                              ^\nexact (the default) places the event at the crossing; before and after at the start or end of the step that crosses, as fixed-step tools do.",
    );
  });

  it('reads a do ... end block over several lines, with blank lines and comments', () => {
    const ast = parse(
      [
        'event hit when x1 - x2 rises do   # the collision',
        '  n := n + 1',
        '',
        "  x1' := x1' -",
        "         J/m1; x2' := x2' + J/m2   // Newton",
        '  stop',
        'end',
        "x1'' = 0",
      ].join('\n'),
    );
    expect(ast.statements).toHaveLength(2);
    const ev = ast.statements[0];
    expect(ev.kind).toBe('event');
    if (ev.kind !== 'event' || ev.actions === null) return;
    expect(ev.actions.map((a) => a.kind)).toEqual(['assign', 'assign', 'assign', 'stop']);
    const second = ev.actions[1];
    if (second.kind === 'assign') expect(show(second.value)).toBe("(x1' - (J / m1))");
    expect(ev.span).toMatchObject({ line: 1, column: 1 });
    expect(ev.span.end).toBe(ast.source.indexOf('end\n') + 3);
  });

  it('tells conditions from equations', () => {
    const ast = parse("y(0) = 1; y'(0) = p1; z(10) = l\nf = sin(t) + y\nsin(t) = y");
    expect(ast.statements.map((s) => s.kind)).toEqual(['condition', 'condition', 'condition', 'equation', 'equation']);
    expect(ast.statements[1]).toMatchObject({
      kind: 'condition',
      target: { name: 'y', order: 1 },
      at: { value: 0 },
      value: { name: 'p1' },
    });
    expect(ast.statements[2]).toMatchObject({ target: { name: 'z', order: 0 }, at: { value: 10 } });
  });

  it('parses the equations of the brief', () => {
    const eqs = parse(
      ["y'' = -y + 2*delta(t - 1)", "m*y'' + c*y' + k*y = F*delta(t-1)", "J = (1+e)*m1*m2/(m1+m2)*(x1' - x2')"].join(
        '\n',
      ),
    ).statements.map((s) => (s.kind === 'equation' ? `${show(s.lhs)} = ${show(s.rhs)}` : s.kind));
    expect(eqs).toEqual([
      "y'' = ((-y) + (2 * delta[(t - 1)]))",
      "(((m * y'') + (c * y')) + (k * y)) = (F * delta[(t - 1)])",
      "J = (((((1 + e) * m1) * m2) / (m1 + m2)) * (x1' - x2'))",
    ]);
  });
});

describe('lines, separators and comments', () => {
  it('continues a line that ends inside parentheses or after an operator', () => {
    const ast = parse(
      [
        'y = (a +',
        '     b) *',
        '    c',
        'parameter p = 1,',
        '          q = 2',
        'z = a and',
        '    b',
        'w = a <',
        '    b',
        'v =',
        '  1',
        'u = if a then',
        '  1 else',
        '  2',
      ].join('\n'),
    );
    expect(ast.statements.map((s) => s.kind)).toEqual([
      'equation',
      'parameter',
      'equation',
      'equation',
      'equation',
      'equation',
    ]);
    const first = ast.statements[0];
    if (first.kind === 'equation') expect(show(first.rhs)).toBe('((a + b) * c)');
    expect(ast.statements[1]).toMatchObject({ declarations: [{ name: 'p' }, { name: 'q' }] });
  });

  it('does not continue a line that ends with a complete expression', () => {
    const ast = parse('y = a\n- b = c');
    expect(ast.statements).toHaveLength(2);
    const second = ast.statements[1];
    if (second.kind === 'equation') expect(show(second.lhs)).toBe('(-b)');
  });

  it('separates statements with ; and ignores empty ones', () => {
    const ast = parse(';;a = 1;; b = 2 ;\n;c = 3;');
    expect(ast.statements.map((s) => (s.kind === 'equation' ? show(s.lhs) : s.kind))).toEqual(['a', 'b', 'c']);
  });

  it('drops # and // comments, also inside continued lines', () => {
    const ast = parse('# header\na = 1 # one\nb = (1 + // inside\n 2) // two\n// end');
    expect(ast.statements).toHaveLength(2);
    const b = ast.statements[1];
    if (b.kind === 'equation') expect(show(b.rhs)).toBe('(1 + 2)');
  });

  it('takes // for a comment but not / /', () => {
    expect(show(rhs('a / b // c'))).toBe('(a / b)');
    expect(messageOf('x = a / /b')).toMatch(/^m\.delta:1:9: expected an expression after '\/', found '\/'\n/);
  });
});

describe('spans', () => {
  const source = "# comment\nparameter k = 2\n  y'' = -k*y + delta'(t - 1)\ny(0) = 1; y'(0) = 0";
  const ast = parse(source);
  const text = (s: { start: number; end: number }): string => source.slice(s.start, s.end);

  it('gives statements the line and column of their first token and cover them', () => {
    const [param, eq, c1, c2] = ast.statements;
    expect(param.span).toMatchObject({ line: 2, column: 1 });
    expect(text(param.span)).toBe('parameter k = 2');
    expect(eq.span).toMatchObject({ line: 3, column: 3 });
    expect(text(eq.span)).toBe("y'' = -k*y + delta'(t - 1)");
    expect(c1.span).toMatchObject({ line: 4, column: 1 });
    expect(text(c1.span)).toBe('y(0) = 1');
    expect(c2.span).toMatchObject({ line: 4, column: 11 });
    expect(text(c2.span)).toBe("y'(0) = 0");
    if (c2.kind === 'condition') {
      expect(text(c2.target.span)).toBe("y'");
      expect(c2.target.span).toMatchObject({ line: 4, column: 11 });
    }
  });

  it('gives expression nodes spans from their first to their last token', () => {
    const eq = ast.statements[1];
    if (eq.kind !== 'equation') throw new Error('not an equation');
    expect(text(eq.lhs.span)).toBe("y''");
    const sum = eq.rhs;
    expect(text(sum.span)).toBe("-k*y + delta'(t - 1)");
    if (sum.kind !== 'binary') throw new Error('not binary');
    expect(text(sum.left.span)).toBe('-k*y');
    expect(sum.left.span).toMatchObject({ line: 3, column: 9 });
    const call = sum.right;
    if (call.kind !== 'call') throw new Error('not a call');
    expect(text(call.span)).toBe("delta'(t - 1)");
    expect(text(call.nameSpan)).toBe("delta'");
    expect(call.nameSpan).toMatchObject({ line: 3, column: 16 });
    expect(text(call.args[0].span)).toBe('t - 1');
  });

  it('includes the parentheses in a parenthesised expression', () => {
    const s = 'x = 2*(a + b)';
    const eq = parseModel(s, 'm.delta').statements[0];
    if (eq.kind !== 'equation' || eq.rhs.kind !== 'binary') throw new Error('shape');
    expect(s.slice(eq.rhs.right.span.start, eq.rhs.right.span.end)).toBe('(a + b)');
    expect(eq.rhs.right.span.column).toBe(7);
  });

  it('gives declarations and events name spans', () => {
    const s = 'parameter a = 1, bb = 2\nevent hit at 1 do x := 2 end';
    const a = parseModel(s, 'm.delta');
    const p = a.statements[0];
    if (p.kind !== 'parameter') throw new Error('shape');
    expect(p.declarations[1].nameSpan).toMatchObject({ line: 1, column: 18 });
    expect(s.slice(p.declarations[1].span.start, p.declarations[1].span.end)).toBe('bb = 2');
    const ev = a.statements[1];
    if (ev.kind !== 'event') throw new Error('shape');
    expect(ev.nameSpan).toMatchObject({ line: 2, column: 7 });
    expect(s.slice(ev.trigger.span.start, ev.trigger.span.end)).toBe('at 1');
    expect(s.slice(ev.span.start, ev.span.end)).toBe('event hit at 1 do x := 2 end');
  });

  it('counts columns in UTF-16 code units after non-ASCII comments', () => {
    const a = parse('# é and 😀\ny = 1 # 😀\nz = 2');
    expect(a.statements[1].span).toMatchObject({ line: 3, column: 1 });
  });
});

describe('lexer', () => {
  it('folds primes into the name token and keeps keywords apart', () => {
    const tokens = tokenize("y'' = delta'(t) if", 'm.delta');
    expect(tokens.map((t) => [t.kind, t.text, t.primes])).toEqual([
      ['name', 'y', 2],
      ['operator', '=', 0],
      ['name', 'delta', 1],
      ['operator', '(', 0],
      ['name', 't', 0],
      ['operator', ')', 0],
      ['keyword', 'if', 0],
      ['eof', '', 0],
    ]);
  });

  it('emits one newline token per statement break and none for continuations', () => {
    const kinds = tokenize('a\n\n\nb +\nc\n(d\n)', 'm.delta').map((t) => t.kind);
    expect(kinds).toEqual([
      'name',
      'newline',
      'name',
      'operator',
      'name',
      'newline',
      'operator',
      'name',
      'operator',
      'eof',
    ]);
  });
});

/**
 * Bad inputs with their whole message. Each is a distinct mistake; the message must say
 * where (file:line:col and a caret), what is wrong and what to do.
 */
const BAD_INPUTS: ReadonlyArray<readonly [string, string, string]> = [
  [
    'operand missing between operators',
    "y' = -y + * 2",
    "m.delta:1:11: expected an expression after '+', found '*'\n  y' = -y + * 2\n            ^\nWrite a number, a name or a parenthesised expression here.",
  ],
  [
    'unclosed parenthesis at end of file',
    'y = sin(t + (1\n',
    "m.delta:1:13: this '(' is never closed\n  y = sin(t + (1\n              ^\nAdd the matching ')'.",
  ],
  [
    'stray closing parenthesis',
    'y = (a + b))',
    "m.delta:1:12: unmatched ')'\n  y = (a + b))\n             ^\nRemove it, or add the '(' it should close.",
  ],
  [
    'exponent without digits',
    'y = 1e',
    "m.delta:1:5: malformed number '1e': the exponent has no digits\n  y = 1e\n      ^\nWrite the exponent with digits, as in 1e-3; for a product write 1*e.",
  ],
  [
    'two decimal points',
    'y = 1.2.3 + x',
    "m.delta:1:5: malformed number '1.2.3'\n  y = 1.2.3 + x\n      ^\nA number has at most one decimal point and an optional exponent, as in 1.25 or 2.5e-3.",
  ],
  [
    'stray dollar',
    'y = $x',
    "m.delta:1:5: unexpected character '$'\n  y = $x\n      ^\nRemove it: a model uses names, numbers, + - * / ^ ( ) , ; = := < <= > >= == != and # comments.",
  ],
  [
    'non-ASCII letter',
    'parameter μ = 1',
    "m.delta:1:11: unexpected character 'μ' (U+03BC)\n  parameter μ = 1\n            ^\nNames use the ASCII letters a-z and A-Z, digits and _; spell the letter out (alpha, mu, ...).",
  ],
  [
    'braces',
    'event e when x rises { y := 1 }',
    "m.delta:1:22: unexpected character '{'\n  event e when x rises { y := 1 }\n                       ^\nUse ( ) for grouping; the actions of an event go between do and end.",
  ],
  [
    'reserved word as a declared name',
    'parameter from = 1',
    "m.delta:1:11: 'from' is a reserved word and cannot be used as a name\n  parameter from = 1\n            ^\nChoose another name, such as from_ or from1.",
  ],
  [
    'reserved word in an expression',
    'y = 2*event',
    "m.delta:1:7: 'event' is a reserved word and cannot be used as a name\n  y = 2*event\n        ^\nChoose another name, such as event_ or event1.",
  ],
  [
    'reserved word on the left of an equation',
    'end = 1',
    "m.delta:1:1: 'end' without a matching 'do' or 'for'\n  end = 1\n  ^\nRemove it, or open the block with do after the event's trigger or with for i in A:B.",
  ],
  [
    'reserved word starting an equation',
    'at = 1',
    "m.delta:1:1: 'at' is a reserved word and cannot be used as a name\n  at = 1\n  ^\nChoose another name, such as at_ or at1.",
  ],
  [
    'unknown function',
    "y' = foo(t)\nz = y",
    "m.delta:1:6: unknown function 'foo'\n  y' = foo(t)\n       ^\nThe functions are sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, exp, log, sqrt, abs, sign, min, max, step, delta; for a product write foo*(…).",
  ],
  [
    'misspelt function',
    "y' = sqr(t)",
    "m.delta:1:6: unknown function 'sqr'\n  y' = sqr(t)\n       ^\nDid you mean sqrt? The functions are sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, exp, log, sqrt, abs, sign, min, max, step, delta; for a product write sqr*(…).",
  ],
  [
    'function from another language',
    'y = ln(t)',
    "m.delta:1:5: unknown function 'ln'\n  y = ln(t)\n      ^\nDid you mean log? The functions are sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, exp, log, sqrt, abs, sign, min, max, step, delta; for a product write ln*(…).",
  ],
  [
    'too many arguments',
    'y = sin(t, 2)',
    'm.delta:1:5: sin takes 1 argument, got 2\n  y = sin(t, 2)\n      ^\nCall it as sin(x).',
  ],
  [
    'too few arguments',
    'y = atan2(t)',
    'm.delta:1:5: atan2 takes 2 arguments, got 1\n  y = atan2(t)\n      ^\nCall it as atan2(y, x).',
  ],
  [
    'no arguments',
    "y = delta'()",
    "m.delta:1:5: delta' takes 1 argument, got 0\n  y = delta'()\n      ^\nCall it as delta'(u).",
  ],
  [
    'prime on a function other than delta',
    "y = sin'(t)",
    "m.delta:1:5: 'sin'' is not a function: only delta takes primes\n  y = sin'(t)\n      ^\nWrite the derivative of sin out; primes on a call are only for delta'(u), delta''(u), ....",
  ],
  [
    'a variable called like a function',
    "x' = y(t + 1)\ny' = -x",
    "m.delta:1:6: 'y' is not a function\n  x' = y(t + 1)\n       ^\nWrite y*(…) for a product; a condition such as y(0) = 1 must start its own statement.",
  ],
  [
    'a function without its argument',
    'y = sqrt + 1',
    "m.delta:1:5: 'sqrt' is a function and needs its argument in parentheses\n  y = sqrt + 1\n      ^\nCall it as sqrt(x).",
  ],
  [
    'unterminated condition',
    'y(',
    "m.delta:1:3: expected an expression after '('\n  y(\n    ^\nWrite a number, a name or a parenthesised expression here.",
  ],
  [
    'condition without =',
    'y(0) 1',
    "m.delta:1:6: expected '=' after 'y(…)', found '1'\n  y(0) 1\n       ^\nA condition reads y(0) = VALUE; for a product write y*(…).",
  ],
  [
    'condition with := ',
    "y'(0) := 1",
    "m.delta:1:7: expected '=' after 'y'(…)', found ':='\n  y'(0) := 1\n        ^\nA condition reads y'(0) = VALUE; for a product write y'*(…).",
  ],
  [
    'event without trigger',
    "event bounce\nh'' = -g",
    "m.delta:1:13: expected 'when', 'at' or 'every' after the event name 'bounce'\n  event bounce\n              ^\nWrite event hit when x1 - x2 rises, event kick at 1, 2 or event tick every 0.5.",
  ],
  [
    'event without a name',
    'event when x rises',
    "m.delta:1:7: 'when' is a reserved word and cannot be used as a name\n  event when x rises\n        ^\nChoose another name, such as when_ or when1.",
  ],
  [
    'do block without end',
    'event e when x rises do y := 1',
    "m.delta:1:22: the 'do' block of event 'e' has no 'end'\n  event e when x rises do y := 1\n                       ^\nClose the actions with end, as in do y := -0.9*y end.",
  ],
  [
    'unknown direction',
    'event e when x sideways',
    "m.delta:1:16: expected 'rises', 'falls' or 'crosses' after the condition of event 'e', found 'sideways'\n  event e when x sideways\n                 ^\nSay how the expression crosses zero: rises (upward), falls (downward) or crosses (either way).",
  ],
  [
    'missing direction',
    'event e when x - 1',
    "m.delta:1:19: expected 'rises', 'falls' or 'crosses' after the condition of event 'e'\n  event e when x - 1\n                    ^\nSay how the expression crosses zero: rises (upward), falls (downward) or crosses (either way).",
  ],
  [
    'action with = instead of :=',
    'event e when x rises do y = 1 end',
    "m.delta:1:27: expected ':=' after 'y', found '='\n  event e when x rises do y = 1 end\n                            ^\nAn action assigns with :=, as in y := -0.9*y.",
  ],
  [
    'action without a value',
    'event e when x rises do y := end',
    "m.delta:1:30: expected an expression after ':=', found 'end'\n  event e when x rises do y := end\n                               ^\nWrite a number, a name or a parenthesised expression here.",
  ],
  [
    'actions after the trigger without do',
    'event e at 1 y := 2',
    "m.delta:1:14: missing operator between '1' and 'y'\n  event e at 1 y := 2\n               ^\nWrite 1*y for a product, or separate the times with commas.",
  ],
  [
    'block left open before the next statement',
    "event e when x rises do\n  y := 1\nx' = y\n",
    "m.delta:3:4: expected ':=' after 'x'', found '='\n  x' = y\n     ^\nAn action assigns with :=, as in y := -0.9*y. If this line is not an action, the block opened by 'do' on line 1 is missing its end.",
  ],
  [
    'a statement inside a do block',
    'event e when x rises do\nparameter k = 1\nend',
    "m.delta:2:1: 'parameter' cannot stand inside the do ... end block of event 'e'\n  parameter k = 1\n  ^\nClose the block opened on line 1 with end first.",
  ],
  [
    'chained comparison',
    'situation s = a < b < c',
    'm.delta:1:21: comparisons cannot be chained\n  situation s = a < b < c\n                      ^\nCombine two comparisons with and, as in a < b and b < c.',
  ],
  [
    'empty parameter list',
    'parameter\nx = 1',
    "m.delta:1:10: expected a name after 'parameter'\n  parameter\n           ^\nGive each parameter a value, as in parameter g = 9.81, m = 1.",
  ],
  [
    'declaration without a value',
    'unknown H',
    "m.delta:1:10: expected '=' and a value after 'H'\n  unknown H\n           ^\nGive each unknown a starting guess, as in unknown H = 5.",
  ],
  [
    'trailing comma in a declaration',
    'discrete n = 0,',
    "m.delta:1:16: expected a name after ','\n  discrete n = 0,\n                 ^\nGive each discrete variable an initial value, as in discrete n = 0.",
  ],
  [
    'derivative declared as a parameter',
    "parameter y' = 1",
    "m.delta:1:11: expected a plain name, found 'y''\n  parameter y' = 1\n            ^\nPrimes mark derivatives; write the name without them, as in y.",
  ],
  [
    'function name declared',
    'parameter exp = 1',
    "m.delta:1:11: 'exp' is a built-in function and cannot be used as a name\n  parameter exp = 1\n            ^\nChoose another name, such as exp_ or exp1.",
  ],
  [
    'model twice',
    'model A\nmodel B',
    'm.delta:2:1: the model is named twice\n  model B\n  ^\nKeep one model NAME line, at the top of the file (the first is on line 1).',
  ],
  [
    'model not first',
    "x' = 1\nmodel A",
    "m.delta:2:1: 'model' must be the first statement\n  model A\n  ^\nMove model NAME to the top of the file; only comments and blank lines may come before it.",
  ],
  [
    'range without its end',
    'independent t from 0',
    "m.delta:1:21: expected 'to' and the end of the range\n  independent t from 0\n                      ^\nWrite the whole range, as in independent t from 0 to 10, or leave the range out.",
  ],
  [
    'range without its start',
    'independent t to 5',
    "m.delta:1:15: expected 'from' and the start of the range before 'to'\n  independent t to 5\n                ^\nWrite the whole range, as in independent t from 0 to 10, or leave the range out.",
  ],
  [
    'NUL byte',
    'y = 1\n\u0000\u0001rest',
    'm.delta:2:1: this file is not a text model: it contains a NUL byte\n  ??rest\n  ^\nGive deltastep a .delta text file saved as UTF-8.',
  ],
  [
    'invalid UTF-8',
    'y = 1 \uFFFD',
    'm.delta:1:7: this file is not a text model: it contains bytes that are not valid UTF-8 (U+FFFD)\n  y = 1 \uFFFD\n        ^\nGive deltastep a .delta text file saved as UTF-8.',
  ],
  [
    ':= outside an event',
    'x := 1',
    "m.delta:1:3: ':=' is only used in event actions\n  x := 1\n    ^\nWrite = for an equation, or put the assignment inside an event's do ... end block.",
  ],
  [
    '== for an equation',
    "y' == 1",
    "m.delta:1:4: an equation is written with '=', not '=='\n  y' == 1\n     ^\n'==' compares two values inside a condition; write y' = -y for an equation.",
  ],
  [
    'expression without =',
    "x' + 1",
    "m.delta:1:7: expected '=': this line is not a statement\n  x' + 1\n        ^\nWrite an equation such as y' = -y, or start the line with a keyword such as parameter or event.",
  ],
  [
    'trailing operator at end of file',
    'y = x +',
    "m.delta:1:8: expected an expression after '+'\n  y = x +\n         ^\nWrite a number, a name or a parenthesised expression here.",
  ],
  [
    'trailing operator before a comment and blank lines',
    'y = x * # why\n\n',
    "m.delta:1:8: expected an expression after '*'\n  y = x * # why\n         ^\nWrite a number, a name or a parenthesised expression here.",
  ],
  [
    'number glued to a name',
    "y' = 2x",
    "m.delta:1:7: missing operator between '2' and 'x'\n  y' = 2x\n        ^\nWrite 2*x for a product.",
  ],
  [
    'two names side by side',
    'y = a b',
    "m.delta:1:7: missing operator between 'a' and 'b'\n  y = a b\n        ^\nWrite a*b for a product.",
  ],
  [
    'number before a parenthesis',
    'y = 2 (a + b)',
    "m.delta:1:7: missing operator between '2' and '('\n  y = 2 (a + b)\n        ^\nWrite 2*(…) for a product.",
  ],
  [
    'two equals signs',
    'a = b = c',
    "m.delta:1:7: a statement has only one '='\n  a = b = c\n        ^\nSplit it into two statements, on two lines or separated by ;.",
  ],
  [
    'operator at a line end swallowing the next statement',
    'y = x +\n\nz = 1',
    "m.delta:3:3: a statement has only one '='\n  z = 1\n    ^\nSplit it into two statements, on two lines or separated by ;. (Line 1 ends with '+', so line 3 continues it.)",
  ],
  [
    'if without else',
    'y = if a then b',
    "m.delta:1:16: expected 'else' after the then-branch of 'if'\n  y = if a then b\n                 ^\nWrite if C then A else B; both branches need a value.",
  ],
  [
    'if without then',
    'y = if a b else c',
    "m.delta:1:10: missing operator between 'a' and 'b'\n  y = if a b else c\n           ^\nWrite a*b for a product.",
  ],
  [
    'stop outside an event',
    'stop',
    "m.delta:1:1: 'stop' is an event action, not a statement\n  stop\n  ^\nPut it inside an event block, as in event done when x falls do stop end.",
  ],
  [
    'empty output',
    'output',
    "m.delta:1:7: expected a name after 'output'\n  output\n        ^\nList what to record, as in output h, h', n.",
  ],
  [
    'output list without commas',
    'output y z',
    "m.delta:1:10: expected ',' or the end of the statement, found 'z'\n  output y z\n           ^\nSeparate the names with commas, as in output h, h', n.",
  ],
  [
    'stray prime',
    "y = x + '",
    "m.delta:1:9: unexpected prime (')\n  y = x + '\n          ^\nA prime must follow a name directly, as in y' or delta'(u); write the derivative of an expression out.",
  ],
  [
    'prime on a keyword',
    "y = if' a",
    "m.delta:1:7: a prime cannot follow the reserved word 'if'\n  y = if' a\n        ^\nPrimes mark derivatives of variables (y') and of delta (delta'(u)); 'if' is a reserved word, not a variable.",
  ],
  [
    'lonely decimal point',
    'y = . + 1',
    "m.delta:1:5: unexpected character '.'\n  y = . + 1\n      ^\nA number needs a digit after the point, as in .5 or 0.5.",
  ],
  [
    'situation without =',
    'situation s h < 1',
    "m.delta:1:13: expected '=' and a condition after 's', found 'h'\n  situation s h < 1\n              ^\nName a condition, as in situation braking = h < R and v < 0.",
  ],
  [
    'a string as option value',
    'option method = "dop853"',
    'm.delta:1:17: unexpected character \'"\'\n  option method = "dop853"\n                  ^\nThe language has no strings; write a bare word, as in option method = dop853.',
  ],
  [
    'missing parenthesis inside a call on a later line',
    'y = sin(t\nz = 1',
    "m.delta:2:1: expected ')' to close the '(' at 1:8, found 'z'\n  z = 1\n  ^\nCall it as sin(x). (Line 1 ends inside parentheses, so line 2 continues it.)",
  ],
  [
    'non-breaking space pasted from a document',
    'y = 1\u00a0+ 2',
    'm.delta:1:6: unexpected character U+00A0\n  y = 1\u00a0+ 2\n       ^\nThis is a non-breaking space; replace it with an ordinary space.',
  ],
  [
    'typographic minus and apostrophe',
    'y\u2019 = \u2212y',
    "m.delta:1:2: unexpected character '\u2019' (U+2019)\n  y\u2019 = \u2212y\n   ^\nThis is a typographic apostrophe; write the ASCII ' for a derivative, as in y'.",
  ],
  [
    'tab before the error keeps the caret aligned',
    '\ty = )',
    "m.delta:1:6: unmatched ')'\n   y = )\n       ^\nRemove it, or add the '(' it should close.",
  ],
];

describe('bad input: the whole message', () => {
  it('has at least 30 distinct cases', () => {
    expect(BAD_INPUTS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(BAD_INPUTS.map(([, s]) => s)).size).toBe(BAD_INPUTS.length);
  });

  it.each(BAD_INPUTS)('%s', (_name, source, message) => {
    expect(messageOf(source)).toBe(message);
  });

  it('carries structured fields', () => {
    try {
      parseModel('x = 1\ny = 2 +', 'dir/ball.delta');
      throw new Error('no error');
    } catch (err) {
      expect(err).toBeInstanceOf(ModelError);
      const e = err as ModelError;
      expect(e.file).toBe('dir/ball.delta');
      expect(e.line).toBe(2);
      expect(e.column).toBe(8);
      expect(e.what).toBe("expected an expression after '+'");
      expect(e.hint).toBe('Write a number, a name or a parenthesised expression here.');
      expect(e.sourceLine).toBe('y = 2 +');
    }
  });

  it('refuses nesting deep enough to exhaust the stack, with a ModelError', () => {
    const deep = `y = ${'('.repeat(5000)}1${')'.repeat(5000)}`;
    expect(messageOf(deep)).toMatch(/^m\.delta:1:\d+: this expression is nested too deeply\n/);
    expect(messageOf(`y = ${'-'.repeat(5000)}1`)).toMatch(/nested too deeply/);
    expect(messageOf(`y = ${'not '.repeat(5000)}1`)).toMatch(/nested too deeply/);
    expect(messageOf(`y = ${'2^'.repeat(5000)}1`)).toMatch(/nested too deeply/);
    expect(messageOf(`y = ${'if a then 1 else '.repeat(5000)}1`)).toMatch(/nested too deeply/);
    // Moderate nesting is fine.
    expect(show(rhs(`${'('.repeat(50)}1${')'.repeat(50)}`))).toBe('1');
  });

  it('refuses a tree deeper than later stages can walk, and accepts long sums below that', () => {
    const sum = (n: number): string => `y = ${Array.from({ length: n }, (_, k) => `x${k}`).join(' + ')}`;
    const long = parse(sum(900));
    expect(JSON.parse(JSON.stringify(long.statements))).toHaveLength(1);
    expect(messageOf(sum(2000))).toMatch(/^m\.delta:1:\d+: this expression is too long or nested too deeply\n/);
  });
});
