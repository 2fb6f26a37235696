/**
 * Many runs of one compiled model, apart from the integrator: what is reported (report.ts),
 * which parameter values (values.ts), running chunks of runs (run.ts) and sharing them between
 * threads (ring.ts; the pool of worker threads is pool.ts), stopping on a signal
 * (interrupt.ts), and the statistics of a Monte Carlo batch (statistics.ts).
 */
export * from './report.js';
export * from './values.js';
export * from './run.js';
export * from './statistics.js';
export * from './interrupt.js';
export * from './ring.js';
