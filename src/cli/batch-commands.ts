/**
 * The batch commands (sweep, montecarlo, merge) as the command line lists them: their flags
 * and descriptions. Their work (sweep.ts, montecarlo.ts, merge.ts; the pool in batch/pool.ts) loads only
 * when one of them runs.
 */
import type { Command } from 'commander';
import type { BatchContext, MergeFlags, MonteCarloFlags, SweepFlags } from './batch-settings.js';
import { joined, once } from './options.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerBatchCommands(program: Command, ctx: BatchContext): void {
  const batchFlags = (cmd: Command) =>
    cmd
      .option(
        '--report <EXPRS>',
        'comma-separated expressions of final values (sweep: all of them by default)',
        joined(', '),
      )
      .option(
        '--workers <N>',
        'threads, this one included (default: up to the cores, once a batch runs long enough; 1: no workers)',
        once('--workers'),
      )
      .option(
        '--shoot',
        'each run first solves for the unknowns so that the boundary conditions hold (as shoot), then reports its solution and the unknowns',
      )
      .option(
        '--shard <K/N>',
        "run only the K-th of N slices (auto: from the batch system's array index: SLURM, Kubernetes Indexed Job, AWS Batch); combine the JSON outputs with merge",
        once('--shard'),
      );
  batchFlags(
    ctx.addSharedFlags(
      program.command('sweep <file>').description('one run per parameter value; a table of reported final values'),
    ),
  )
    // (collected, so that a second --vary is refused rather than silently replacing the first)
    .option('--vary <NAME=FROM:TO:COUNT>', 'the parameter and its values (one)', collect)
    .option('--log-x', 'plot: logarithmic parameter axis')
    .option('--log-y', 'plot: logarithmic value axis (default: when a value spans more than two decades)')
    .action(async (file: string, flags: SweepFlags) =>
      ctx.setExit(await (await import('./sweep.js')).runSweep(ctx, file, flags)),
    );
  batchFlags(
    ctx.addSharedFlags(
      program.command('montecarlo <file>').description('statistics of final values over random parameters'),
    ),
  )
    .option('--sample <NAME~DIST>', 'NAME~normal(MEAN,SD) or NAME~uniform(A,B) (repeatable)', collect)
    .option('--samples <N>', 'number of samples (default 1000)', once('--samples'))
    .option('--seed <S>', 'seed of the generator (default 1)', once('--seed'))
    .option(
      '--stats-over <STATUSES>',
      'the runs the statistics are over, by status (default ok,stopped: those that reached their end; all: every run)',
      once('--stats-over'),
    )
    .action(async (file: string, flags: MonteCarloFlags) =>
      ctx.setExit(await (await import('./montecarlo.js')).runMonteCarlo(ctx, file, flags)),
    );
  program
    .command('merge <files...>')
    .description('combine the JSON outputs of sweep or montecarlo --shard K/N into the output of the whole batch')
    .option('--format <FORMAT>', 'json (default), csv or text', once('--format'))
    .option('--out <PATH>', 'write the output (montecarlo: the samples) to a file', once('--out'))
    .option('--plot <PATH>', 'write a plot (.svg or .png)', once('--plot'))
    .option('--title <T>', 'plot: its title', once('--title'))
    .option('--xlabel <X>', 'plot: the title of its x axis', once('--xlabel'))
    .option('--ylabel <Y>', 'plot: the title of its y axis', once('--ylabel'))
    .option('--width <W>', 'plot: width in pixels (default 720)', once('--width'))
    .option('--height <H>', 'plot: height in pixels (default 400)', once('--height'))
    .option('--log-x', 'sweep plot: logarithmic parameter axis')
    .option('--log-y', 'sweep plot: logarithmic value axis')
    .action(async (files: string[], flags: MergeFlags) =>
      ctx.setExit(await (await import('./merge.js')).runMerge(files, flags)),
    );
}
