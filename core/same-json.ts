import type { JsonValue } from './parse-json.js';

/** An integer's exact value whatever its width (`number` or `bigint`), else undefined. Never through float64. */
function exactInteger(value: JsonValue): bigint | undefined {
  if (typeof value === 'bigint') return value;
  return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : undefined;
}

function sameObject(one: { [key: string]: JsonValue }, other: { [key: string]: JsonValue }): boolean {
  const keys = Object.keys(one);
  if (keys.length !== Object.keys(other).length) return false;
  return keys.every((key) => Object.hasOwn(other, key) && sameJson(one[key]!, other[key]!));
}

/**
 * Whether two JSON values are the same data: objects whatever the order of their keys, arrays item by
 * item, integers by their exact value whatever their width (`1` and `1n` are the same; `9007199254740993n`
 * is not `9007199254740992`). What Pact's verifier sends back of a pact (its keys sorted) is the pact's own.
 * @example
 * sameJson({ id: 9007199254740993n, status: 'shipped' }, { status: 'shipped', id: 9007199254740993n }) // true
 * sameJson({ id: 1 }, { id: 1n }) // true
 * sameJson([1, 2], [2, 1]) // false
 */
export function sameJson(one: JsonValue, other: JsonValue): boolean {
  const integer = exactInteger(one);
  if (integer !== undefined) return integer === exactInteger(other);
  if (one === null || typeof one !== 'object') return one === other;
  if (other === null || typeof other !== 'object' || Array.isArray(one) !== Array.isArray(other)) return false;
  if (Array.isArray(one)) {
    const items = other as JsonValue[];
    return one.length === items.length && one.every((item, index) => sameJson(item, items[index]!));
  }
  return sameObject(one, other as { [key: string]: JsonValue });
}
