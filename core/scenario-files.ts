import * as fileSystem from 'node:fs/promises';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stepFaultViolations } from './fault-format.js';
import { readRegularFile } from './regular-file.js';
import { withSafeIntegers } from './with-safe-integers.js';
import { packageFolder } from './package-folder.js';
import { ScenarioError, stepTarget, type Scenario, type ScenarioStep, type StepRequest } from './scenario.js';
import { duplicateOrderId, orderInputViolations, type OrderInput } from './provider-state.js';
import { matchRoute } from './routes.js';
import { schemaValidator, violationSummary, type Violation } from './schema-validator.js';

/**
 * The folder of the scenarios the kit ships.
 * @example
 * await loadScenarios({ directory: scenarioDirectory });
 */
export const scenarioDirectory = packageFolder(import.meta.url, 'scenarios', 'scenario.schema.json');

let validateScenario: ((value: unknown) => Violation[]) | undefined;

async function scenarioValidator() {
  if (validateScenario === undefined) {
    const schema = JSON.parse(await readFile(join(scenarioDirectory, 'scenario.schema.json'), 'utf8')) as object;
    validateScenario = schemaValidator('scenario', schema);
  }
  return validateScenario;
}

/**
 * Reads one scenario file and checks it against the scenario schema and the Order schema.
 * @throws ScenarioError `invalid_scenario`, naming the file and the field.
 * @example
 * const scenario = await loadScenarioFile('scenarios/cancel-shipped-order.yaml');
 */
export async function loadScenarioFile(file: string): Promise<Scenario> {
  const text = await readScenarioText(file);
  const key = `${file}\0${text}`;
  let loaded = checkedScenarios.get(key);
  if (loaded === undefined) {
    loaded = checkedScenario(file, text);
    if (checkedScenarios.size >= checkedScenariosKept) checkedScenarios.delete(checkedScenarios.keys().next().value!);
    checkedScenarios.set(key, loaded);
    // A file that fails its checks is read and checked again next time, and fails with the same error.
    loaded.catch(() => checkedScenarios.delete(key));
  }
  // A copy for each caller: what one run does with its scenarios never reaches another's.
  return structuredClone(await loaded);
}

// The scenarios already parsed and checked, by file and text: a run loads the same files as the run before
// it (a verification per test, a proxy per session), and parsing the YAML and checking it against the
// schemas is most of a load (about 28 ms of CPU for the 31 shipped files). The text is read every time, so
// an edited file is parsed again.
const checkedScenarios = new Map<string, Promise<Scenario>>();
const checkedScenariosKept = 256;

async function readScenarioText(file: string): Promise<string> {
  let text: string | undefined;
  try {
    // Opened without waiting: a FIFO named NAME.yaml is refused, never read for ever.
    text = await readRegularFile(fileSystem, { path: file, action: `read the scenario ${file}` });
  } catch (error) {
    throw new ScenarioError('invalid_scenario', (error as Error).message, { cause: error });
  }
  if (text === undefined) throw new ScenarioError('invalid_scenario', `${file}: ENOENT: no such file or directory`);
  return text;
}

async function checkedScenario(file: string, text: string): Promise<Scenario> {
  let document: unknown;
  try {
    // Loaded when a scenario file is read: the mock starts with the scenarios bundled, without the YAML parser.
    const { parse } = (await import('yaml')).default;
    document = withSafeIntegers(parse(text, { intAsBigInt: true }));
  } catch (error) {
    throw new ScenarioError('invalid_scenario', `${file}: ${(error as Error).message.split('\n')[0]}`);
  }
  const violations = (await scenarioValidator())(document);
  if (violations.length > 0) {
    throw new ScenarioError(
      'invalid_scenario',
      `${file}: ${violations.map(({ path, message }) => `${path || 'the file'} ${message}`).join('; ')}`,
    );
  }
  const scenario = document as Omit<Scenario, 'name' | 'file'>;
  const requestViolations = scenario.steps.flatMap((step, index) =>
    stepRequestViolations(step.request, `/steps/${index}`, scenario.steps.slice(0, index)),
  );
  if (requestViolations.length > 0)
    throw new ScenarioError('invalid_scenario', `${file}: ${requestViolations.join('; ')}`);
  const faultViolations = scenario.steps.flatMap((step, index) => {
    if (step.fault === undefined) return [];
    const at = `/steps/${index}`;
    const found = stepFaultViolations(step.fault).map(({ path, message }) => `${at}/fault${path} ${message}`);
    if (matchRoute(step.request.method, step.request.path, step.request.base) === undefined)
      found.push(`${at}/request is not a call of an operation, so it cannot carry a fault`);
    return found;
  });
  if (faultViolations.length > 0) throw new ScenarioError('invalid_scenario', `${file}: ${faultViolations.join('; ')}`);
  if (scenario.state !== undefined) {
    const orders = scenario.state.params.orders;
    const invalid = orderInputViolations(orders, '/state/params/orders');
    if (invalid.length > 0) throw new ScenarioError('invalid_scenario', `${file}: ${violationSummary(invalid)}.`);
    const duplicate = duplicateOrderId(orders as OrderInput[], '/state/params/orders');
    if (duplicate !== undefined)
      throw new ScenarioError(
        'invalid_scenario',
        `${file}: ${duplicate.violation.path} ${duplicate.violation.message}.`,
      );
  }
  const name = file
    .split(/[\\/]/)
    .pop()!
    .replace(/\.ya?ml$/, '');
  return { name, file, ...scenario };
}

