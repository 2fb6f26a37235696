/**
 * The parts of deltastep that need Node.js (`import { readModelFile } from 'deltastep/node'`),
 * with the whole library beside them; the main entry runs anywhere, browsers included.
 */
export * from './index.js';
export { MAX_MODEL_BYTES, readModelFile } from './files/read-model-file.js';
