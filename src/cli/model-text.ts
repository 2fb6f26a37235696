/**
 * The model file's text, read once per command: a pipe (`deltastep sweep <(generate)`,
 * `/dev/stdin`) gives its text to the first read only. Reading it again for the plot's units
 * or for the batch's hash and worker threads got an empty text: "the model has no equations"
 * (a model error, exit 1), or shards of different models merged as one (both hashed as empty).
 */
import { statSync } from 'node:fs';
import { readModelFile } from '../files/read-model-file.js';

const texts = new Map<string, string>();

/** The text of `file`, read at its first use by this command. */
export function modelText(file: string): string {
  let text = texts.get(file);
  if (text === undefined) {
    text = readModelFile(file);
    texts.set(file, text);
  }
  return text;
}

/** A new command reads its files anew (tests run several commands in one process). */
export function forgetModelTexts(): void {
  texts.clear();
}

/**
 * A model given as a FIFO is read now, before the command watches for signals: opening it
 * waits for its writer in a call that no listener can interrupt, so a Ctrl-C there did
 * nothing (the launcher does not start its watcher when a FIFO is named).
 */
export function readFifoNow(file: string): void {
  let fifo = false;
  try {
    fifo = statSync(file).isFIFO();
  } catch {
    // (a missing file is said where the model is loaded, in its turn)
  }
  if (fifo) modelText(file);
}
