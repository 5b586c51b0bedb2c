// Figures the tests would otherwise pin, derived from the route table (core/routes.ts) and the
// scenario loader, so that an operation or a scenario added to the document changes them with it.
import { majorRoutes, type OperationName, pathSegments, type Route, routes, routesAtPath } from '../../core/routes.js';
import { injectsFaults, type Scenario } from '../../core/scenario.js';
import { loadScenarios } from '../../core/scenario-files.js';

/** Every documented response as the reports name it, in the document's order: `listOrders 200`. */
export const documentedResponses: readonly string[] = routes.flatMap((route) =>
  route.responses.map((response) => `${route.operation} ${response.status}`),
);

/** How many responses the document holds, over all its operations. */
export const documentedResponseCount = documentedResponses.length;

/** Every documented response of both majors' documents, as the mock's coverage lists them: v1's, then v2's. */
export const servedResponses: readonly string[] = majorRoutes.flatMap((route) =>
  route.responses.map((response) => `${route.operation} ${response.status}`),
);

/** How many responses the mock's coverage counts, over both majors. */
export const servedResponseCount = servedResponses.length;

/** The documented responses of the majors after v1, as a run's coverage names them: `GET /v2/store/orders 400`. */
export const laterMajorResponses: readonly string[] = majorRoutes
  .filter((route) => route.base !== '/v1')
  .flatMap((route) =>
    route.responses.map((response) => `${route.method} ${route.base}${route.path} ${response.status}`),
  );

/**
 * What a run's coverage line ends with when no suite judged the later majors' operations (no
 * `--state-url`, `--scenario`, a pact of v1 alone), or (`left out`) when `--leave-out-beta` left them out:
 * `; not counted: GET /v2/store/orders 200, 400, 401 (not verified)`.
 */
export function notCountedLater(reason: 'not verified' | 'left out' = 'not verified'): string {
  const named = majorRoutes
    .filter((route) => route.base !== '/v1')
    .map(
      (route) =>
        `${route.method} ${route.base}${route.path} ${route.responses.map((response) => response.status).join(', ')} (${reason})`,
    );
  return named.length === 0 ? '' : `; not counted: ${named.join('; ')}`;
}

/**
 * What the Playwright reporter's coverage line ends with when no test called an operation the document
 * marks beta or experimental: those operations counted apart, none of their responses seen.
 */
export const markedApartNoneSeen: string = ` Counted apart, never failing the run: ${majorRoutes
  .filter((route) => route.stability !== null)
  .map((route) => `${route.operation} (${route.stability}) 0 of ${route.responses.length}`)
  .join(', ')}.`;

/** The documented responses but the given ones (or those of the given operations), in the document's order. */
export function responsesBut(...left: readonly (string | OperationName)[]): string[] {
  return documentedResponses.filter(
    (response) => !left.includes(response) && !left.includes(response.split(' ')[0] as OperationName),
  );
}

/** The documented responses of the given operations, in the document's order. */
export function responsesOf(...operations: readonly OperationName[]): string[] {
  return routes
    .filter((route) => operations.includes(route.operation))
    .flatMap((route) => route.responses.map((response) => `${route.operation} ${response.status}`));
}

/**
 * The methods a path below the base URL allows, as `Allow` lists them: its routes' methods in the
 * document's order, HEAD after GET, then OPTIONS.
 * @example allowAt('/store/orders/1') // 'DELETE, OPTIONS' for the v1 document
 */
export function allowAt(path: string): string {
  const methods = routesAtPath(pathSegments(path)).flatMap(({ route }: { route: Route }) =>
    route.method === 'GET' ? ['GET', 'HEAD'] : [route.method],
  );
  return [...methods, 'OPTIONS'].join(', ');
}

/** The scenarios a provider run without faults plays (`--suite scenarios`): those injecting no fault. */
export async function contractScenarios(): Promise<Scenario[]> {
  return (await loadScenarios()).filter((scenario) => !injectsFaults(scenario));
}
