/**
 * `--shard auto`: the slice of a batch that this process runs, from the array index a batch
 * system gives each task, so that a job array of N tasks runs N slices without any wiring.
 *
 * | system | index (0- or 1-based) | count |
 * |---|---|---|
 * | SLURM job array | `SLURM_ARRAY_TASK_ID` (from `SLURM_ARRAY_TASK_MIN`, default 0) | `SLURM_ARRAY_TASK_COUNT` |
 * | Kubernetes Indexed Job | `JOB_COMPLETION_INDEX` (0-based) | `DELTASTEP_SHARD_COUNT` (set it to the Job's `completions`: Kubernetes does not export that) |
 * | AWS Batch array job | `AWS_BATCH_JOB_ARRAY_INDEX` (0-based) | `DELTASTEP_SHARD_COUNT` (the array size, likewise) |
 */
import { CliError } from './options.js';

export interface AutoShard {
  k: number;
  n: number;
  source: string;
}

type Env = Readonly<Record<string, string | undefined>>;

function whole(env: Env, name: string, min: number): number {
  const text = env[name];
  if (text === undefined || !/^\d+$/.test(text.trim()))
    throw new CliError(
      `--shard auto: ${name} is ${text === undefined ? 'not set' : `'${text}'`}; it must be a whole number`,
    );
  const v = Number(text.trim());
  if (v < min) throw new CliError(`--shard auto: ${name} is ${v}, it must be at least ${min}`);
  return v;
}

/** The 1-based slice K of N from the batch system's variables in `env`. */
export function autoShard(env: Env): AutoShard {
  if (env.SLURM_ARRAY_TASK_ID !== undefined) {
    const id = whole(env, 'SLURM_ARRAY_TASK_ID', 0);
    const first = env.SLURM_ARRAY_TASK_MIN !== undefined ? whole(env, 'SLURM_ARRAY_TASK_MIN', 0) : 0;
    const n = whole(env, 'SLURM_ARRAY_TASK_COUNT', 1);
    return check(id - first + 1, n, `SLURM array task ${id} of ${n} (from ${first})`);
  }
  if (env.JOB_COMPLETION_INDEX !== undefined) {
    const index = whole(env, 'JOB_COMPLETION_INDEX', 0);
    const n = whole(env, 'DELTASTEP_SHARD_COUNT', 1);
    return check(index + 1, n, `Kubernetes Indexed Job, completion index ${index} of ${n}`);
  }
  if (env.AWS_BATCH_JOB_ARRAY_INDEX !== undefined) {
    const index = whole(env, 'AWS_BATCH_JOB_ARRAY_INDEX', 0);
    const n = whole(env, 'DELTASTEP_SHARD_COUNT', 1);
    return check(index + 1, n, `AWS Batch array index ${index} of ${n}`);
  }
  throw new CliError(
    "--shard auto: no batch system's array index found (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX); outside a job array give the slice as --shard K/N",
  );
}

function check(k: number, n: number, source: string): AutoShard {
  if (k < 1 || k > n)
    throw new CliError(`--shard auto: ${source} is not a slice from 1 to ${n}; check the array's range and its count`);
  return { k, n, source };
}
