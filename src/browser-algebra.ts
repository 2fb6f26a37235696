/**
 * dist/deltastep.algebra.js: nerdamer-prime alone, the computer algebra that finds exact roots
 * of nonlinear delta arguments. The browser module imports it only when a model needs it
 * (`loadExactRoots` in src/browser.ts).
 */
import nerdamer from 'nerdamer-prime/all';

export default nerdamer;
