import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coreErrorCodes, KitError } from '../../core/errors.js';
import { JsonSyntaxError, parseJson } from '../../core/parse-json.js';
import { contractSteps, ScenarioError } from '../../core/scenario.js';
import { loadScenarioFile, loadScenarios } from '../../core/scenario-files.js';

describe('the scenario files’ errors carry a code of the core’s table', () => {
  it('an unknown name is unknown_scenario', async () => {
    const error = await loadScenarios({ names: ['no-such-scenario'] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ScenarioError);
    expect(error).toBeInstanceOf(KitError);
    expect(error).toMatchObject({ code: 'unknown_scenario', name: 'ScenarioError' });
    expect((error as Error).message).toMatch(/^unknown scenario "no-such-scenario"; known: cancel-cancelled-order, /);
  });

  it('a file that breaks the schema is invalid_scenario', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scenario-'));
    try {
      const file = join(directory, 'broken.yaml');
      await writeFile(file, 'description: x\nsteps: 3\n');
      await expect(loadScenarioFile(file)).rejects.toMatchObject({ code: 'invalid_scenario' });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('the contract steps of a scenario that injects faults is scenario_with_faults', async () => {
    const [unavailable] = await loadScenarios({ names: ['list-orders-unavailable'] });
    expect(() => contractSteps(unavailable!)).toThrow(
      expect.objectContaining({
        code: 'scenario_with_faults',
        message: 'scenario list-orders-unavailable injects faults: only the mock can replay it',
      }),
    );
  });

  it('documents every code it uses', () => {
    expect(Object.keys(coreErrorCodes).sort()).toEqual([
      'file_system_failure',
      'invalid_json',
      'invalid_scenario',
      'missing_package_folder',
      'no_space',
      'not_a_folder',
      'not_a_regular_file',
      'path_too_long',
      'permission_refused',
      'scenario_with_faults',
      'unknown_scenario',
    ]);
  });
});

describe('the JSON parser’s errors carry a code of the core’s table', () => {
  it('text that is not JSON is invalid_json, still a SyntaxError', () => {
    const error = (() => {
      try {
        return parseJson('[{"id":1,"id":2}]');
      } catch (caught: unknown) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(JsonSyntaxError);
    expect(error).toBeInstanceOf(SyntaxError);
    expect(error).toMatchObject({
      code: 'invalid_json',
      name: 'SyntaxError',
      message: "Duplicate key 'id' encountered at position 10",
    });
    expect(() => parseJson('[1,')).toThrow(
      expect.objectContaining({
        code: 'invalid_json',
        message: 'Array item expected but reached end of input at position 3',
      }),
    );
  });
});

describe('a scenario file loaded again', () => {
  const valid = (name: string) =>
    `description: ${name}\nsteps:\n  - name: list\n    request: { method: GET, path: /store/orders, key: valid }\n    expect: { status: 200 }\n`;

  it('is read again: an edited file gives its new content, and a file broken since fails', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scenario-'));
    try {
      const file = join(directory, 'edited.yaml');
      await writeFile(file, valid('first'));
      expect((await loadScenarioFile(file)).description).toBe('first');
      await writeFile(file, valid('second'));
      expect((await loadScenarioFile(file)).description).toBe('second');
      await writeFile(file, 'description: x\nsteps: 3\n');
      await expect(loadScenarioFile(file)).rejects.toMatchObject({ code: 'invalid_scenario' });
      await expect(loadScenarioFile(file)).rejects.toMatchObject({ code: 'invalid_scenario' });
      await rm(file);
      await expect(loadScenarioFile(file)).rejects.toMatchObject({ code: 'invalid_scenario' });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('is a copy of its own: changing what one load gave changes no other', async () => {
    const [first] = await loadScenarios({ names: ['list-orders'] });
    first!.steps.length = 0;
    first!.description = 'changed';
    const [again] = await loadScenarios({ names: ['list-orders'] });
    expect(again!.steps.length).toBeGreaterThan(0);
    expect(again!.description).not.toBe('changed');
  });
});
