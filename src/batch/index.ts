/**
 * Many runs of one compiled model, apart from the integrator: what is reported (report.ts),
 * which parameter values (values.ts), how chunks of runs are shared between threads (run.ts)
 * and the statistics of a Monte Carlo batch (statistics.ts).
 */
export * from './report.js';
export * from './values.js';
export * from './run.js';
export * from './statistics.js';
