/**
 * `--shard auto` as a batch system runs it: the slice comes from the array index in the
 * environment (SLURM, Kubernetes Indexed Job, AWS Batch), and `merge` of the slices' JSON is
 * exactly the unsharded output.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoShard } from '../src/cli/shard.js';
import { CLI, ensureCliBuilt, modelPath } from './helpers.js';

describe('--shard auto: the slice from the batch system', () => {
  it.each([
    [{ SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_COUNT: '8' }, 4, 8, 'SLURM array task 3 of 8 (from 0)'],
    [
      { SLURM_ARRAY_TASK_ID: '8', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_COUNT: '8' },
      8,
      8,
      'SLURM array task 8 of 8 (from 1)',
    ],
    [
      { JOB_COMPLETION_INDEX: '0', DELTASTEP_SHARD_COUNT: '100' },
      1,
      100,
      'Kubernetes Indexed Job, completion index 0 of 100',
    ],
    [{ AWS_BATCH_JOB_ARRAY_INDEX: '99', DELTASTEP_SHARD_COUNT: '100' }, 100, 100, 'AWS Batch array index 99 of 100'],
  ])('%j', (env, k, n, source) => {
    expect(autoShard(env)).toEqual({ k, n, source });
  });

  it.each([
    [
      {},
      "--shard auto: no batch system's array index found (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX); outside a job array give the slice as --shard K/N",
    ],
    [{ JOB_COMPLETION_INDEX: '2' }, '--shard auto: DELTASTEP_SHARD_COUNT is not set; it must be a whole number'],
    [
      { SLURM_ARRAY_TASK_ID: 'x', SLURM_ARRAY_TASK_COUNT: '4' },
      "--shard auto: SLURM_ARRAY_TASK_ID is 'x'; it must be a whole number",
    ],
    [
      { AWS_BATCH_JOB_ARRAY_INDEX: '4', DELTASTEP_SHARD_COUNT: '4' },
      "--shard auto: AWS Batch array index 4 of 4 is not a slice from 1 to 4; check the array's range and its count",
    ],
  ])('%j is a clear error', (env, message) => {
    expect(() => autoShard(env)).toThrow(message);
  });

  let dir = '';
  beforeAll(() => {
    ensureCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'ds-shard-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a job array of 4 tasks (each system's variables), merged, is the unsharded sweep", () => {
    const model = modelPath('c12.delta');
    const args = [
      'sweep',
      model,
      '--vary',
      'e=1:0.2:40',
      '--report',
      'n',
      '--format',
      'json',
      '--workers',
      '1',
      '--rtol',
      '1e-10',
      '--atol',
      '1e-12',
    ];
    const whole = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
    expect(whole.status).toBe(0);
    const envs = [
      { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_COUNT: '4' },
      { JOB_COMPLETION_INDEX: '1', DELTASTEP_SHARD_COUNT: '4' },
      { AWS_BATCH_JOB_ARRAY_INDEX: '2', DELTASTEP_SHARD_COUNT: '4' },
      { SLURM_ARRAY_TASK_ID: '4', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_COUNT: '4' },
    ];
    const files = envs.map((env, i) => {
      const out = join(dir, `slice${i + 1}.json`);
      const r = spawnSync(process.execPath, [CLI, ...args, '--shard', 'auto', '--out', out], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toMatch(new RegExp(`^deltastep: --shard auto: slice ${i + 1}/4 \\(`));
      return out;
    });
    const merged = spawnSync(process.execPath, [CLI, 'merge', ...files, '--format', 'json'], { encoding: 'utf8' });
    expect(merged.status, merged.stderr).toBe(0);
    expect(JSON.parse(merged.stdout)).toEqual(JSON.parse(whole.stdout));
  }, 120_000);
});
