#!/usr/bin/env node
/**
 * The `deltastep` command line (documented in docs/cli.md).
 *
 * Exit codes: 0 success; 1 the model is wrong (FILE:LINE:COL with the line and a caret);
 * 2 the command line is wrong; 3 the numerics failed or did not converge (whatever was
 * computed is still written); 4 the run stopped on an accumulation of events (zeno); 5 an
 * output could not be written (out-file.ts); 141 the standard output's reader went away.
 * No stack trace ever reaches the user.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { SimulationInputError } from '../driver/types.js';
import { ShootInputError } from '../shooting/errors.js';
import { ModelError } from '../expression/errors.js';
import { registerBatchCommands } from './batch-commands.js';
import { CliError, EXIT, joined, once, type SharedFlags } from './options.js';
import {
  checkDistinct,
  checkWritable,
  ClosedPipe,
  OUTPUT_EXIT,
  OutputError,
  OutputPathError,
  StreamOut,
} from './out-file.js';
import { removeTemporaries } from './temporary.js';
import { forgetModelTexts } from './model-text.js';
import { getHeapStatistics } from 'node:v8';
import { setHeapBudget } from '../language/array-expressions.js';
import { escapeLines, escapeText } from '../expression/terminal-text.js';

const VERSION = '0.1.0';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The commands' work, loaded when one runs (see commands.ts). */
const commands = () => import('./commands.js');

/** The flags every running command shares (CLI.md). */
export function addSharedFlags(cmd: Command): Command {
  return cmd
    .option('--from <A>', 'start of the range (overrides the model)', once('--from'))
    .option('--to <B>', 'end of the range (overrides the model)', once('--to'))
    .option('--set <NAME=VALUE>', 'a parameter or unknown (repeatable)', collect)
    .option('--init <NAME=VALUE,...>', "initial values, y' for a derivative (repeatable: one run each)", collect)
    .option(
      '--method <NAME>',
      'auto (default: analytic where every part has a closed form, else dopri5, rodas where stiff), analytic, dopri5, dop853, rodas, rk4 or euler',
      once('--method'),
    )
    .option('--rtol <R>', 'relative tolerance', once('--rtol'))
    .option('--atol <A>', 'absolute tolerance', once('--atol'))
    .option('--step <H>', 'fixed step for rk4, largest step otherwise', once('--step'))
    .option(
      '--first-step <H>',
      'adaptive methods: the first step to try (default: estimated from the model)',
      once('--first-step'),
    )
    .option('--max-step <H>', 'adaptive methods: the largest step (what --step means for them)', once('--max-step'))
    .option(
      '--locate <MODE>',
      'exact (default), before or after: where fixed-step runs apply an event',
      once('--locate'),
    )
    .option('--format <FORMAT>', 'text (default) or json; simulate also csv', once('--format'))
    .option('--out <PATH>', 'write the output to a file', once('--out'))
    .option('--plot <PATH>', 'write a plot (.svg, .png or .html)', once('--plot'))
    .option('--title <T>', 'plot: its title (default: the model and what is drawn)', once('--title'))
    .option('--xlabel <X>', 'plot: the title of its x axis', once('--xlabel'))
    .option('--ylabel <Y>', 'plot: the title of its y axis (of each panel)', once('--ylabel'))
    .option(
      '--width <W>',
      'plot: width of the plotting area in pixels (default 720; a PNG has twice as many)',
      once('--width'),
    )
    .option('--height <H>', 'plot: height of the plotting area in pixels (default 400)', once('--height'))
    .option(
      '--output-step <DT>',
      "one row per DT of the independent variable (plus every event's rows), instead of one per step",
      once('--output-step'),
    )
    .option(
      '--output-times <LIST>',
      "rows exactly at these times (comma-separated, or FROM:TO:COUNT), plus every event's rows",
      once('--output-times'),
    )
    .option('--events-only', 'rows only at the ends and before/after each event')
    .option('--max-steps <N>', 'limit on integration steps (default 10000000)', once('--max-steps'))
    .option('--max-events <N>', 'limit on events (default 100000, or option maxEvents)', once('--max-events'))
    .option('--max-rows <N>', 'limit on the rows of a run, written or kept (default 5000000)', once('--max-rows'))
    .option(
      '--zeno <MODE>',
      'stop (default) or continue: hold accumulations and persisting contacts as constraints',
      once('--zeno'),
    )
    .option('--quiet', 'no progress bar');
}

