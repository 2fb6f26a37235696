import { RADAU5 } from './tableaus/radau5.js';

/*
 * The collocation polynomial of a RADAU5 step (radau5.f: the CONT array and CONTR5), written in
 * s = (x − x₁)/h ∈ [−1, 0] from the stage increments Z_i = Y_i − y₀:
 *   u(s) = y₁ + s (d₁ + (s − c₂ + 1)(d₂ + (s − c₁ + 1) d₃)),
 * Newton's form through s = 0 (y₁ = y₀ + Z₃), c₂ − 1 (Y₂), c₁ − 1 (Y₁) and −1 (y₀). It is the
 * dense output of the step and, extrapolated, the starting value of the next step's Newton
 * iteration.
 */
const C1 = RADAU5.c[0],
  C2 = RADAU5.c[1];
const C1M1 = C1 - 1,
  C2M1 = C2 - 1,
  C1MC2 = C1 - C2;
const [[TI11, TI12, TI13], [TI21, TI22, TI23], [TI31, TI32, TI33]] = RADAU5.TI;

/** d₁, d₂, d₃ of the polynomial from the stage increments z1..z3 (length n) */
export function collocationCoefficients(
  z1: Float64Array,
  z2: Float64Array,
  z3: Float64Array,
  d1: Float64Array,
  d2: Float64Array,
  d3: Float64Array,
  n: number,
): void {
  for (let i = 0; i < n; i++) {
    newtonCoefficients(z1[i], z2[i], z3[i]);
    d1[i] = D[0];
    d2[i] = D[1];
    d3[i] = D[2];
  }
}

/** d₁, d₂, d₃ of one component from its stage increments (divided differences), into D */
const D = new Float64Array(3);
function newtonCoefficients(a: number, b: number, c: number): void {
  const c1 = (b - c) / C2M1;
  const ak = (a - b) / C1MC2;
  const c2 = (ak - c1) / C1M1;
  D[0] = c1;
  D[1] = c2;
  D[2] = c2 - (ak - a / C1) / C2;
}

/**
 * Starting values of the Newton iteration for a step of c3q times the last one (the last
 * step's polynomial extrapolated to the new stages, radau5.f): Z into z1..z3, W = T⁻¹Z into
 * w1..w3.
 */
export function extrapolateStages(
  d1: Float64Array,
  d2: Float64Array,
  d3: Float64Array,
  c3q: number,
  z: readonly [Float64Array, Float64Array, Float64Array],
  w: readonly [Float64Array, Float64Array, Float64Array],
  n: number,
): void {
  const c1q = C1 * c3q,
    c2q = C2 * c3q;
  const [z1, z2, z3] = z,
    [w1, w2, w3] = w;
  for (let i = 0; i < n; i++) {
    const a1 = d1[i],
      a2 = d2[i],
      a3 = d3[i];
    const x1 = c1q * (a1 + (c1q - C2M1) * (a2 + (c1q - C1M1) * a3));
    const x2 = c2q * (a1 + (c2q - C2M1) * (a2 + (c2q - C1M1) * a3));
    const x3 = c3q * (a1 + (c3q - C2M1) * (a2 + (c3q - C1M1) * a3));
    z1[i] = x1;
    z2[i] = x2;
    z3[i] = x3;
    w1[i] = TI11 * x1 + TI12 * x2 + TI13 * x3;
    w2[i] = TI21 * x1 + TI22 * x2 + TI23 * x3;
    w3[i] = TI31 * x1 + TI32 * x2 + TI33 * x3;
  }
}

/**
 * The same polynomial in Newton's form from the step's start, c = s + 1 ∈ [0, 1], through
 * c = 0 (y₀), c₁ (Y₁), c₂ (Y₂) and 1 (y₁): u = y₀ + c (e₁ + (c − c₁)(e₂ + (c − c₂) e₃)). Near
 * the start its rounding is that of y₀ and of the motion there, where the form from y₁ carries
 * y₁'s own (an ulp of x₁ = -0.125 swamped a flight of 5e-27 from x₀ = 0, 2e-13 long, that
 * x := 0; v := 1e-13 starts: the crossing at its end was placed at the start of the step, a
 * false "persisting contact"). Radau5.valueAt reads it in the first half of a step that starts
 * a binade or more below its end.
 */
