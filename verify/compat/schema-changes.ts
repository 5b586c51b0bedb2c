import type { JsonValue } from '../../core/parse-json.js';
import { sameJson } from '../../core/same-json.js';
import { isNode, type Node } from './api-document.js';
import { type CompatFinding, compatFinding } from './compat-finding.js';
import { mergedSchema } from './merged-schema.js';
import { isMultipleOf } from './multiple-of.js';
import type { CompatRuleId } from './compat-rules.js';

/** Which side of an exchange a schema describes: what the consumer sends, or what it reads (a body, or a header). */
export type SchemaSide = 'request' | 'response' | 'response-header';

type ChangeKind =
  | 'removed'
  | 'added'
  | 'type'
  | 'enumRemoved'
  | 'enumAdded'
  | 'widened'
  | 'narrowed'
  | 'becameOptional'
  | 'composition'
  | 'fieldsAllowed'
  | 'fieldsRefused';

// The direction rule: what narrows a request breaks a client sending it; what widens a response, or
// takes from it, breaks a client reading it.
const ruleOf: Record<SchemaSide, Record<ChangeKind, CompatRuleId>> = {
  response: {
    removed: 'response-property-removed',
    added: 'response-property-added',
    type: 'response-property-type-changed',
    enumRemoved: 'response-property-enum-value-removed',
    enumAdded: 'response-property-enum-value-added',
    widened: 'response-property-widened',
    narrowed: 'response-property-narrowed',
    becameOptional: 'response-property-became-optional',
    composition: 'response-schema-changed',
    fieldsAllowed: 'response-additional-properties-allowed',
    fieldsRefused: 'response-additional-properties-refused',
  },
  // A header is one text: what an object's fields would change is not reasoned about there.
  'response-header': {
    removed: 'response-header-schema-changed',
    added: 'response-header-schema-changed',
    type: 'response-header-type-changed',
    enumRemoved: 'response-header-enum-value-removed',
    enumAdded: 'response-header-enum-value-added',
    widened: 'response-header-widened',
    narrowed: 'response-header-narrowed',
    becameOptional: 'response-header-schema-changed',
    composition: 'response-header-schema-changed',
    fieldsAllowed: 'response-header-schema-changed',
    fieldsRefused: 'response-header-schema-changed',
  },
  request: {
    removed: 'request-parameter-narrowed',
    added: 'request-parameter-widened',
    type: 'request-parameter-type-changed',
    enumRemoved: 'request-parameter-enum-value-removed',
    enumAdded: 'request-parameter-enum-value-added',
    widened: 'request-parameter-widened',
    narrowed: 'request-parameter-narrowed',
    becameOptional: 'request-parameter-widened',
    composition: 'request-parameter-schema-changed',
    fieldsAllowed: 'request-additional-properties-allowed',
    fieldsRefused: 'request-additional-properties-refused',
  },
};

const upperBounds = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;
const lowerBounds = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;
const compositions = ['allOf', 'oneOf', 'anyOf', 'not'] as const;

/**
 * The types a schema allows besides null, sorted; `undefined` when it names none (any value).
 * @example
 * typesOf({ type: ['string', 'null'] }) // ['string']
 */
export function typesOf(schema: Node): string[] | undefined {
  const type = schema.type;
  const types = (Array.isArray(type) ? type : typeof type === 'string' ? [type] : []).filter(
    (name): name is string => typeof name === 'string' && name !== 'null',
  );
  return types.length === 0 ? undefined : [...new Set(types)].sort();
}

/**
 * Whether a schema allows null (OpenAPI 3.1's `type: [x, 'null']`, 3.0's `nullable: true`).
 * @example
 * allowsNull({ type: 'integer', nullable: true }) // true
 */
export function allowsNull(schema: Node): boolean {
  const type = schema.type;
  return (
    schema.nullable === true ||
    type === 'null' ||
    (Array.isArray(type) && type.includes('null')) ||
    (Array.isArray(schema.enum) && schema.enum.includes(null))
  );
}

/**
 * A schema's values as an enum (null aside): `enum`, or `const` as one value, `undefined` when it has neither.
 * @example
 * enumOf({ const: 'pending' }) // ['pending']
 */
export function enumOf(schema: Node): JsonValue[] | undefined {
  if (Array.isArray(schema.enum)) return (schema.enum as JsonValue[]).filter((value) => value !== null);
  return 'const' in schema ? [schema.const as JsonValue] : undefined;
}

/**
 * A schema's type in words: `integer (int64)`, `string or null`, `any value`.
 * @example
 * describeType({ type: 'integer', format: 'int64' }) // 'integer (int64)'
 */