export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command('deltastep')
    // (before the commands are added: they inherit it) help and version are written as any
    // output is, so that a full disk or device is said (exit 5); commander's own messages echo
    // what was typed, controls written out
    .configureOutput({
      writeOut: (text) => {
        const out = new StreamOut(undefined);
        out.write(text);
        out.close();
      },
      outputError: (text, write) => write(escapeLines(text)),
    })
    .description('Simulate models with point abstractions: Dirac deltas become steps and exact events.')
    .version(`deltastep ${VERSION}`)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    // An --out or --plot that cannot be written is said before anything runs, not after.
    .hook('preAction', (_program, command) => {
      const o = command.opts<{ out?: unknown; plot?: unknown }>();
      if (typeof o.out === 'string') checkWritable(o.out, '--out');
      if (typeof o.plot === 'string') checkWritable(o.plot, '--plot');
      // (nor may an output be an input, or the other output)
      const outputs = (['out', 'plot'] as const).flatMap((k) => {
        const path = o[k];
        return typeof path === 'string' ? [{ flag: `--${k}`, path }] : [];
      });
      const merging = command.name() === 'merge';
      checkDistinct(command.args, outputs, merging ? 'one of the files to merge' : 'the model file');
    });

  program
    .command('transform <file>')
    .description('print the transformed first-order system')
    .addOption(
      new Option('--format <FORMAT>', 'text, latex, json or js').default(undefined).argParser(once('--format')),
    )
    .option('--out <PATH>', 'write to a file', once('--out'))
    .action(async (file: string, flags: { format?: string; out?: string }) =>
      setExit(await (await commands()).runTransform(file, flags)),
    );

  addSharedFlags(program.command('simulate <file>').description('integrate the model; print or write the trajectory'))
    .option('--variables <LIST>', 'comma-separated columns to plot (default: all)', once('--variables'))
    .action(async (file: string, flags: SharedFlags & { variables?: string }) =>
      setExit(await (await import('./simulate.js')).runSimulate(file, { ...flags, plotVariables: flags.variables })),
    );

  addSharedFlags(
    program
      .command('shoot <file>')
      .description('find the unknowns so that the boundary conditions hold, then simulate'),
  )
    .option(
      '--jacobian <KIND>',
      'broyden (default: fewest shots) or central (central differences at every iteration)',
      once('--jacobian'),
    )
    .option('--lower <NAME=VALUE,...>', 'lower bounds on unknowns: the iterates stay above them', joined(','))
    .option('--upper <NAME=VALUE,...>', 'upper bounds on unknowns: the iterates stay below them', joined(','))
    .action(async (file: string, flags: SharedFlags & { jacobian?: string; lower?: string; upper?: string }) =>
      setExit(await (await commands()).runShoot(file, flags)),
    );

  registerBatchCommands(program, {
    addSharedFlags,
    loadModel: async (file, set) => (await commands()).loadModel(file, set),
    setExit,
  });
  return program;
}

export async function main(argv: string[]): Promise<number> {
  // A closed stderr (or a stdout written by a library) must not end in an unhandled 'error'
  // event with a stack trace: the command's own writes report their failures.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  let code: number = EXIT.ok;
  // (a model written out past what this heap holds is refused with a message: array-expressions.ts)
  setHeapBudget(getHeapStatistics().heap_size_limit);
  forgetModelTexts();
  const program = buildProgram((c) => {
    code = c;
  });
  // no command: what there is to do, and the exit code of a wrong command line
  if (argv.length === 0) {
    process.stderr.write(program.helpInformation());
    return EXIT.usage;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    return reportError(err);
  }
}

export function reportError(err: unknown): number {
  if (err instanceof CommanderError) {
    // help and version are "errors" to commander; they exit 0
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
      return EXIT.ok;
    return EXIT.usage;
  }
  // Messages echo flag values and paths: their control and bidirectional characters are
  // written out (escape.ts). These messages are one line each (a CliError of `lines` aside);
  // a model error's has several.
  if (err instanceof ModelError) {
    process.stderr.write(`${modelErrorText(err)}\n`);
    return EXIT.model;
  }
  if (err instanceof CliError || err instanceof SimulationInputError || err instanceof OutputPathError) {
    const lines = err instanceof CliError && err.lines;
    process.stderr.write(`deltastep: ${lines ? escapeLines(err.message) : escapeText(err.message)}\n`);
    return EXIT.usage;
  }
  if (err instanceof ShootInputError) {
    process.stderr.write(`deltastep: ${escapeText(err.message)}\n`);
    // (--lower q=1 where q is no unknown is the command line's fault, as --set zz=1 is)
    return err.usage ? EXIT.usage : EXIT.model;
  }
  // (what was computed and can still be written has been; temporary files go now)
  removeTemporaries();
  if (err instanceof ClosedPipe) return OUTPUT_EXIT.closedPipe;
  if (err instanceof OutputError) {
    process.stderr.write(`deltastep: ${escapeText(err.message)}\n`);
    return err.opening ? EXIT.usage : OUTPUT_EXIT.output;
  }
  process.stderr.write(
    `deltastep: internal error: ${escapeText(err instanceof Error ? err.message : String(err))}\nPlease report this with the model that caused it.\n`,
  );
  return EXIT.numerics;
}

/**
 * A model error's lines, the path in its first (a file name may hold a line feed) and every
 * line with its controls written out, the line feeds between them kept.
 */
function modelErrorText(err: ModelError): string {
  const m = err.message;
  return m.startsWith(`${err.file}:`)
    ? `${escapeText(err.file)}${escapeLines(m.slice(err.file.length))}`
    : escapeLines(m);
}

// Run only as the entry point, not when imported by tests.
function invokedDirectly(): boolean {
  // npx and npm's bin links reach this file through a symlink named `deltastep`
  try {
    return !!process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}
if (invokedDirectly()) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.exitCode = reportError(err);
    },
  );
}
