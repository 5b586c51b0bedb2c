import { readFile } from 'node:fs/promises';
import { parseJson } from '../../core/parse-json.js';
import { withSafeIntegers } from '../../core/with-safe-integers.js';
import { MockError, MockUsageError } from '../base/errors.js';
import { OrderSeed } from './order-seed.js';

/**
 * Reads a seed file, JSON or YAML: a list of orders or `{ orders: [...] }`, integers read exactly.
 * @example
 * // orders.yaml:
 * // - { id: 9007199254740993, petId: 7, status: shipped }
 * const seed = await loadSeedFile('orders.yaml');
 */
export async function loadSeedFile(path: string): Promise<unknown[]> {
  const orders = await readOrders(path);
  checkedSeed(path, orders);
  return orders as unknown[];
}

/**
 * Reads a seed file into a checked `OrderSeed`, so that the orders are checked once and held compactly.
 * @example
 * createServer({ seed: await readSeedFile('orders-100000.json') })
 */
export async function readSeedFile(path: string): Promise<OrderSeed> {
  return checkedSeed(path, await readOrders(path));
}

async function readOrders(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new MockUsageError(
      'unreadable_seed_file',
      `cannot read seed file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  // The JSON parser is much faster than the YAML one (docs/architecture.md); YAML also reads JSON.
  const json = path.toLowerCase().endsWith('.json');
  let document: unknown;
  try {
    // The YAML parser is loaded only for a YAML file: the mock starts without it.
    document = json
      ? parseJson(text)
      : withSafeIntegers((await import('yaml')).default.parse(text, { intAsBigInt: true }));
  } catch (error) {
    throw new MockUsageError(
      'invalid_seed_file',
      `seed file ${path} is not valid ${json ? 'JSON' : 'YAML or JSON'}: ${(error as Error).message.split('\n')[0]}`,
    );
  }
  return document !== null && typeof document === 'object' && !Array.isArray(document) && 'orders' in document
    ? (document as { orders: unknown }).orders
    : document;
}

function checkedSeed(path: string, orders: unknown): OrderSeed {
  try {
    return OrderSeed.from(orders);
  } catch (error) {
    if (error instanceof MockError)
      throw new MockUsageError('invalid_seed_file', `seed file ${path}: ${error.message}`);
    throw error;
  }
}