export function describeType(schema: Node): string {
  const types = typesOf(schema);
  const format = typeof schema.format === 'string' ? ` (${schema.format})` : '';
  const base = types === undefined ? 'any value' : `${types.join(' or ')}${format}`;
  return allowsNull(schema) && types !== undefined ? `${base} or null` : base;
}

function shown(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? String(value);
}

function numeric(value: unknown): bigint | number | undefined {
  return typeof value === 'number' || typeof value === 'bigint' ? value : undefined;
}

/**
 * Orders two numbers of a document or a body: -1, 0 or 1, exactly for integers of any width.
 * @example
 * compareNumbers(9007199254740993n, 9007199254740992) // 1
 */
export function compareNumbers(one: bigint | number, other: bigint | number): number {
  // Exact for integers of any width; a fraction against a bigint is compared as numbers.
  if (typeof one === 'bigint' && typeof other === 'bigint') return one < other ? -1 : one > other ? 1 : 0;
  const a = Number(one);
  const b = Number(other);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** What two schemas are compared for: the documents' resolvers, where the finding goes, which side. */
export interface SchemaComparison {
  side: SchemaSide;
  operation: string;
  resolveOld(node: unknown): unknown;
  resolveNew(node: unknown): unknown;
  findings: CompatFinding[];
}

class SchemaWalk {
  readonly #pairs: WeakMap<object, WeakSet<object>>;
  readonly #asking: boolean;

  /** `asking`: a walk that only asks whether anything changed, sharing its pairs with the walks it starts. */
  constructor(
    readonly comparison: SchemaComparison,
    shared?: { pairs: WeakMap<object, WeakSet<object>> },
  ) {
    this.#pairs = shared?.pairs ?? new WeakMap();
    this.#asking = shared !== undefined;
  }

  note(kind: ChangeKind, path: string, expected: string, actual: string): void {
    const { side, operation, findings } = this.comparison;
    findings.push(compatFinding(ruleOf[side][kind], { operation, path, expected, actual }));
  }

  #visited(one: Node, other: Node): boolean {
    // A recursive schema is compared once per pair of nodes, so a cycle of $refs ends.
    let seen = this.#pairs.get(one);
    if (seen === undefined) this.#pairs.set(one, (seen = new WeakSet()));
    if (seen.has(other)) return true;
    seen.add(other);
    return false;
  }

  compare(oldRaw: unknown, newRaw: unknown, path: string): void {
    const oldSchema = this.comparison.resolveOld(oldRaw);
    const newSchema = this.comparison.resolveNew(newRaw);
    const oldNode = isNode(oldSchema) ? oldSchema : {};
    const newNode = isNode(newSchema) ? newSchema : {};
    if (this.#visited(oldNode, newNode)) return;
    // An allOf is one object: compared merged, a field moved from one member to another is no change.
    const old = mergedSchema(oldNode, this.comparison.resolveOld);
    const next = mergedSchema(newNode, this.comparison.resolveNew);
    if (compositions.some((key) => key in old || key in next) && !this.#compositions(old, next, path)) return;
    if (!this.#types(old, next, path)) return;
    this.#nullable(old, next, path);
    this.#enum(old, next, path);
    this.#bounds(old, next, path);
    this.#multipleOf(old, next, path);
    this.#properties(old, next, path);
    this.#additionalProperties(old, next, path);
    if (old.items !== undefined || next.items !== undefined) this.compare(old.items, next.items, `${path}/[]`);
  }

  /**
   * False when a composition changed where the walk does not reason (named, nothing below compared).
   * Its members are compared through their `$ref`s, not as written: a `$ref` kept while its target
   * changed is a change. A change in a `oneOf`, `anyOf` or `not` is named only, since which branch a
   * value takes (or its negation) flips what widening means. An `allOf` is merged before
   * (`mergedSchema`); one left here has members that disagree on a keyword (two `oneOf`s, two
   * maximums), and is compared member by member when both have as many, else named.
   */
  #compositions(old: Node, next: Node, path: string): boolean {
    const byHand = () => {
      this.note('composition', path, 'the same allOf/oneOf/anyOf/not', 'a changed one: compare by hand');
      return false;
    };
    for (const key of compositions) {
      const was = old[key];
      const is = next[key];
      if (was === undefined && is === undefined) continue;
      if (key === 'not') {
        if (was === undefined || is === undefined || this.#changes(was, is, path)) return byHand();
        continue;
      }
      if (!Array.isArray(was) || !Array.isArray(is) || was.length !== is.length) return byHand();
      if (key !== 'allOf' && was.some((member, index) => this.#changes(member, is[index], `${path}/${key}/${index}`)))
        return byHand();
    }
    const allOld = old.allOf;
    const allNew = next.allOf;
    if (Array.isArray(allOld) && Array.isArray(allNew))
      for (const [index, member] of allOld.entries()) this.compare(member, allNew[index], path);
    return true;
  }

  /** Whether two schemas differ anywhere the walk looks, without naming it. */
  #changes(old: unknown, next: unknown, path: string): boolean {
    const findings: CompatFinding[] = [];
    // The asking walks share one memory of the pairs compared, so a recursive oneOf ends; the main
    // walk's is not theirs, as a pair they compared is still to be named by it.
    const pairs = this.#asking ? this.#pairs : new WeakMap<object, WeakSet<object>>();
    new SchemaWalk({ ...this.comparison, findings }, { pairs }).compare(old, next, path);
    return findings.length > 0;
  }

  /** False when the type changed: nothing below it is compared then. */
  #types(old: Node, next: Node, path: string): boolean {
    const oldTypes = typesOf(old);
    const newTypes = typesOf(next);
    if (oldTypes === undefined || newTypes === undefined) {
      if (oldTypes !== undefined) this.note('widened', path, describeType(old), 'any value');
      if (newTypes !== undefined) this.note('narrowed', path, 'any value', describeType(next));
      return true;
    }
    const oldFormat = typeof old.format === 'string' ? old.format : undefined;
    const newFormat = typeof next.format === 'string' ? next.format : undefined;
    const sameTypes = oldTypes.join() === newTypes.join();
    if (!sameTypes || (oldFormat !== undefined && newFormat !== undefined && oldFormat !== newFormat)) {
      this.note('type', path, describeType(old), describeType(next));
      return false;
    }
    if (oldFormat !== newFormat) {
      this.note(oldFormat === undefined ? 'narrowed' : 'widened', path, describeType(old), describeType(next));
    }
    return true;
  }

  #nullable(old: Node, next: Node, path: string): void {
    const was = allowsNull(old);
    const is = allowsNull(next);
    if (was && !is) this.note('narrowed', path, 'nullable', 'not nullable');
    if (!was && is) this.note('widened', path, 'not nullable', 'nullable');
  }

  #enum(old: Node, next: Node, path: string): void {
    const oldValues = enumOf(old);
    const newValues = enumOf(next);
    if (oldValues === undefined && newValues === undefined) return;
    if (oldValues === undefined) {
      this.note('narrowed', path, 'any value of its type', `one of ${newValues!.map(shown).join(', ')}`);
      return;
    }
    if (newValues === undefined) {
      this.note('widened', path, `one of ${oldValues.map(shown).join(', ')}`, 'any value of its type');
      return;
    }
    for (const value of oldValues) {
      if (!newValues.some((kept) => sameJson(kept, value))) {
        this.note('enumRemoved', path, `the value ${shown(value)}`, `one of ${newValues.map(shown).join(', ')}`);
      }
    }
    for (const value of newValues) {
      if (!oldValues.some((had) => sameJson(had, value))) {
        this.note('enumAdded', path, `one of ${oldValues.map(shown).join(', ')}`, `also ${shown(value)}`);
      }
    }
  }

  #bounds(old: Node, next: Node, path: string): void {
    for (const [keys, upper] of [
      [upperBounds, true],
      [lowerBounds, false],
    ] as const) {
      for (const key of keys) {
        const was = numeric(old[key]);
        const is = numeric(next[key]);
        if (was === undefined && is === undefined) continue;
        const expected = was === undefined ? `no ${key}` : `${key} ${shown(was)}`;
        const actual = is === undefined ? `no ${key}` : `${key} ${shown(is)}`;
        if (was !== undefined && is !== undefined) {
          const order = compareNumbers(is, was);
          if (order === 0) continue;
          this.note(order > 0 === upper ? 'widened' : 'narrowed', path, expected, actual);
        } else this.note(is === undefined ? 'widened' : 'narrowed', path, expected, actual);
      }
    }
    if (old.pattern !== next.pattern) {
      const expected = typeof old.pattern === 'string' ? `pattern ${old.pattern}` : 'no pattern';
      const actual = typeof next.pattern === 'string' ? `pattern ${next.pattern}` : 'no pattern';
      this.note(next.pattern === undefined ? 'widened' : 'narrowed', path, expected, actual);
    }
  }

  /** multipleOf m to n: fewer values when n is a multiple of m, more when m is one of n, else both. */
  #multipleOf(old: Node, next: Node, path: string): void {
    const was = numeric(old.multipleOf);
    const is = numeric(next.multipleOf);
    if (was === undefined && is === undefined) return;
    const expected = was === undefined ? 'no multipleOf' : `multipleOf ${shown(was)}`;
    const actual = is === undefined ? 'no multipleOf' : `multipleOf ${shown(is)}`;
    if (was === undefined || is === undefined) {
      this.note(is === undefined ? 'widened' : 'narrowed', path, expected, actual);
      return;
    }
    if (compareNumbers(was, is) === 0) return;
    if (isMultipleOf(is, was)) this.note('narrowed', path, expected, actual);
    else if (isMultipleOf(was, is)) this.note('widened', path, expected, actual);
    // Neither (2 to 3): it takes values it did not and refuses some it took, named as the side's breaking one.
    else this.note(this.comparison.side === 'request' ? 'narrowed' : 'widened', path, expected, actual);
  }

  /** Fields a schema does not name: `additionalProperties` unset, true or `{}` takes any, false none, a schema some. */
  #additionalProperties(old: Node, next: Node, path: string): void {
    // additionalProperties means nothing to a value that cannot be an object.
    const noObject = (schema: Node) => typesOf(schema)?.includes('object') === false;
    if (noObject(old) && noObject(next)) return;
    const kind = (schema: Node): 'any' | 'none' | 'some' => {
      const value = schema.additionalProperties;
      // An empty schema ({}) takes any value, as true does.
      if (value === undefined || value === true || (isNode(value) && Object.keys(value).length === 0)) return 'any';
      return value === false ? 'none' : 'some';
    };
    const [was, is] = [kind(old), kind(next)];
    const words = { any: 'any other field', none: 'no other field', some: 'other fields of a schema' };
    if (was === 'some' && is === 'some') {
      this.compare(old.additionalProperties, next.additionalProperties, `${path}/{*}`);
      return;
    }
    if (was === is) return;
    const allowed = is === 'any' || was === 'none';
    this.note(allowed ? 'fieldsAllowed' : 'fieldsRefused', `${path}/{*}`, words[was], words[is]);
  }

  #properties(old: Node, next: Node, path: string): void {
    const oldProperties = isNode(old.properties) ? old.properties : undefined;
    const newProperties = isNode(next.properties) ? next.properties : undefined;
    if (oldProperties === undefined && newProperties === undefined) return;
    const oldRequired = new Set(Array.isArray(old.required) ? old.required : []);
    const newRequired = new Set(Array.isArray(next.required) ? next.required : []);
    for (const [name, schema] of Object.entries(oldProperties ?? {})) {
      const at = `${path}/${name}`;
      if (newProperties === undefined || !Object.hasOwn(newProperties, name)) {
        const resolved = this.comparison.resolveOld(schema);
        this.note(
          'removed',
          at,
          `the field ${name} (${describeType(isNode(resolved) ? resolved : {})})`,
          'no such field',
        );
        continue;
      }
      if (oldRequired.has(name) && !newRequired.has(name)) this.note('becameOptional', at, 'required', 'optional');
      if (!oldRequired.has(name) && newRequired.has(name) && this.comparison.side === 'request') {
        this.note('narrowed', at, 'optional', 'required');
      }
      this.compare(schema, newProperties[name], at);
    }
    for (const [name, schema] of Object.entries(newProperties ?? {})) {
      if (oldProperties !== undefined && Object.hasOwn(oldProperties, name)) continue;
      const resolved = this.comparison.resolveNew(schema);
      const required = newRequired.has(name) ? 'a required' : 'an optional';
      this.note(
        'added',
        `${path}/${name}`,
        'no such field',
        `${required} field ${name} (${describeType(isNode(resolved) ? resolved : {})})`,
      );
    }
  }
}

/**
 * Compares an old schema with a new one, field by field, and adds a finding for each change: fields
 * removed or added, types and formats, enums, bounds, `multipleOf`, nullability, required fields, the
 * fields it does not name (`additionalProperties`); each named by the rule its side gives it (a bound
 * lowered narrows: an error in a request, a warning in a response or a response header). `$ref`s are
 * followed (also inside a composition), a recursive schema compared once per pair; an `allOf` is
 * compared as the one object it makes (`mergedSchema`); a `oneOf`, `anyOf` or `not` that changed, or a
 * composition of another shape, is named, not reasoned about.
 * @example
 * const findings: CompatFinding[] = [];
 * compareSchemas({ side: 'response', operation: 'GET /v1/store/orders', resolveOld: (n) => n, resolveNew: (n) => n, findings },
 *   { type: 'object', properties: { id: { type: 'integer' } } }, { type: 'object', properties: {} }, '/responses/200/body');
 * findings[0]?.code // 'response-property-removed'
 */
export function compareSchemas(
  comparison: SchemaComparison,
  oldSchema: unknown,
  newSchema: unknown,
  path: string,
): void {
  new SchemaWalk(comparison).compare(oldSchema, newSchema, path);
}
