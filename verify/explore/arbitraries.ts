// What exploration generates: provider states and sequences of commands, with fast-check.
import type { Arbitrary } from 'fast-check';
import type { KeyChoice } from '../../core/authorization.js';
import { int64Maximum, int64Minimum } from '../../core/int64.js';
import type { OrderInput, OrderStatus } from '../../core/provider-state.js';
import { installHint } from '../base/optional-dependencies.js';
import { two53 } from './exploration.js';
import { routes, storeListing, type Route } from '../../core/routes.js';
import { operationDefinitions, type OrderTarget } from '../../core/operation-definitions.js';
import { NearPathWithoutKey, nearPaths } from './near-path-without-key.js';
import {
  CallOnOrder,
  CallOperation,
  CallWithId,
  CancelAgainThenList,
  CancelBurst,
  ListDuringCancels,
  type ExplorationCommand,
} from './commands.js';
import { VerifyError } from '../base/errors.js';
import { WalkV2List } from './walk-v2-list.js';

/** fast-check, as the exploration loads it: only when it runs. */
export type FastCheck = typeof import('fast-check');

/**
 * fast-check, loaded when an exploration runs: an optional peer of the package, which the
 * petstore-verify command carries inside its bundle.
 * @throws Error with the install line when it is not installed.
 */
export async function loadFastCheck(): Promise<FastCheck> {
  try {
    return await import('fast-check');
  } catch {
    throw new VerifyError(
      'missing_optional_dependency',
      `petstore-contract-kit ${installHint(['fastCheck']) ?? 'needs fast-check'}`,
    );
  }
}

// Ids where a provider's int64 handling breaks: zero, the edges of a double's exact integers, int64's edges.
const specialIds: readonly bigint[] = [
  0n,
  1n,
  -1n,
  7n,
  42n,
  two53 - 1n,
  two53,
  two53 + 1n,
  -two53,
  -two53 - 1n,
  -(two53 - 1n),
  int64Maximum,
  int64Maximum - 1n,
  int64Minimum,
  int64Minimum + 1n,
];

/** Order ids (special ids, small ones, the whole int64 range) and pet ids. */
function idArbitraries(fc: FastCheck): { id: Arbitrary<bigint>; petId: Arbitrary<bigint> } {
  return {
    id: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...specialIds) },
      { weight: 3, arbitrary: fc.bigInt({ min: -1000n, max: 1000n }) },
      { weight: 2, arbitrary: fc.bigInt({ min: int64Minimum, max: int64Maximum }) },
    ),
    petId: fc.oneof(
      fc.constantFrom(0n, 1n, int64Minimum, int64Maximum, two53 + 1n),
      fc.bigInt({ min: int64Minimum, max: int64Maximum }),
    ),
  };
}

function pad(value: number, length = 2): string {
  return String(value).padStart(length, '0');
}

