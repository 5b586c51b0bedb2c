/**
 * How much a change between two documents matters to a consumer: `error` breaks one (the command
 * exits 1), `warning` may break one that relies on what changed, `info` is additive.
 */
export type CompatLevel = 'error' | 'warning' | 'info';

/** One compatibility rule: its stable id, its level, and what it names. */
export interface CompatRule {
  id: string;
  level: CompatLevel;
  means: string;
}

/**
 * Every rule of `petstore-verify compat`, in one table (docs/providers.md lists it; a test keeps the
 * two equal). Ids follow oasdiff's where it has one. The direction decides the level: what narrows a
 * request breaks clients sending it, what widens a response or takes from it breaks clients reading it.
 * @example
 * compatRules.find((rule) => rule.id === 'response-property-removed')?.level // 'error'
 */
export const compatRules = [
  {
    id: 'api-removed-without-deprecation',
    level: 'error',
    means: 'an operation (method, base path and path) is gone, and was not deprecated',
  },
  {
    id: 'api-removed-before-sunset',
    level: 'error',
    means: 'a deprecated operation is gone before its sunset date (x-sunset), or it had none',
  },
  {
    id: 'api-removed-after-sunset',
    level: 'warning',
    means:
      'a deprecated operation is gone after its sunset date (x-sunset): announced, yet a late consumer still breaks',
  },
  {
    id: 'api-base-path-removed',
    level: 'error',
    means: "a base path (a server URL's path) is gone, and every operation under it",
  },
  {
    id: 'api-security-added',
    level: 'error',
    means: 'a request that satisfied the security of the old document no longer satisfies the new one',
  },
  { id: 'api-added', level: 'info', means: 'an operation is new' },
  { id: 'api-base-path-added', level: 'info', means: 'a base path is new' },
  { id: 'api-became-deprecated', level: 'info', means: 'an operation is now deprecated' },
  { id: 'api-security-relaxed', level: 'info', means: 'an operation asks for less security than before' },
  {
    id: 'response-status-removed',
    level: 'error',
    means: 'a status an operation documented is gone: a consumer handling it, or a pact expecting it, breaks',
  },
  {
    id: 'response-status-added',
    level: 'warning',
    means: 'an operation documents a new status: a consumer switching on the status may have no branch for it',
  },
  {
    id: 'response-status-replaced-by-range',
    level: 'warning',
    means:
      "a status is now documented by its class only (200 by 2XX): a consumer handling it still finds it, its body compared with the class's, yet the provider may answer any status of the class",
  },
  {
    id: 'response-status-range-narrowed',
    level: 'warning',
    means:
      "a status class (2XX) is now documented by some of its statuses only, each body compared with the class's: readers keep working; answers and pacts of another status of the class may not",
  },
  { id: 'response-body-removed', level: 'error', means: 'a response kept its status but lost its JSON body' },
  {
    id: 'response-media-type-removed',
    level: 'error',
    means:
      "a media type of a response's content is gone (application/json changed to application/problem+json is this and an addition): a consumer asking for it, or reading its Content-Type, breaks",
  },
  {
    id: 'response-media-type-added',
    level: 'info',
    means: 'a response documents a new media type, or a body where it documented none',
  },
  {
    id: 'required-response-header-removed',
    level: 'error',
    means: 'a response header documented as required is gone: a consumer reading it breaks',
  },
  { id: 'response-header-removed', level: 'warning', means: 'a documented response header (not required) is gone' },
  {
    id: 'response-header-became-optional',
    level: 'error',
    means: 'a required response header is no longer required: a consumer reading it may not find it',
  },
  {
    id: 'response-header-type-changed',
    level: 'error',
    means: "a response header's type or format changed (a string to an integer, a date-time format added or changed)",
  },
  {
    id: 'response-header-widened',
    level: 'error',
    means:
      'a response header takes values it did not (a bound raised or dropped, a pattern, enum, format or multipleOf dropped, nullable)',
  },
  {
    id: 'response-header-narrowed',
    level: 'warning',
    means:
      'a response header takes fewer values (a bound lowered or added, a pattern or multipleOf added): readers keep working; answers written under the old document may not',
  },
  {
    id: 'response-header-enum-value-removed',
    level: 'error',
    means: "a value of a response header's enum is gone: a consumer relying on it breaks",
  },
  {
    id: 'response-header-enum-value-added',
    level: 'warning',
    means: "a response header's enum has a new value: a consumer switching on it may break",
  },
  {
    id: 'response-header-schema-changed',
    level: 'warning',
    means:
      "a response header's schema changed where the check does not reason (a oneOf, anyOf or not, an object's fields), also behind a $ref",
  },
  { id: 'response-header-added', level: 'info', means: 'a response documents a new header' },
  {
    id: 'response-property-removed',
    level: 'error',
    means:
      'a field of a response body is gone (required or not: the Order marks none required, and consumers read them)',
  },
  {
    id: 'response-property-type-changed',
    level: 'error',
    means: "a response field's type or format changed (integer to string, int64 to int32)",
  },
  {
    id: 'response-property-enum-value-removed',
    level: 'error',
    means: 'a value of a response enum is gone: a consumer or a pact relying on it breaks',
  },
  {
    id: 'response-property-enum-value-added',
    level: 'warning',
    means: 'a response enum has a new value: a consumer switching on it may break',
  },
  {
    id: 'response-property-widened',
    level: 'error',
    means:
      'a response field takes values it did not (became nullable, a bound raised or dropped, a pattern or enum dropped, a multipleOf dropped or changed to one that is no multiple of it)',
  },
  {
    id: 'response-property-narrowed',
    level: 'warning',
    means:
      'a response field takes fewer values (a bound lowered or added, nullable dropped, a multipleOf added or changed to one of its multiples): readers keep working; answers and pacts written under the old document may not',
  },
  { id: 'response-property-became-optional', level: 'error', means: 'a required response field is no longer required' },
  {
    id: 'response-schema-changed',
    level: 'warning',
    means:
      'a response schema changed where the check does not reason (a oneOf, anyOf or not), also behind a $ref; an allOf is compared as the one object it makes',
  },
  {
    id: 'response-additional-properties-allowed',
    level: 'warning',
    means:
      'a response object may now hold fields its schema does not name (additionalProperties false, or a schema, to true or unset): a consumer refusing or iterating unknown fields may break',
  },
  {
    id: 'response-additional-properties-refused',
    level: 'warning',
    means:
      'a response object no longer holds fields its schema does not name (additionalProperties to false, or a schema): readers keep working; answers and pacts written under the old document may not',
  },
  { id: 'response-property-added', level: 'info', means: 'a response body has a new field' },
  { id: 'new-required-request-parameter', level: 'error', means: 'an operation takes a new required parameter' },
  { id: 'request-parameter-became-required', level: 'error', means: 'an optional parameter became required' },
  { id: 'request-parameter-type-changed', level: 'error', means: "a parameter's type or format changed" },
  { id: 'request-parameter-enum-value-removed', level: 'error', means: "a value of a parameter's enum is gone" },
  {
    id: 'request-parameter-narrowed',
    level: 'error',
    means:
      'a parameter takes fewer values (a bound lowered or added, nullable dropped, a pattern, enum or multipleOf added, a multipleOf changed to one that is no divisor of it)',
  },
  {
    id: 'request-parameter-serialization-changed',
    level: 'error',
    means:
      "a list query parameter's explode changed: a client writes it as the name repeated or comma-joined, and the server reads the other",
  },
  {
    id: 'request-parameter-default-value-changed',
    level: 'warning',
    means: "a parameter's default changed: a client leaving it out gets another answer (a page of another size)",
  },
  {
    id: 'request-parameter-removed',
    level: 'warning',
    means: 'a parameter is gone: a client still sending it may be refused or ignored',
  },
  {
    id: 'request-parameter-schema-changed',
    level: 'warning',
    means:
      "a parameter's schema changed where the check does not reason (a oneOf, anyOf or not), also behind a $ref; an allOf is compared as the one object it makes",
  },
  {
    id: 'request-additional-properties-refused',
    level: 'error',
    means:
      "a request object (a parameter's) no longer takes fields its schema does not name (additionalProperties to false, or a schema): a client sending them is refused",
  },
  {
    id: 'request-body-added-required',
    level: 'error',
    means: 'an operation takes a new required request body: a client sending none is refused',
  },
  {
    id: 'request-body-became-required',
    level: 'error',
    means: 'an optional request body became required: a client sending none is refused',
  },
  {
    id: 'request-body-media-type-removed',
    level: 'error',
    means: 'a media type a request body took is gone: a client sending it is refused',
  },
  { id: 'new-optional-request-parameter', level: 'info', means: 'an operation takes a new optional parameter' },
  { id: 'request-parameter-enum-value-added', level: 'info', means: "a parameter's enum has a new value" },
  { id: 'request-parameter-widened', level: 'info', means: 'a parameter takes more values than before' },
  {
    id: 'request-additional-properties-allowed',
    level: 'info',
    means: "a request object (a parameter's) takes fields its schema does not name, where it did not",
  },
  {
    id: 'request-body-removed',
    level: 'warning',
    means: 'an operation no longer takes a request body: a client still sending one may be refused or ignored',
  },
  { id: 'request-body-added-optional', level: 'info', means: 'an operation takes a new optional request body' },
  { id: 'request-body-media-type-added', level: 'info', means: 'a request body takes a new media type' },
  {
    id: 'pact-operation-removed',
    level: 'error',
    means: "a pact interaction's method and path are no operation of the new document",
  },
  {
    id: 'pact-status-undocumented',
    level: 'error',
    means: 'no status a pact interaction accepts is documented for its operation in the new document',
  },
  {
    id: 'pact-media-type-undocumented',
    level: 'error',
    means:
      "the media type a pact interaction's response states (its Content-Type) is not documented for its status in the new document: a provider following it answers another",
  },
  {
    id: 'pact-field-removed',
    level: 'error',
    means:
      "a field a pact interaction's body or matching rules rely on is not in the new response schema, or its status documents no body now",
  },
  {
    id: 'pact-field-type-changed',
    level: 'error',
    means:
      "a value of a pact interaction's body (or of a response header it expects) is not of the type or format the new schema gives it",
  },
  {
    id: 'pact-value-refused',
    level: 'error',
    means:
      "a value of a pact interaction's body (or of a response header it expects) is outside what the new schema allows (enum, bounds, lengths, item counts, pattern, multipleOf, nullable)",
  },
  {
    id: 'pact-parameter-refused',
    level: 'error',
    means:
      'a pact interaction expecting success has its request refused by the new document: a required parameter missing, or a value its schema refuses (one expecting a 4xx states the refusal)',
  },
  {
    id: 'pact-parameter-unknown',
    level: 'warning',
    means: 'a pact interaction sends a query parameter the new document does not declare',
  },
  {
    id: 'pact-header-undocumented',
    level: 'warning',
    means:
      'a response header a pact interaction expects is not documented for its status in the new document: a provider following it need not send it',
  },
  {
    id: 'pact-security-unmet',
    level: 'error',
    means: 'a pact interaction that expects success sends none of the credentials the new document requires',
  },
] as const satisfies readonly CompatRule[];

/** The id of a rule of `compatRules`. */
export type CompatRuleId = (typeof compatRules)[number]['id'];

const levels = new Map<string, CompatLevel>(compatRules.map((rule) => [rule.id, rule.level]));

/**
 * A rule's level, from the table.
 * @example
 * compatLevel('api-added') // 'info'
 */
export function compatLevel(id: CompatRuleId): CompatLevel {
  return levels.get(id)!;
}
