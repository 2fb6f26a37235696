import { describe, it, expect } from 'vitest';
import { DOPRI5, type ButcherTableau } from '../../src/integrators/tableaus/dopri5.js';
import { DOP853 } from '../../src/integrators/tableaus/dop853.js';

/**
 * Order conditions by Butcher's rooted trees (Hairer–Nørsett–Wanner I, Sect. II.2).
 * A tree is the list of its subtrees at the root; the leaf is []. For weights w over the
 * stages, w has order p iff Σ_i w_i Φ_i(τ) = 1/γ(τ) for every tree with |τ| ≤ p, where
 * Φ_i(τ) = Π_children (Σ_j a_ij Φ_j(child)) and γ(τ) = |τ| Π γ(child). A continuous
 * extension w(θ) has order p iff Σ_i w_i(θ) Φ_i(τ) = θ^|τ|/γ(τ).
 */
type Tree = readonly Tree[];

const canon = (t: Tree): string => '(' + t.map(canon).sort().join('') + ')';
const size = (t: Tree): number => 1 + t.reduce((s, u) => s + size(u), 0);
const gamma = (t: Tree): number => size(t) * t.reduce((p, u) => p * gamma(u), 1);

/** every tree obtained by attaching one leaf to some node of t */
function grow(t: Tree): Tree[] {
  const out: Tree[] = [[...t, []]];
  t.forEach((child, i) => {
    for (const g of grow(child)) out.push(t.map((u, j) => (j === i ? g : u)));
  });
  return out;
}

/** all rooted trees of order 1..maxOrder, grouped by order */
function treesUpTo(maxOrder: number): Tree[][] {
  const byOrder: Tree[][] = [[], [[]]];
  for (let p = 2; p <= maxOrder; p++) {
    const seen = new Map<string, Tree>();
    for (const t of byOrder[p - 1]) for (const g of grow(t)) seen.set(canon(g), g);
    byOrder.push([...seen.values()]);
  }
  return byOrder;
}

function phi(tab: ButcherTableau, t: Tree): number[] {
  const s = tab.stages;
  const v = new Array<number>(s).fill(1);
  for (const child of t) {
    const pc = phi(tab, child);
    for (let i = 0; i < s; i++) {
      let acc = 0;
      for (let j = 0; j < i; j++) acc += tab.a[i][j] * pc[j];
      v[i] *= acc;
    }
  }
  return v;
}

/** largest |Σ w_i Φ_i(τ) − θ^|τ|/γ(τ)| over the given trees (absolute: targets are ≤ 1) */
function residual(tab: ButcherTableau, w: readonly number[], trees: Tree[], theta = 1): number {
  let worst = 0;
  for (const t of trees) {
    const ph = phi(tab, t);
    let sum = 0;
    for (let i = 0; i < w.length; i++) sum += w[i] * ph[i];
    const target = theta ** size(t) / gamma(t);
    worst = Math.max(worst, Math.abs(sum - target));
  }
  return worst;
}

const TREES = treesUpTo(8);

/** DOPRI5 dense-output weights at θ (coefficients of h k_i in Hairer's CONTD5) */
function dopri5DenseWeights(theta: number): number[] {
  const { b, d } = DOPRI5;
  const t1 = 1 - theta;
  return b.map((bi, i) => {
    const k1 = i === 0 ? 1 : 0;
    const k7 = i === 6 ? 1 : 0;
    const bspl = k1 - bi;
    return theta * (bi + t1 * (bspl + theta * (bi - k7 - bspl + t1 * d[i])));
  });
}

/** DOP853 dense-output weights at θ over all 16 stages (Hairer's CONTD8) */
function dop853DenseWeights(theta: number): number[] {
  const { d } = DOP853;
  const t1 = 1 - theta;
  const w: number[] = [];
  for (let i = 0; i < 16; i++) {
    const bi = i < 12 ? DOP853.b[i] : 0;
    const bspl = (i === 0 ? 1 : 0) - bi;
    const r3 = bi - (i === 12 ? 1 : 0) - bspl;
    const conpar = d[0][i] + theta * (d[1][i] + t1 * (d[2][i] + theta * d[3][i]));
    w.push(theta * (bi + t1 * (bspl + theta * (r3 + t1 * conpar))));
  }
  return w;
}

describe('rooted trees', () => {
  it('has the known counts 1, 1, 2, 4, 9, 20, 48, 115', () => {
    expect(TREES.slice(1).map((ts) => ts.length)).toEqual([1, 1, 2, 4, 9, 20, 48, 115]);
  });
});

