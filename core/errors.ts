/**
 * An error with a stable `code` a program can tell apart. Each layer keeps its codes in one table of its own.
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

/** The codes of the errors the core throws, and what each means (docs/error-codes.md). */
export const coreErrorCodes = {
  invalid_scenario: 'a scenario file that is not valid YAML, or breaks the scenario schema or the Order schema',
  unknown_scenario: 'a scenario name that no file in the folder has',
  scenario_with_faults: "a scenario that injects faults, asked for as the contract's steps",
  missing_package_folder: 'a folder the package ships (scenarios/, contracts/pacts/) that is not there',
  invalid_json: 'text given to parseJson that is not valid JSON (a syntax error, or a duplicate key)',
  path_too_long: "a pact's or a scenario's path, or a name in it, longer than the file system allows (ENAMETOOLONG)",
  permission_refused:
    "a pact's or a scenario's file or folder this user may not read or write (EACCES, EPERM), or on a read-only file system (EROFS)",
  not_a_regular_file:
    'a FIFO, a folder, a socket, a device or a link to nothing where a pact or a scenario file is to be read or written; refused without waiting on it',
  not_a_folder: "a file where a pact's or a scenario's folder, or a folder above it, is to be (ENOTDIR)",
  no_space: 'a pact or a scenario that did not fit on its file system (ENOSPC, EDQUOT): nothing half-written is left',
  file_system_failure:
    "any other failure of the file system on a pact's or a scenario's path; the message names its errno code",
} as const;

export type CoreErrorCode = keyof typeof coreErrorCodes;

/**
 * A `TypeError` with a code: an option or argument the kit cannot use. It stays a `TypeError`, as
 * JavaScript's own functions throw for a wrong argument; the code is read from the class, so the
 * error's own properties are the plain `TypeError`'s.
 * @example
 * throw new KitTypeError('invalid_option', 'maxOrders must be a whole number >= 0, not -1');
 */
export class KitTypeError<Code extends string = string> extends TypeError {
  readonly #code: Code;

  constructor(code: Code, message: string) {
    super(message);
    this.#code = code;
  }

  /** The stable code of the error, from its layer's table. */
  get code(): Code {
    return this.#code;
  }
}
