/** A value of a listed order a saved scenario's state could not hold; `id` absent when the entry had no int64 id. */
export interface DroppedValueItem {
  id?: bigint;
  field: string;
  reason: string;
}

/**
 * The console's line for a value a saved scenario's state left out: which value of which order, why,
 * and that the file does not hold it (the state it sets holds the order without it).
 * @example
 * droppedValueLine({ id: 1n, field: 'quantity', reason: 'must be integer' }, 'saved/bug.yaml')
 * // 'dropped from the state of saved/bug.yaml: the quantity of order 1 (must be integer); the saved scenario does not hold it, so no replay can show a finding on it'
 */
export function droppedValueLine(item: DroppedValueItem, file: string): string {
  return `dropped from the state of ${file}: ${droppedValueText(item)}; the saved scenario does not hold it, so no replay can show a finding on it`;
}

/**
 * Which value of which order was left out, and why.
 * @example
 * droppedValueText({ id: 1n, field: 'quantity', reason: 'must be integer' }) // 'the quantity of order 1 (must be integer)'
 */
export function droppedValueText(item: DroppedValueItem): string {
  return item.id === undefined
    ? `a listed entry whose id is ${item.reason}`
    : item.field === 'id'
      ? `order ${item.id} (${item.reason})`
      : `the ${item.field} of order ${item.id} (${item.reason})`;
}
