import { toInt64 } from './int64.js';
import type { JsonValue } from './parse-json.js';
import type { DocumentedResponse } from './routes.js';
import type { ScenarioId } from './scenario.js';
import type { Finding } from './finding.js';
import { preview } from './preview.js';

function sameId(left: unknown, right: ScenarioId): boolean {
  const id = toInt64(left);
  return id !== undefined && id === BigInt(right);
}

/** The ids a step expects in a list (or not in it) that are not (or are): one finding per id. */
export function listedIdFindings(
  body: JsonValue | undefined,
  ids: readonly ScenarioId[],
  mustBeListed: boolean,
  advisory: boolean,
): Finding[] {
  if (!Array.isArray(body))
    return ids.length > 0
      ? [{ code: 'order-listed', path: '', expected: 'a list to look ids up in', actual: preview(body), advisory }]
      : [];
  const listed = body.map((order) =>
    order !== null && typeof order === 'object' && !Array.isArray(order) ? order.id : undefined,
  );
  return ids
    .filter((id) => listed.some((candidate) => sameId(candidate, id)) !== mustBeListed)
    .map((id) => ({
      code: 'order-listed',
      path: '',
      expected: `order ${id} ${mustBeListed ? 'in' : 'not in'} the list`,
      actual: `ids [${listed.map((candidate) => preview(candidate)).join(', ')}]`,
      advisory,
    }));
}

/** Order ids are unique (the specification: "Unique order identifier"): a list holds each once. */
export function duplicateIdFindings(documented: DocumentedResponse, body: JsonValue | undefined): Finding[] {
  if (!Array.isArray(body) || documented.schema === null || !('items' in documented.schema)) return [];
  const seen = new Map<bigint, number>();
  const findings: Finding[] = [];
  body.forEach((order, index) => {
    const id = order !== null && typeof order === 'object' && !Array.isArray(order) ? toInt64(order.id) : undefined;
    if (id === undefined) return;
    const first = seen.get(id);
    if (first === undefined) seen.set(id, index);
    else
      findings.push({
        code: 'id-unique',
        path: `/${index}/id`,
        expected: 'each order id once',
        actual: `${id} again (first at /${first})`,
      });
  });
  return findings;
}
