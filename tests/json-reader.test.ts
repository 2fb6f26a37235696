/** The pull reader of merge agrees with JSON.parse on every value, across chunk boundaries, and says where a file is broken. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonReader, JsonSyntaxError } from '../src/cli/json-reader.js';

const dir = mkdtempSync(join(tmpdir(), 'ds-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function read(text: string): unknown {
  const path = join(dir, 'f.json');
  writeFileSync(path, text);
  const r = new JsonReader(path);
  try {
    const v = r.value();
    r.end();
    return v;
  } finally {
    r.close();
  }
}

describe('JsonReader', () => {
  it('reads what JSON.parse reads, compact or indented', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 1, 2), (v, indent) => {
        const text = JSON.stringify(v, null, indent);
        expect(read(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300, seed: 21 },
    );
  });

  it('reads values that straddle its 64 KB chunks, and a key __proto__ as a key', () => {
    const long = 'x\\"é'.repeat(40_000);
    const doc = { a: long, rows: Array.from({ length: 20_000 }, (_, k) => [k, k / 7, `s${k}`]) };
    const text = `${JSON.stringify(doc).slice(0, -1)}, "__proto__": 1}`;
    const v = read(text) as Record<string, unknown>;
    expect(v).toEqual(JSON.parse(text));
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.hasOwn(v, '__proto__')).toBe(true);
  });

  it('streams an array element by element', () => {
    const path = join(dir, 'rows.json');
    writeFileSync(path, JSON.stringify({ head: 1, rows: [[1], [2], [3]], tail: 'x' }, null, 1));
    const r = new JsonReader(path);
    const seen: unknown[] = [];
    r.beginObject();
    for (let k; (k = r.nextKey()) !== null;) {
      if (k === 'rows') {
        r.beginArray();
        while (r.hasNext()) seen.push(r.value());
      } else r.skip();
    }
    r.end();
    r.close();
    expect(seen).toEqual([[1], [2], [3]]);
  });

  it.each([
    ['{"a": 1,}', /line 1/],
    ['{"a": [1, 2\n\n', /the file ends early|expected/],
    ['[1, 2] 3', /more after the end/],
    ['{"a": 01}', /the number '01'/],
    ['{"a": tru}', /'tru'/],
    ['{"a": "x', /closing quote/],
  ])('refuses %j', (text, message) => {
    expect(() => read(text)).toThrow(JsonSyntaxError);
    expect(() => read(text)).toThrow(message);
  });
});