export function startCoefficients(
  z1: Float64Array,
  z2: Float64Array,
  z3: Float64Array,
  e1: Float64Array,
  e2: Float64Array,
  e3: Float64Array,
  n: number,
): void {
  for (let i = 0; i < n; i++) {
    const f01 = z1[i] / C1,
      f12 = (z2[i] - z1[i]) / (C2 - C1),
      f23 = (z3[i] - z2[i]) / (1 - C2);
    const f012 = (f12 - f01) / C2,
      f123 = (f23 - f12) / (1 - C1);
    e1[i] = f01;
    e2[i] = f012;
    e3[i] = f123 - f012;
  }
}

/** u at c = 1 + s for component i, from the start y0 = y₀ (startCoefficients) */
export function collocationFromStart(
  y0: Float64Array,
  e1: Float64Array,
  e2: Float64Array,
  e3: Float64Array,
  c: number,
  i: number,
): number {
  return y0[i] + c * (e1[i] + (c - C1) * (e2[i] + (c - C2) * e3[i]));
}

/** u(s) at s = th for component i, y1 = y₁ */
export function collocationAt(
  y1: Float64Array,
  d1: Float64Array,
  d2: Float64Array,
  d3: Float64Array,
  th: number,
  i: number,
): number {
  return y1[i] + th * (d1[i] + (th - C2M1) * (d2[i] + (th - C1M1) * d3[i]));
}

/**
 * The scaled RMS of h·(u'(x₀) − f(x₀, y₀)) for the polynomial of the stages z1..z3 (not yet
 * accepted, so from the stages rather than d₁..d₃): the slope of the dense output at the
 * start of the step against the right-hand side there (see rodas.ts, denseMismatch).
 */
export function slopeMismatch(
  z1: Float64Array,
  z2: Float64Array,
  z3: Float64Array,
  f0: Float64Array,
  scal: Float64Array,
  h: number,
  n: number,
): number {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    newtonCoefficients(z1[i], z2[i], z3[i]);
    const d1 = D[0],
      d2 = D[1],
      d3 = D[2];
    // du/ds at s = −1: u − y₁ = s·r(s), r = d1 + (s − C2M1)·q, q = d2 + (s − C1M1)·d3
    const q = d2 + (-1 - C1M1) * d3;
    const r = d1 + (-1 - C2M1) * q;
    const slope = r - (q + (-1 - C2M1) * d3);
    const m = (slope - h * f0[i]) / scal[i];
    sum += m * m;
  }
  return Math.sqrt(sum / n);
}

/**
 * The polynomial of the stages z1..z3 (not yet accepted) at s ∈ [−1, 0] inside the step: its
 * value into `mid` (from y0, the step's start) and h·u'(t) there, du/ds, into `slope`.
 * radau5.ts checks the dense output by its defect there (see innerError).
 */
export function collocationInside(
  s: number,
  z1: Float64Array,
  z2: Float64Array,
  z3: Float64Array,
  y0: Float64Array,
  mid: Float64Array,
  slope: Float64Array,
  n: number,
): void {
  for (let i = 0; i < n; i++) {
    newtonCoefficients(z1[i], z2[i], z3[i]);
    const d1 = D[0],
      d2 = D[1],
      d3 = D[2];
    const q = d2 + (s - C1M1) * d3;
    const r = d1 + (s - C2M1) * q;
    // u(s) = y₁ + s·r(s) with y₁ = y₀ + Z₃; du/ds = r + s·r'(s), r' = q + (s − C2M1)·d3
    mid[i] = y0[i] + z3[i] + s * r;
    slope[i] = r + s * (q + (s - C2M1) * d3);
  }
}
