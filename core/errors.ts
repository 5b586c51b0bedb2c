/**
 * What every error the kit throws has: a stable `code` a program can tell apart, beside a message for
 * people. Each layer keeps its codes in one table of its own (`coreErrorCodes` here, `errorStatuses`
 * in the mock, ...), so that a code is defined once and documented beside it.
 * @example
 * try { await loadScenarios({ names: ['nope'] }); } catch (error) { if (error instanceof KitError) console.error(error.code); }
 */
export class KitError<Code extends string = string> extends Error {
  readonly code: Code;

  constructor(code: Code, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/**
 * The codes of the errors the core throws, and what each means.
 * @example
 * coreErrorCodes.invalid_scenario // 'a scenario file that is not valid YAML, or breaks the scenario schema'
 */
export const coreErrorCodes = {
  invalid_scenario: 'a scenario file that is not valid YAML, or breaks the scenario schema or the Order schema',
  unknown_scenario: 'a scenario name that no file in the folder has',
  scenario_with_faults: "a scenario that injects faults, asked for as the contract's steps",
  missing_package_folder: 'a folder the package ships (scenarios/, contracts/pacts/) that is not there',
  invalid_json: 'text given to parseJson that is not valid JSON (a syntax error, or a duplicate key)',
} as const;

/** A code of `coreErrorCodes`. */
export type CoreErrorCode = keyof typeof coreErrorCodes;
