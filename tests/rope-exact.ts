/**
 * The heavy rope with a point load (Hohmann 4.1) against its closed form: each segment is a
 * catenary, y' = sinh(k x + A1) on [0, a] with k = w/H, A1 = asinh(p1); the slope jumps by
 * F/H at a, y' = sinh(k (x - a) + A2) on [a, L] with A2 = asinh(sinh(k a + A1) + F/H); y and z
 * follow in cosh and sinh. The two boundary conditions fix p1 and H, found here by a Newton
 * iteration on the closed form itself (no ODE solver), converged to rounding.
 */
export interface Rope {
  w: number;
  F: number;
  a: number;
  L: number;
  y0: number;
  yL: number;
  S: number;
}

export function closedForm(
  r: Rope,
  p1: number,
  H: number,
): { yL: number; zL: number; ya: number; za: number; slopeBefore: number; slopeAfter: number } {
  const k = r.w / H;
  const A1 = Math.asinh(p1);
  const ya = r.y0 + (Math.cosh(k * r.a + A1) - Math.cosh(A1)) / k;
  const za = (Math.sinh(k * r.a + A1) - Math.sinh(A1)) / k;
  const slopeBefore = Math.sinh(k * r.a + A1);
  const slopeAfter = slopeBefore + r.F / H;
  const A2 = Math.asinh(slopeAfter);
  const d = r.L - r.a;
  return {
    yL: ya + (Math.cosh(k * d + A2) - Math.cosh(A2)) / k,
    zL: za + (Math.sinh(k * d + A2) - Math.sinh(A2)) / k,
    ya,
    za,
    slopeBefore,
    slopeAfter,
  };
}

export function exactRope(r: Rope, guess: [number, number]): { p1: number; H: number } {
  let [p1, H] = guess;
  const R = (u: number, v: number) => {
    const c = closedForm(r, u, v);
    return [c.yL - r.yL, c.zL - r.S];
  };
  for (let k = 0; k < 100; k++) {
    const r0 = R(p1, H);
    const h1 = 1e-7 * Math.max(1, Math.abs(p1)),
      h2 = 1e-7 * Math.max(1, Math.abs(H));
    const ra = R(p1 + h1, H),
      rb = R(p1 - h1, H),
      rc = R(p1, H + h2),
      rd = R(p1, H - h2);
    const J = [
      [(ra[0] - rb[0]) / (2 * h1), (rc[0] - rd[0]) / (2 * h2)],
      [(ra[1] - rb[1]) / (2 * h1), (rc[1] - rd[1]) / (2 * h2)],
    ];
    const det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
    const dp = (-r0[0] * J[1][1] + r0[1] * J[0][1]) / det;
    const dH = (-r0[1] * J[0][0] + r0[0] * J[1][0]) / det;
    p1 += dp;
    H += dH;
    if (Math.abs(dp) + Math.abs(dH) < 1e-15 * (1 + Math.abs(H))) break;
  }
  return { p1, H };
}

export function ropeModel(r: Rope, guess: [number, number]): string {
  return `independent x from 0 to ${r.L}
parameter w = ${r.w}, F = ${r.F}, a = ${r.a}, l = ${r.S}
unknown p1 = ${guess[0]}, H = ${guess[1]}
y'' = w/H*sqrt(1 + y'^2) + F/H*delta(x - a)
z'  = sqrt(1 + y'^2)
y(0) = ${r.y0}; y'(0) = p1; z(0) = 0
y(${r.L}) = ${r.yL}; z(${r.L}) = l
`;
}
