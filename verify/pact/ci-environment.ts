/** A value read from the CI's environment, with the variable (or variables) it came from. */
export interface CiValue {
  value: string;
  /** The variable it was read from, or the variables a URL was made of: `GITHUB_SHA`. */
  source: string;
}

/** What a CI's environment says of the build: the commit, its branch and the build's page. */
export interface CiBuild {
  version?: CiValue;
  branch?: CiValue;
  buildUrl?: CiValue;
}

type Environment = Readonly<Record<string, string | undefined>>;

/** The first of `names` set to a non-empty value, with its name. */
function firstSet(environment: Environment, names: readonly string[]): CiValue | undefined {
  for (const name of names) {
    const value = environment[name];
    if (value) return { value, source: name };
  }
  return undefined;
}

/** GitHub Actions: the run's page is `$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID`. */
function githubBuildUrl(environment: Environment): CiValue | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: run } = environment;
  if (!server || !repository || !run) return undefined;
  return {
    value: `${server.replace(/\/+$/, '')}/${repository}/actions/runs/${run}`,
    source: 'GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_RUN_ID',
  };
}

/**
 * What the CI's environment says of the build, for a publication to a Pact Broker: GitHub Actions'
 * variables (`GITHUB_SHA`; `GITHUB_HEAD_REF` on a pull request, else `GITHUB_REF_NAME`; the run's page
 * from `GITHUB_SERVER_URL`, `GITHUB_REPOSITORY` and `GITHUB_RUN_ID`), then GitLab CI's (`CI_COMMIT_SHA`,
 * `CI_COMMIT_REF_NAME`, `CI_JOB_URL`). Each value names the variable it came from; what is not set is left out.
 * @example
 * ciBuild({ GITHUB_SHA: 'abc123', GITHUB_REF_NAME: 'main' })
 * // { version: { value: 'abc123', source: 'GITHUB_SHA' }, branch: { value: 'main', source: 'GITHUB_REF_NAME' } }
 */
export function ciBuild(environment: Environment): CiBuild {
  const version = firstSet(environment, ['GITHUB_SHA', 'CI_COMMIT_SHA']);
  // On a pull request GITHUB_REF_NAME is `123/merge`: the branch is GITHUB_HEAD_REF's.
  const branch = firstSet(environment, ['GITHUB_HEAD_REF', 'GITHUB_REF_NAME', 'CI_COMMIT_REF_NAME']);
  const buildUrl = githubBuildUrl(environment) ?? firstSet(environment, ['CI_JOB_URL']);
  return {
    ...(version !== undefined && { version }),
    ...(branch !== undefined && { branch }),
    ...(buildUrl !== undefined && { buildUrl }),
  };
}
