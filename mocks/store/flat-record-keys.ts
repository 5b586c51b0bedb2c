/**
 * Makes the strings `@msw/data` keeps on a record under its own symbols (its primary key) flat, so
 * that comparing them is cheap. Node 20 makes `crypto.randomUUID()` strings as concatenations, which
 * V8 compares piece by piece until something reads their characters; `Collection#update` compares
 * primary keys to find a record's position, from the first record. Reading the last character makes
 * V8 flatten the string in place: the record, its key and every answer stay as they were.
 * @example
 * flattenRecordKeys(await collection.create({ id: 1n })) // its primary key now compares fast
 */
export function flattenRecordKeys(record: object): void {
  for (const symbol of Object.getOwnPropertySymbols(record)) {
    const value: unknown = (record as Record<symbol, unknown>)[symbol];
    if (typeof value === 'string' && value.length > 0) value.charCodeAt(value.length - 1);
  }
}
