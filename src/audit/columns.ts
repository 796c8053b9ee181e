/**
 * Growable typed-array columns and a UTF-8 string pool: the audit index keeps a few
 * bytes per event in these instead of one JavaScript object per event, so a million
 * events cost tens of megabytes, not gigabytes, and scans are tight loops.
 */

type NumericArray = Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array;
type NumericArrayConstructor<T extends NumericArray> = new (length: number) => T;

/** A dense column of numbers, indexed from 0, doubling its capacity as it grows. */
export class Column<T extends NumericArray> {
  private array: T;
  private size = 0;

  constructor(
    private readonly make: NumericArrayConstructor<T>,
    capacity = 1024,
  ) {
    this.array = new make(Math.max(16, capacity));
  }

  get length(): number {
    return this.size;
  }

  /** The backing array (valid until the next push): for tight read loops. */
  get data(): T {
    return this.array;
  }

  push(value: number): void {
    if (this.size === this.array.length) this.grow(this.size + 1);
    this.array[this.size++] = value;
  }

  get(index: number): number {
    return this.array[index]!;
  }

  set(index: number, value: number): void {
    this.array[index] = value;
  }

  truncate(length: number): void {
    this.size = Math.min(this.size, Math.max(0, length));
  }

  /** The used part, without copying: valid as long as nothing below `length` is rewritten. */
  used(): T {
    return this.array.subarray(0, this.size) as T;
  }

  /** Takes `array` whole as the column's content (a loaded snapshot); the next push grows it. */
  adopt(array: T): void {
    this.array = array.length > 0 ? array : new this.make(16);
    this.size = array.length;
  }

  private grow(min: number): void {
    const next = new this.make(Math.max(min, this.array.length * 2));
    (next as unknown as { set(a: ArrayLike<number>): void }).set(this.array);
    this.array = next;
  }
}

/** Strings stored back to back as UTF-8 in one growable buffer, addressed by their index. */
export class StringPool {
  private bytes: Buffer = Buffer.allocUnsafe(1 << 16);
  private used = 0;
  /** starts[i] = byte offset of string i; starts[count] = end of the last one. */
  private readonly starts = new Column(Float64Array);

  constructor() {
    this.starts.push(0);
  }

  get count(): number {
    return this.starts.length - 1;
  }

  /** Appends a string and returns its index. */
  push(text: string): number {
    const max = text.length * 3;
    if (this.used + max > this.bytes.length) {
      const next = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + max));
      this.bytes.copy(next, 0, 0, this.used);
      this.bytes = next;
    }
    this.used += this.bytes.write(text, this.used, 'utf8');
    this.starts.push(this.used);
    return this.starts.length - 2;
  }

  get(index: number): string {
    return this.bytes.toString('utf8', this.starts.get(index), this.starts.get(index + 1));
  }

  truncate(count: number): void {
    if (count >= this.count) return;
    this.starts.truncate(count + 1);
    this.used = this.starts.get(count);
  }

  /** Bytes held. */
  get byteLength(): number {
    return this.used;
  }

  /** The pool's content without copying (the bytes used, and each string's start): valid while strings are only appended. */
  image(): { bytes: Buffer; starts: Float64Array<ArrayBuffer> } {
    return { bytes: this.bytes.subarray(0, this.used), starts: this.starts.used() };
  }

  /** Takes an image's content (a loaded snapshot) as the pool's. */
  adopt(bytes: Buffer, starts: Float64Array<ArrayBuffer>): void {
    if (starts.length < 1 || starts[starts.length - 1] !== bytes.length)
      throw new RangeError('StringPool: the starts do not match the bytes');
    this.bytes = bytes;
    this.used = bytes.length;
    this.starts.adopt(starts);
  }
}

/** Interns strings as small integer codes (object types, user names). */
export class Dictionary {
  private readonly codes = new Map<string, number>();
  private readonly values: string[] = [];

  code(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    return code;
  }

  /** The code of a value already seen, or undefined. */
  find(value: string): number | undefined {
    return this.codes.get(value);
  }

  value(code: number): string {
    return this.values[code]!;
  }

  get size(): number {
    return this.values.length;
  }

  entries(): IterableIterator<[string, number]> {
    return this.codes.entries();
  }

  /** The values in code order (a copy). */
  list(): string[] {
    return this.values.slice();
  }

  /** Interns `values` in order, so that each gets its index as code (a loaded snapshot, into an empty dictionary). */
  load(values: readonly string[]): void {
    if (this.values.length > 0) throw new Error('Dictionary.load(): the dictionary is not empty');
    for (const value of values) this.code(value);
    if (this.values.length !== values.length) throw new RangeError('Dictionary.load(): repeated values');
  }
}
