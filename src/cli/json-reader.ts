/**
 * A JSON file read a value at a time (a pull parser over fs.readSync, 64 KB at a time): merge
 * walks a shard's rows one by one, however large the file, instead of parsing it whole (a
 * shard of ten million runs is larger than the longest string V8 can hold). Strict JSON; an
 * error is a {@link JsonSyntaxError} with the line where it is.
 */
import { closeSync, openSync, readSync } from 'node:fs';

export class JsonSyntaxError extends Error {}

const CHUNK = 1 << 16;
/** The longest string or number token taken: a shard holds nothing near it. */
const MAX_TOKEN = 1 << 24;
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

export class JsonReader {
  private readonly fd: number;
  private buf = Buffer.alloc(CHUNK);
  private len = 0;
  private pos = 0;
  private eof = false;
  /** the line of the reading position, for messages */
  line = 1;
  /** per open array: whether an element has been read (a comma comes before the next) */
  private readonly arrays: boolean[] = [];
  private readonly objects: boolean[] = [];

  constructor(path: string) {
    this.fd = openSync(path, 'r');
  }

  close(): void {
    closeSync(this.fd);
  }

  private fill(): boolean {
    if (this.eof) return false;
    if (this.pos > 0) {
      this.buf.copy(this.buf, 0, this.pos, this.len);
      this.len -= this.pos;
      this.pos = 0;
    }
    if (this.len === this.buf.length) {
      const bigger = Buffer.alloc(this.buf.length * 2);
      this.buf.copy(bigger, 0, 0, this.len);
      this.buf = bigger;
    }
    const n = readSync(this.fd, this.buf, this.len, this.buf.length - this.len, null);
    if (n === 0) this.eof = true;
    this.len += n;
    return n > 0;
  }

  private fail(what: string): never {
    throw new JsonSyntaxError(`not JSON: ${what} at line ${this.line}`);
  }

  /** The next byte that is not white space (not consumed); -1 at the end. */
  private peek(): number {
    for (;;) {
      while (this.pos < this.len) {
        const c = this.buf[this.pos];
        if (c === 0x0a) this.line++;
        else if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return c;
        this.pos++;
      }
      if (!this.fill()) return -1;
    }
  }

  private expect(c: number, what: string): void {
    if (this.peek() !== c) this.fail(`expected ${what}`);
    this.pos++;
  }

  /** The raw bytes of a token that ends where `end(byte)` says, as text. */
  private token(start: number, isEnd: (c: number, at: number) => boolean): string {
    let at = this.pos + start;
    for (;;) {
      while (at < this.len) {
        if (isEnd(this.buf[at], at)) {
          const text = this.buf.toString('utf8', this.pos, at);
          this.pos = at;
          return text;
        }
        at++;
      }
      if (at - this.pos > MAX_TOKEN) this.fail('a token longer than 16 MB');
      const offset = at - this.pos;
      if (!this.fill()) {
        const text = this.buf.toString('utf8', this.pos, this.len);
        this.pos = this.len;
        return text;
      }
      at = this.pos + offset;
    }
  }

  private string(): string {
    // the closing quote is the first one not escaped: count the backslashes before it
    const raw = this.token(1, (c, at) => {
      if (c !== 0x22) return false;
      let k = at - 1;
      while (this.buf[k] === 0x5c) k--;
      return (at - 1 - k) % 2 === 0;
    });
    if (this.pos >= this.len && !this.fill()) this.fail('a string without its closing quote');
    this.pos++;
    try {
      return JSON.parse(`${raw}"`) as string;
    } catch {
      return this.fail('a malformed string');
    }
  }

  /** The next value, whole. */
  value(): unknown {
    const c = this.peek();
    if (c === 0x22) return this.string();
    if (c === 0x7b) {
      // own data properties as JSON.parse makes them (a key "__proto__" is a key, not the prototype)
      const out: Record<string, unknown> = {};
      this.beginObject();
      for (let k; (k = this.nextKey()) !== null;)
        Object.defineProperty(out, k, { value: this.value(), enumerable: true, writable: true, configurable: true });
      return out;
    }
    if (c === 0x5b) {
      const out: unknown[] = [];
      this.beginArray();
      while (this.hasNext()) out.push(this.value());
      return out;
    }
    if (c === 0x74 || c === 0x66 || c === 0x6e) {
      const word = this.token(0, (b) => b < 0x61 || b > 0x7a);
      if (word === 'true') return true;
      if (word === 'false') return false;
      if (word === 'null') return null;
      return this.fail(`'${word}'`);
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const text = this.token(
        0,
        (b) => !(b === 0x2d || b === 0x2b || b === 0x2e || b === 0x45 || b === 0x65 || (b >= 0x30 && b <= 0x39)),
      );
      if (!NUMBER.test(text)) this.fail(`the number '${text}'`);
      return Number(text);
    }
    return this.fail(c === -1 ? 'the file ends early' : `unexpected '${String.fromCharCode(c)}'`);
  }

  /** Skips the next value (read, not kept). */
  skip(): void {
    const c = this.peek();
    if (c === 0x7b) {
      this.beginObject();
      while (this.nextKey() !== null) this.skip();
    } else if (c === 0x5b) {
      this.beginArray();
      while (this.hasNext()) this.skip();
    } else this.value();
  }

  beginObject(): void {
    this.expect(0x7b, "'{'");
    this.objects.push(false);
  }

  /** The next key of the open object (its value is to be read next), or null at its end. */
  nextKey(): string | null {
    const c = this.peek();
    if (c === 0x7d) {
      this.pos++;
      this.objects.pop();
      return null;
    }
    if (this.objects[this.objects.length - 1]) this.expect(0x2c, "',' or '}'");
    this.objects[this.objects.length - 1] = true;
    if (this.peek() !== 0x22) this.fail('expected a key');
    const key = this.string();
    this.expect(0x3a, "':'");
    return key;
  }

  beginArray(): void {
    this.expect(0x5b, "'['");
    this.arrays.push(false);
  }

  /** Whether the open array has another element (to be read next); consumes the end. */
  hasNext(): boolean {
    const c = this.peek();
    if (c === 0x5d) {
      this.pos++;
      this.arrays.pop();
      return false;
    }
    if (this.arrays[this.arrays.length - 1]) this.expect(0x2c, "',' or ']'");
    this.arrays[this.arrays.length - 1] = true;
    return true;
  }

  /** Whether the next value is an array (not consumed). */
  atArray(): boolean {
    return this.peek() === 0x5b;
  }

  /** The end of the file: nothing but white space may follow the top value. */
  end(): void {
    if (this.peek() !== -1) this.fail('more after the end of the document');
  }
}