/** A ship date in one of the RFC 3339 forms a provider may write: Z, fractional seconds, +00:00, another offset. */
function shipDateArbitrary(fc: FastCheck): Arbitrary<string> {
  return fc
    .record({
      at: fc.integer({ min: Date.UTC(2020, 0, 1) / 1000, max: Date.UTC(2030, 11, 31) / 1000 }),
      form: fc.constantFrom('Z', 'fraction', 'zero-offset', 'offset'),
    })
    .map(({ at, form }) => {
      const date = new Date(at * 1000);
      if (form === 'fraction') return new Date(at * 1000 + 250).toISOString();
      const shift = form === 'offset' ? 5 * 60 + 30 : 0;
      const local = new Date(date.getTime() + shift * 60_000);
      const text = `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
      return form === 'Z' ? `${text}Z` : `${text}${form === 'offset' ? '+05:30' : '+00:00'}`;
    });
}

/** The orders of a generated provider state: unique ids, 0 to 20 mostly, and now and then 2^53 beside 2^53 + 1. */
function stateArbitrary(fc: FastCheck, ids: ReturnType<typeof idArbitraries>): Arbitrary<OrderInput[]> {
  const orderArbitrary = fc.record(
    {
      id: ids.id,
      petId: ids.petId,
      // Quantities beyond 32 bits too: the schema sets no format, so any JSON integer comes back exactly.
      quantity: fc.oneof(
        fc.constant(0),
        fc.integer({ min: -3, max: 1000 }),
        fc.constantFrom(2_147_483_647, 2_147_483_648, 4_294_967_296, -2_147_483_649),
      ),
      shipDate: shipDateArbitrary(fc),
      complete: fc.boolean(),
      status: fc.constantFrom<OrderStatus>('pending', 'pending', 'shipped', 'cancelled'),
    },
    { requiredKeys: ['id', 'status'] },
  );
  return fc
    .tuple(
      fc.oneof(
        { weight: 9, arbitrary: fc.uniqueArray(orderArbitrary, { selector: (order) => order.id, maxLength: 20 }) },
        {
          weight: 1,
          arbitrary: fc.uniqueArray(orderArbitrary, { selector: (order) => order.id, minLength: 21, maxLength: 60 }),
        },
      ),
      fc.constantFrom('none', 'none', 'none', 'above', 'below'),
    )
    .map(([orders, neighbours]) => {
      const pair = neighbours === 'above' ? [two53, two53 + 1n] : neighbours === 'below' ? [-two53, -two53 - 1n] : [];
      const extra = pair
        .filter((id) => !orders.some((order) => order.id === id))
        .map((id): OrderInput => ({ id, status: 'pending' }));
      return [...orders, ...extra] as OrderInput[];
    });
}

type KeyArbitraries = { accepted: Arbitrary<KeyChoice>; refused: Arbitrary<KeyChoice> };

// An operation on one order: aimed at the kinds of order its definition names, by weight, near a generated id.
function targetArbitrary(fc: FastCheck, route: Route): Arbitrary<OrderTarget> | undefined {
  const targets = operationDefinitions[route.operation].targets;
  if (targets === undefined || route.parameter === null) return undefined;
  return fc.oneof(
    ...Object.entries(targets).map(([kind, weight]) => ({
      weight: weight!,
      arbitrary: fc.constant(kind as OrderTarget),
    })),
  );
}

/**
 * The commands of each route of the table: one with an accepted key and one with a refused key for an
 * operation without a parameter or on one order (its definition's targets); one with any key for an
 * operation whose parameter names no order, or now and then a near path without a key.
 */
function routeCommands(fc: FastCheck, ids: ReturnType<typeof idArbitraries>, keys: KeyArbitraries) {
  const withKeys: Arbitrary<ExplorationCommand>[] = [];
  const others: Arbitrary<ExplorationCommand>[] = [];
  for (const route of routes) {
    const { operation } = route;
    const kind = targetArbitrary(fc, route);
    if (route.parameter === null)
      withKeys.push(...[keys.accepted, keys.refused].map((key) => key.map((k) => new CallOperation(operation, k))));
    else if (kind !== undefined)
      withKeys.push(
        ...[keys.accepted, keys.refused].map((key) =>
          fc
            .tuple(kind, ids.id, key)
            .map(([target, near, k]): ExplorationCommand => new CallOnOrder(operation, target, near, k)),
        ),
      );
    else
      others.push(
        fc
          .tuple(ids.petId, fc.oneof(keys.accepted, keys.refused))
          .map(([id, key]): ExplorationCommand => new CallWithId(operation, id, key)),
      );
  }
  const nearPath = fc
    .tuple(fc.constantFrom(...nearPaths), ids.id)
    .map(([{ operation, kind }, near]): ExplorationCommand => new NearPathWithoutKey(operation, kind, near));
  return { withKeys, others, nearPath };
}

/**
 * Every command exploration generates, weighted towards what changes the store: each route's calls
 * (from the route table and the definitions), and the cancel's own sequences (a burst, a list during
 * cancels, a refused cancel then a list).
 */
function commandArbitraries(fc: FastCheck, ids: ReturnType<typeof idArbitraries>): Arbitrary<ExplorationCommand>[] {
  const keys: KeyArbitraries = {
    accepted: fc.oneof(
      { weight: 5, arbitrary: fc.constant<KeyChoice>('valid') },
      { weight: 1, arbitrary: fc.constant<KeyChoice>('lowercase-scheme') },
    ),
    refused: fc.constantFrom<KeyChoice>('none', 'wrong', 'basic', 'prefixed', 'suffixed', 'containing', 'truncated'),
  };
  const { withKeys, others, nearPath } = routeCommands(fc, ids, keys);
  return [
    ...withKeys,
    ...cancelSequences(fc, ids),
    // The operations whose parameter names no order (the pet read), or now and then a request without a
    // key on a path near a documented one.
    others.length === 0
      ? nearPath
      : fc.oneof({ weight: 3, arbitrary: fc.oneof(...others) }, { weight: 1, arbitrary: nearPath }),
  ];
}

/**
 * For each operation that cancels an order (its definition's `cancels`): a cancel, or now and then a
 * refused cancel of a cancelled order and a list after it (one slot, so that the other commands keep
 * their share of every sequence); a burst of cancels of one pending order; a list during cancels.
 */
function cancelSequences(fc: FastCheck, ids: ReturnType<typeof idArbitraries>): Arbitrary<ExplorationCommand>[] {
  const list = storeListing().operation;
  return routes
    .filter((route) => route.parameter !== null && operationDefinitions[route.operation].cancels !== undefined)
    .flatMap(({ operation }) => [
      fc.oneof(
        {
          weight: 3,
          arbitrary: fc
            .tuple(fc.constantFrom<OrderTarget>('pending', 'shipped', 'cancelled', 'pending'), ids.id)
            .map(([kind, near]): ExplorationCommand => new CallOnOrder(operation, kind, near)),
        },
        {
          weight: 1,
          arbitrary: ids.id.map((near): ExplorationCommand => new CancelAgainThenList(operation, list, near)),
        },
      ),
      fc
        .tuple(ids.id, fc.integer({ min: 2, max: 6 }))
        .map(([near, count]): ExplorationCommand => new CancelBurst(operation, near, count)),
      fc
        .array(ids.id, { minLength: 1, maxLength: 3 })
        .map((nears): ExplorationCommand => new ListDuringCancels(operation, list, nears)),
    ]);
}

/**
 * What exploration generates. States: 0 to 20 orders, sometimes more; ids over the whole int64 range;
 * every field present or absent, with edge values; statuses mixed. Commands: every kind of call,
 * weighted towards what changes the store.
 */
export function arbitraries(
  fc: FastCheck,
  { walksV2 = true }: { walksV2?: boolean } = {},
): {
  stateArbitrary: Arbitrary<OrderInput[]>;
  commandArbitraries: Arbitrary<ExplorationCommand>[];
} {
  const ids = idArbitraries(fc);
  const commands = commandArbitraries(fc, ids);
  return {
    stateArbitrary: stateArbitrary(fc, ids),
    commandArbitraries: walksV2 ? [...commands, v2Walks(fc)] : commands,
  };
}

/**
 * Walks of v2's list: a status filter or none, and a limit from 1 to 5 (pages the generated stores
 * fill) or none (the default, 20).
 */
function v2Walks(fc: FastCheck): Arbitrary<ExplorationCommand> {
  return fc
    .record(
      {
        status: fc.constantFrom<OrderStatus>('pending', 'shipped', 'cancelled'),
        limit: fc.integer({ min: 1, max: 5 }),
      },
      { requiredKeys: [] },
    )
    .map((walk): ExplorationCommand => new WalkV2List(walk));
}