describe.each([
  ['dopri5', DOPRI5 as ButcherTableau],
  ['dop853', DOP853 as ButcherTableau],
])('%s tableau', (_name, tab) => {
  it('satisfies the row-sum condition c_i = Σ_j a_ij', () => {
    expect(tab.c.length).toBe(tab.stages);
    expect(tab.a.length).toBe(tab.stages);
    for (let i = 0; i < tab.stages; i++) {
      expect(tab.a[i].length).toBe(i);
      const sum = tab.a[i].reduce((s, x) => s + x, 0);
      expect(Math.abs(sum - tab.c[i])).toBeLessThan(1e-14);
    }
  });
});

describe('DOPRI5 order conditions', () => {
  it('b has order exactly 5', () => {
    for (let p = 1; p <= 5; p++) expect(residual(DOPRI5, DOPRI5.b, TREES[p])).toBeLessThan(1e-14);
    expect(residual(DOPRI5, DOPRI5.b, TREES[6])).toBeGreaterThan(1e-4);
  });
  it('b* has order exactly 4 and e = b − b*', () => {
    for (let p = 1; p <= 4; p++) expect(residual(DOPRI5, DOPRI5.bStar, TREES[p])).toBeLessThan(1e-14);
    expect(residual(DOPRI5, DOPRI5.bStar, TREES[5])).toBeGreaterThan(1e-4);
    DOPRI5.e.forEach((e, i) => expect(Math.abs(e - (DOPRI5.b[i] - DOPRI5.bStar[i]))).toBeLessThan(1e-16));
  });
  it('is FSAL: the last row of a is b with c = 1', () => {
    expect(DOPRI5.a[6]).toEqual(DOPRI5.b.slice(0, 6));
    expect(DOPRI5.c[6]).toBe(1);
  });
  it('dense output has order 4 for every θ, and interpolates both ends', () => {
    for (const theta of [0.1, 0.3, 0.5, 0.77, 1]) {
      const w = dopri5DenseWeights(theta);
      for (let p = 1; p <= 4; p++) expect(residual(DOPRI5, w, TREES[p], theta)).toBeLessThan(1e-13);
    }
    expect(dopri5DenseWeights(0).every((x) => x === 0)).toBe(true);
    dopri5DenseWeights(1).forEach((x, i) => expect(Math.abs(x - DOPRI5.b[i])).toBeLessThan(1e-15));
    expect(residual(DOPRI5, dopri5DenseWeights(0.5), TREES[5], 0.5)).toBeGreaterThan(1e-6);
  });
});

describe('DOP853 order conditions', () => {
  const tab12: ButcherTableau = { stages: 12, c: DOP853.c.slice(0, 12), a: DOP853.a.slice(0, 12), b: DOP853.b };
  it('b satisfies all 200 conditions up to order 8', () => {
    for (let p = 1; p <= 8; p++) expect(residual(tab12, DOP853.b, TREES[p])).toBeLessThan(1e-12);
  });
  it('the 5th-order estimator: Σ e5_i Φ_i(τ) = 0 for |τ| ≤ 5, not for 6', () => {
    const bHat5 = DOP853.b.map((bi, i) => bi - DOP853.e5[i]);
    for (let p = 1; p <= 5; p++) expect(residual(tab12, bHat5, TREES[p])).toBeLessThan(1e-12);
    expect(residual(tab12, bHat5, TREES[6])).toBeGreaterThan(1e-6);
  });
  it('the 3rd-order estimator b̂₃ (bhh on stages 0, 8, 11) has order 3', () => {
    const bHat3 = DOP853.b.map((bi, i) => bi - DOP853.e3[i]);
    expect(bHat3.filter((x) => x !== 0).length).toBe(3);
    for (let p = 1; p <= 3; p++) expect(residual(tab12, bHat3, TREES[p])).toBeLessThan(1e-12);
    expect(residual(tab12, bHat3, TREES[4])).toBeGreaterThan(1e-6);
  });
  it('stage 12 is FSAL: row b, c = 1', () => {
    expect(DOP853.a[12]).toEqual(DOP853.b);
    expect(DOP853.c[12]).toBe(1);
  });
  it('dense output (with the 3 extra stages) has order 7 for every θ', () => {
    for (const theta of [0.1, 0.3, 0.5, 0.77, 1]) {
      const w = dop853DenseWeights(theta);
      for (let p = 1; p <= 7; p++) expect(residual(DOP853, w, TREES[p], theta)).toBeLessThan(1e-10);
    }
    expect(residual(DOP853, dop853DenseWeights(0.5), TREES[8], 0.5)).toBeGreaterThan(1e-8);
  });
});
