/** What sweep, montecarlo and merge write alike: plots saved with a message that names --plot. */
import { CliError } from './options.js';
import { OutputError } from './out-file.js';

export async function savePlot(svg: string, path: string): Promise<void> {
  const { writePlot } = await import('./plot.js');
  try {
    await writePlot(svg, path);
  } catch (err) {
    if (err instanceof OutputError) throw err;
    throw new CliError(`--plot ${path}: ${(err as Error).message}`);
  }
}
