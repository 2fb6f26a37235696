/**
 * The parts of deltastep that need Node.js (`import { readModelFile } from 'deltastep/node'`),
 * with the whole library beside them; the main entry runs anywhere, browsers included.
 */
import { getHeapStatistics } from 'node:v8';
import { setHeapBudget } from './language/array-expressions.js';

export * from './index.js';
export { MAX_MODEL_BYTES, readModelFile } from './files/read-model-file.js';

// (the main entry runs anywhere and assumes a 4 GiB heap; here the heap is known: array-expressions.ts)
setHeapBudget(getHeapStatistics().heap_size_limit);
