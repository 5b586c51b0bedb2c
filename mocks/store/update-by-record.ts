import { Collection } from '@msw/data';
import type { StandardSchemaV1 } from '@standard-schema/spec';

type Probe = { id: number };

const passThrough: StandardSchemaV1<Probe, Probe> = {
  '~standard': { version: 1, vendor: 'petstore-contract-kit', validate: (value) => ({ value: value as Probe }) },
};

let answer: Promise<boolean> | undefined;

/**
 * Whether the installed `@msw/data` updates a record given as the record itself without searching
 * the collection for it first. `update(record)` in 1.1.7 searches by primary key from the first
 * record and then scans again, twice the work of `update` by an id predicate; a release that takes
 * the patch in `docs/decisions/msw-data-update.md` does not search. Observed once per process on a
 * collection of two records, by whether `update` calls `findFirst`: a behaviour, not a version.
 * @example
 * const cheap = await updatesByRecordWithoutSearch(); // false with @msw/data 1.1.7
 * await collection.update(cheap ? record : (q) => q.where({ id: record.id }), { data });
 */
export function updatesByRecordWithoutSearch(collectionClass: typeof Collection = Collection): Promise<boolean> {
  if (collectionClass !== Collection) return probe(collectionClass);
  answer ??= probe(collectionClass).catch(() => false);
  return answer;
}

async function probe(collectionClass: typeof Collection): Promise<boolean> {
  const collection = new collectionClass({ schema: passThrough });
  await collection.create({ id: 1 });
  const second = await collection.create({ id: 2 });
  let searched = false;
  const findFirst = collection.findFirst.bind(collection);
  collection.findFirst = ((...args: Parameters<typeof findFirst>) => {
    searched = true;
    return findFirst(...args);
  }) as typeof collection.findFirst;
  const updated = await collection.update(second, {
    data: (draft) => {
      draft.id = 2;
    },
  });
  return !searched && updated?.id === 2;
}
