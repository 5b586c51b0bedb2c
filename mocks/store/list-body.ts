import { orderFields, type Order } from '../../core/records.js';

type ListedOrder = Partial<Record<keyof Order, unknown>> & { status?: unknown };

const fields: readonly (keyof Order)[] = [...orderFields];
const utf8 = new TextEncoder();
const quote = 0x22;

// Characters a JSON string holds as they are, in one byte each: printable ASCII but `"` and `\`.
function isPlainAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code > 0x7e || code === quote || code === 0x5c) return false;
  }
  return true;
}

/** Bytes written one after the other into a buffer that grows, so that a list makes no string per order. */
class ByteWriter {
  bytes: Uint8Array;
  length = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity);
  }

  #room(needed: number): void {
    if (this.length + needed <= this.bytes.length) return;
    const larger = new Uint8Array(Math.max(Math.ceil(this.bytes.length * 1.5), this.length + needed));
    larger.set(this.bytes.subarray(0, this.length));
    this.bytes = larger;
  }

  byte(code: number): void {
    this.#room(1);
    this.bytes[this.length++] = code;
  }

  /** ASCII text, such as a key, a number or a plain string, one byte a character. */
  ascii(text: string): void {
    this.#room(text.length);
    // In locals: V8 cannot keep the fields in registers across the stores.
    const bytes = this.bytes;
    let at = this.length;
    for (let index = 0; index < text.length; index++) bytes[at++] = text.charCodeAt(index);
    this.length = at;
  }

  // Digit by digit, from the last: an integer is written without a string.
  safeInteger(value: number): void {
    if (value < 0) this.byte(0x2d);
    let rest = Math.abs(value);
    let digits = 1;
    for (let power = 10; power <= rest; power *= 10) digits++;
    this.#room(digits);
    let at = this.length + digits;
    this.length = at;
    do {
      const next = Math.floor(rest / 10);
      this.bytes[--at] = 0x30 + (rest - next * 10);
      rest = next;
    } while (rest > 0);
  }

  value(value: unknown): void {
    if (typeof value === 'number' && Number.isSafeInteger(value)) this.safeInteger(value);
    else if (typeof value === 'bigint' && value >= -9007199254740991n && value <= 9007199254740991n)
      this.safeInteger(Number(value));
    else if (typeof value === 'string' && isPlainAscii(value)) {
      this.byte(quote);
      this.ascii(value);
      this.byte(quote);
    } else if (typeof value === 'boolean') this.ascii(value ? 'true' : 'false');
    else this.text(typeof value === 'string' ? JSON.stringify(value) : String(value));
  }

  /** Any text, encoded as UTF-8. */
  text(text: string): void {
    // UTF-8 takes at most 3 bytes for each UTF-16 code unit.
    this.#room(text.length * 3);
    this.length += utf8.encodeInto(text, this.bytes.subarray(this.length)).written;
  }
}

const keys = fields.map((field) => `${JSON.stringify(field)}:`);

function writeOrder(writer: ByteWriter, order: ListedOrder): void {
  writer.byte(0x7b);
  let first = true;
  for (let index = 0; index < fields.length; index++) {
    const value = order[fields[index]!];
    if (value === undefined) continue;
    if (!first) writer.byte(0x2c);
    first = false;
    writer.ascii(keys[index]!);
    writer.value(value);
  }
  writer.byte(0x7d);
}

/**
 * The body of `listOrders` as UTF-8 bytes: the documented fields of each order that is not cancelled,
 * written straight into bytes, since a big list is written at every change. `starts`, when given,
 * receives where each listed order's bytes start.
 * @example
 * new TextDecoder().decode(listBody([{ id: 1n, status: 'pending' }, { id: 2n, status: 'cancelled' }])) // '[{"id":1}]'
 */
export function listBody(orders: readonly ListedOrder[], starts?: Int32Array): Uint8Array {
  const writer = new ByteWriter(orders.length * 96 + 64);
  let listed = 0;
  writer.byte(0x5b);
  for (const order of orders) {
    if (order.status === 'cancelled') continue;
    if (listed > 0) writer.byte(0x2c);
    if (starts !== undefined && listed < starts.length) starts[listed] = writer.length;
    listed++;
    writeOrder(writer, order);
  }
  writer.byte(0x5d);
  // A list with many cancelled orders is copied to its size; otherwise a view is kept.
  const { bytes, length } = writer;
  return length >= bytes.length * 0.8 ? bytes.subarray(0, length) : bytes.slice(0, length);
}