// What the schema cannot say of a request: its query in one place, of the operation's own parameters and
// of a length every server takes, and a cursor to follow only on v2's list, after a page of it.
function stepRequestViolations(request: StepRequest, at: string, earlier: readonly ScenarioStep[]): string[] {
  const found: string[] = [];
  if (request.query !== undefined && request.path.includes('?'))
    found.push(`${at}/request/path holds a query beside request/query: write the query in one place`);
  const route = matchRoute(request.method, request.path, request.base)?.route;
  if (request.query !== undefined && route !== undefined) {
    // A name the operation does not declare is a typo the provider would ignore: the step would judge
    // the unfiltered call and pass (spec gap 65).
    const declared = (route.query as readonly { name: string }[]).map(({ name }) => name);
    for (const name of Object.keys(request.query).filter((name) => !declared.includes(name)))
      found.push(
        `${at}/request/query/${name} is no query parameter of ${route.operation} (${route.method} ${route.base}${route.path}): ${declared.length === 0 ? 'it takes none' : `it takes ${declared.join(', ')}`}`,
      );
  }
  // RFC 9110 section 4.1: a server should take a request line of at least 8000 octets; past it, its 414 or
  // 431 would be the scenario's fault blamed on the provider (spec gap 65).
  const octets = new TextEncoder().encode(`${request.base ?? '/v1'}${stepTarget(request)}`).length;
  if (octets > longestTarget)
    found.push(
      `${at}/request/${request.query === undefined ? 'path' : 'query'} makes a target of ${octets} octets, past the ${longestTarget} every server must take (RFC 9110 section 4.1)`,
    );
  if (request.cursor === 'follow') {
    if (request.base !== '/v2')
      found.push(`${at}/request/cursor follow needs base /v2: only v2's pages give a nextCursor`);
    else if (route?.operation !== 'listOrdersV2')
      found.push(`${at}/request/cursor follow is for v2's list (GET /v2/store/orders): only its pages take a cursor`);
    else if (
      !earlier.some(
        (step) =>
          matchRoute(step.request.method, step.request.path, step.request.base)?.route.operation === 'listOrdersV2',
      )
    )
      found.push(
        `${at}/request/cursor follow needs a v2 page before it to follow: no earlier step is a call of v2's list (GET /v2/store/orders)`,
      );
    if (request.query?.cursor !== undefined)
      found.push(`${at}/request/query/cursor and request/cursor both give a cursor: write one`);
  }
  return found;
}

/** The longest request target a step may send, in octets, its base path included. */
const longestTarget = 8000;

/**
 * Loads scenarios by name (all by default) from a folder (the kit's own by default).
 * @throws ScenarioError `unknown_scenario` for an unknown name, or `invalid_scenario`.
 * @example
 * const scenarios = await loadScenarios(); // every scenario the kit ships
 */
export async function loadScenarios(
  options: { names?: readonly string[]; directory?: string } = {},
): Promise<Scenario[]> {
  const directory = options.directory ?? scenarioDirectory;
  // By name, so that `a` comes before `a-b` (`a-b.yaml` sorts before `a.yaml`).
  const byName = (file: string) => file.replace(/\.ya?ml$/, '');
  const known = (await readdir(directory))
    .filter((file) => /\.ya?ml$/.test(file))
    .sort((left, right) => (byName(left) < byName(right) ? -1 : byName(left) > byName(right) ? 1 : 0));
  const knownNames = known.map(byName);
  const names = options.names ?? knownNames;
  for (const name of names) {
    if (!knownNames.includes(name))
      throw new ScenarioError(
        'unknown_scenario',
        `unknown scenario ${JSON.stringify(name)}; known: ${knownNames.join(', ')}`,
      );
  }
  return Promise.all(names.map((name) => loadScenarioFile(join(directory, known[knownNames.indexOf(name)]!))));
}
