/**
 * The rules the harness judges a provider by: every finding of every suite carries one of these codes,
 * stable across versions (a baseline names findings by them). `tolerates` names the rows of the
 * tolerance table (`tolerances` in compare.ts) that the rule allows for honest variations, or says
 * what else it accepts. `docs/harness.md` lists this table; a test keeps the two equal.
 */
export interface Rule {
  /** The stable id: what a baseline, a GitHub annotation's title and the JSON report name. */
  code: string;
  /** What a provider must do to pass it. */
  means: string;
  /** The honest variations it accepts. */
  tolerates: string;
}

/**
 * Every rule of the harness, in one table.
 * @example
 * rules.find((rule) => rule.code === 'status-undocumented')?.means
 * // 'the status is one the operation documents'
 */
export const rules = [
  {
    code: 'status-undocumented',
    means: 'the status is one the operation documents',
    tolerates: 'nothing: the specification documents every status an operation answers',
  },
  {
    code: 'status-unexpected',
    means: 'the status is the one the scenario step, or the model in the same state, gives',
    tolerates: 'cancelled-order-cancelled-again, near-path-refusals',
  },
  {
    code: 'status-race',
    means: 'of identical cancels sent at once, exactly one succeeds and the others are refused',
    tolerates: 'race-losers',
  },
  {
    code: 'media-type',
    means:
      'a JSON body is sent as application/json: one media type as RFC 9110 §8.3.1 writes it, in one Content-Type field',
    tolerates: 'media-type-parameters',
  },
  {
    code: 'body-missing',
    means: 'a body the operation documents, or the scenario step expects, is present',
    tolerates: 'conflict-body',
  },
  {
    code: 'body-json',
    means: 'a body is JSON (RFC 8259)',
    tolerates: 'nothing',
  },
  {
    code: 'body-schema',
    means: "the body validates against the specification's schema, or the scenario's",
    tolerates: 'extra-fields, error-record-content, pet-record, conflict-body',
  },
  {
    code: 'int64-exact',
    means: 'an int64 field holds a JSON integer in the int64 range, read exactly (beyond 2^53 too)',
    tolerates: 'nothing',
  },
  {
    code: 'id-unique',
    means: 'a list holds each order id once',
    tolerates: 'nothing',
  },
  {
    code: 'encoding',
    means: 'a JSON text is UTF-8 without a byte order mark (RFC 8259 §8.1)',
    tolerates: 'nothing',
  },
  {
    code: 'no-content',
    means: 'a 204, or a step that expects no body, carries no content (RFC 9110 §15.3.5)',
    tolerates: 'Content-Length: 0',
  },
  {
    code: 'framing',
    means: 'nothing follows the end of a response on the connection (RFC 9112 §6)',
    tolerates: 'nothing',
  },
  {
    code: 'auth-challenge',
    means: 'a 401 carries a Bearer challenge in WWW-Authenticate (RFC 6750 §3)',
    tolerates: 'bearer-challenge-parameters',
  },
  {
    code: 'header-syntax',
    means: 'Deprecation is a Structured Field Date (RFC 9745), Sunset an HTTP-date (RFC 8594)',
    tolerates: 'pet-record',
  },
  {
    code: 'header-missing',
    means: 'the headers the scenario step or the model requires are sent (Deprecation and Sunset on the pet read)',
    tolerates: 'nothing',
  },
  {
    code: 'error-status',
    means: "an Error record's status equals the HTTP status",
    tolerates: 'error-record-content',
  },
  {
    code: 'order-listed',
    means: 'the orders the scenario step or the model lists are listed, and those it leaves out are not',
    tolerates: 'list-order, cancelled-order-listed',
  },
  {
    code: 'order-unknown',
    means: 'a list holds only orders of the provider state',
    tolerates: 'nothing',
  },
  {
    code: 'order-field',
    means: 'a listed order has every field as the provider state gives it',
    tolerates: 'unseeded-fields, date-time-forms',
  },
  {
    code: 'order-relisted',
    means: 'a cancelled order that has left the list stays out of it',
    tolerates: 'cancelled-order-listed',
  },
  {
    code: 'page-over-limit',
    means: "a page of v2's list holds at most `limit` orders (20 when no `limit` is sent)",
    tolerates: 'nothing',
  },
  {
    code: 'page-repeats-order',
    means: "a walk of v2's list (its pages, each asked with the `nextCursor` of the one before) gives no order twice",
    tolerates: 'nothing',
  },
  {
    code: 'page-skips-order',
    means: "a walk of v2's list gives every order of the store that its `status` filter keeps, with its id exact",
    tolerates: 'an empty last page after the last full one',
  },
  {
    code: 'page-order',
    means: "v2's list gives its orders in ascending order of id, within a page and across the pages of a walk",
    tolerates: 'nothing',
  },
  {
    code: 'filter-ignored',
    means: "every order of a page of v2's list asked with `status` has that status",
    tolerates: 'nothing',
  },
  {
    code: 'walk-ended',
    means:
      'a scenario step that follows a cursor (`cursor: follow`) has the `nextCursor` of the v2 page before it to follow; with none, the step is not sent',
    tolerates:
      'always a warning, never a violation: an honest provider may end a walk sooner than the provider the scenario was saved from',
  },
  {
    code: 'prism',
    means: "Prism's validator, the second oracle, accepts the response where Ajv does",
    tolerates: "Prism's known limits (int64 beyond 2^53; an undocumented status outside 2xx only warned)",
  },
  {
    code: 'unreadable',
    means:
      "every check reads the answer: its headers, framing and coding are ones Prism's validator and the kit's checks can read without failing (two Content-Type fields, a parameter without a value fail it)",
    tolerates: 'nothing',
  },
  {
    code: 'no-answer',
    means:
      'the target answers every request whole, readable and in time (a reset connection, a timeout, a truncated response, a body that does not decode as its Content-Encoding says fail it)',
    tolerates: 'nothing',
  },
  {
    code: 'body-too-large',
    means:
      "an answer's body holds at most 32 MiB, as sent and with its content codings undone: the kit's bound, not the specification's (past it the kit stops reading, and judges nothing else of that answer)",
    tolerates: 'nothing',
  },
  {
    code: 'pact',
    means:
      "Pact's verifier finds the interaction as the consumer's pact describes it, where no other rule applies (Pact's status, header and body mismatches carry the rule of their kind)",
    tolerates: "what the pact's matchers allow (types, not values; any RFC 3339 date-time)",
  },
  {
    code: 'pact-verifier',
    means: "Pact's verifier runs and verifies the pact's interactions",
    tolerates: 'nothing',
  },
  {
    code: 'run-stopped',
    means: 'the run finishes: before its deadline, with the target still answering',
    tolerates: 'nothing',
  },
  {
    code: 'exploration',
    means: 'an exploration run can be generated and replayed',
    tolerates: 'nothing',
  },
] as const satisfies readonly Rule[];

/** The code of a rule of the harness. */
export type RuleCode = (typeof rules)[number]['code'];
