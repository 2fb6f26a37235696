/**
 * Workload W5, a row of N equal elastic spheres between walls at 0 and N + 1 (the model of
 * ../shared/peers/row/gen_row.py, written out or with arrays), and its exact impact count.
 *
 * The count: equal masses in elastic collisions trade velocities, so the spheres move like
 * ghosts that pass through each other and reflect off the walls. Every ghost crossing is a
 * collision and every reflection a wall impact; a ghost at x0 + v t folded into [0, L]
 * (period 2L) meets another where the unfolded coordinates agree, or are opposite, modulo 2L.
 * Positions are integers and velocities have six decimals, so in units of 1e-6 every
 * quantity is an integer below 2^53 and the counting is exact in doubles.
 */

/** The fixed pseudo-random velocities of gen_row.py (an LCG, rounded to six decimals). */
export function velocities(n) {
  // (1103515245 s exceeds 2^53: the recurrence runs in BigInt)
  const out = [];
  let s = 12345n;
  for (let i = 0; i < n; i++) {
    s = (1103515245n * s + 12345n) % 2n ** 31n;
    const v = Number(((2 * Number(s)) / 2 ** 31 - 1).toFixed(6));
    out.push(v === 0 ? 0.5 : v);
  }
  return out;
}

export function rowModel(n, tEnd) {
  const v = velocities(n);
  const lines = [
    `model Row${n}`,
    `independent t from 0 to ${tEnd}`,
    `parameter m = 1, e = 1, L = ${n + 1}`,
    'option rtol = 1e-10',
    'option atol = 1e-12',
    'discrete hits = 0',
    `output x1, x${n}, hits`,
    'event wl when x1 falls do hits := hits + 1 end',
    `event wr when x${n} - L rises do hits := hits + 1 end`,
  ];
  for (let i = 1; i < n; i++) {
    lines.push(`event c${i} when x${i + 1} - x${i} falls do hits := hits + 1 end`);
    lines.push(`J${i} = (1 + e)*m/2*(x${i}' - x${i + 1}')`);
  }
  for (let i = 1; i <= n; i++) {
    const terms = [];
    if (i > 1) terms.push(`J${i - 1}*delta(t - c${i - 1})`);
    if (i < n) terms.push(`- J${i}*delta(t - c${i})`);
    if (i === 1) terms.push(`- (1 + e)*m*x1'*delta(t - wl)`);
    if (i === n) terms.push(`- (1 + e)*m*x${n}'*delta(t - wr)`);
    lines.push(`m*x${i}'' = ${terms.join(' ').replace(/^[+ ]+/, '')}`);
    lines.push(`x${i}(0) = ${i}; x${i}'(0) = ${v[i - 1]}`);
  }
  return lines.join('\n') + '\n';
}

/** The row's events, impulses and initial values with arrays, for N spheres with v0[1:N] declared. */
export const ROW_ARRAY_BODY = `discrete hits = 0
event wl when x[1] falls do hits := hits + 1 end
event wr when x[N] - L rises do hits := hits + 1 end
for i in 1:N-1
  event c[i] when x[i+1] - x[i] falls do hits := hits + 1 end
  J[i] = (1 + e)*m/2*(x[i]' - x[i+1]')
end
m*x[1]'' = -J[1]*delta(t - c[1]) - (1 + e)*m*x[1]'*delta(t - wl)
for i in 2:N-1
  m*x[i]'' = J[i-1]*delta(t - c[i-1]) - J[i]*delta(t - c[i])
end
m*x[N]'' = J[N-1]*delta(t - c[N-1]) - (1 + e)*m*x[N]'*delta(t - wr)
for i in 1:N
  x[i](0) = i; x[i]'(0) = v0[i]
end
`;

/**
 * The same row with arrays (bench/w5/row.delta): N structural (default 64), the velocities
 * from a pool of the first `pool` velocities of the generator, so that any N up to `pool`
 * gives exactly the written-out model of rowModel(N, T) (`deltastep ... --set N=256`, or
 * compileModel(text, file, { set: { N: 256 } })).
 */
export function rowArrayModel(pool = 1024, n = 64, tEnd = 20) {
  const v = velocities(pool);
  const lines = [];
  for (let k = 0; k < pool; k += 8) lines.push(`  ${v.slice(k, k + 8).join(', ')}${k + 8 < pool ? ',' : ''}`);
  return `# Workload W5 with arrays: a row of N equal elastic spheres between walls at 0 and N + 1,
# sphere i starting at x = i with the i-th velocity of a fixed pseudo-random sequence
# (bench/w5/row-model.mjs, which wrote this file: rowArrayModel()). Any N up to ${pool}.
model RowArray
independent t from 0 to ${tEnd}
parameter N = ${n}, m = 1, e = 1, L = N + 1
parameter pool[1:${pool}] = [
${lines.join('\n')}]
parameter v0[1:N] = [pool[i] for i in 1:N]
option rtol = 1e-10
option atol = 1e-12
${ROW_ARRAY_BODY}output x[1], x[N], hits
`;
}

/** Integers k with c(t) = k·period for some t in (0, T], c linear from c0 to c1 (all integers). */
function countK(c0, c1, period) {
  const lo = Math.min(c0, c1),
    hi = Math.max(c0, c1);
  if (lo === hi) return 0;
  return c1 > c0 ? Math.floor(hi / period) - Math.floor(lo / period) : Math.ceil(hi / period) - Math.ceil(lo / period);
}

/** The exact number of impacts in (0, T] (T an integer). */
export function exactHits(n, tEnd) {
  const U = 1e6;
  const L = (n + 1) * U;
  const x = Array.from({ length: n }, (_, i) => (i + 1) * U);
  const v = velocities(n).map((u) => Math.round(u * U));
  let total = 0;
  for (let i = 0; i < n; i++) total += countK(x[i], x[i] + v[i] * tEnd, L);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const d0 = x[i] - x[j],
        s0 = x[i] + x[j];
      total += countK(d0, d0 + (v[i] - v[j]) * tEnd, 2 * L) + countK(s0, s0 + (v[i] + v[j]) * tEnd, 2 * L);
    }
  }
  return total;
}
