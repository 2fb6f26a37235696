/**
 * The library runs in a browser: src/index.ts bundles with esbuild for the browser platform
 * (no node: module anywhere in the core), and the bundle, run in a bare V8 context with no
 * require, process or Buffer, simulates a model with a delta and an event exactly.
 */
import { build } from 'esbuild';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

describe('a browser-ready core', () => {
  it('bundles for the browser and runs a model in a context without Node.js', async () => {
    const result = await build({
      entryPoints: [new URL('../src/index.ts', import.meta.url).pathname],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: 'deltastep',
      write: false,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const code = result.outputFiles[0].text;
    expect(code).not.toMatch(/require\(["']node:/);
    // about 1.1 MB unminified, 0.29 MB gzipped (nerdamer's exact roots are most of it)
    expect(gzipSync(code).length).toBeLessThan(600_000);
    const sandbox: Record<string, unknown> = {
      console,
      Math,
      Float64Array,
      Int32Array,
      Uint8Array,
      Int8Array,
      Map,
      Set,
      WeakMap,
      JSON,
      Number,
      Object,
      Array,
      String,
      Error,
      RangeError,
      TypeError,
      Symbol,
      Infinity,
      NaN,
      isFinite,
      parseFloat,
      Function,
      Reflect,
      TextDecoder,
      TextEncoder,
    };
    runInNewContext(code, sandbox);
    const lib = sandbox.deltastep as typeof import('../src/index.js');
    const run = lib.simulate("y'' = -y + 2*delta(t - 1)\ny(0) = 0; y'(0) = 0", { to: 2, rtol: 1e-10, atol: 1e-12 });
    // y = 2 sin(t - 1) for t > 1
    expect(run.status).toBe('ok');
    expect(Math.abs(run.final.y - 2 * Math.sin(1))).toBeLessThan(1e-9);
    expect(run.events[0].jumps["y'"]).toBe(2);
  }, 60_000);
});
