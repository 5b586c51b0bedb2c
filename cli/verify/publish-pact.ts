// petstore-verify publish-pact: publishes the shipped pact, or a consumer's own, to a Pact Broker.
import { existsSync, statSync } from 'node:fs';
import { brokerFromEnvironment, parseFlags, usageFailure, UsageError } from '../shared.js';

const publishUsage = `Usage: petstore-verify publish-pact --consumer-version V [--branch B] [--pact FILE]

Publishes the pact the package ships, or the pact file given, to the Pact Broker at
$PACT_BROKER_BASE_URL (with $PACT_BROKER_TOKEN, or $PACT_BROKER_USERNAME and $PACT_BROKER_PASSWORD),
as consumer version V.

Options:
  --consumer-version V  the consumer's version to publish the pact as
  --branch B            the consumer version's branch
  --pact FILE           publish this pact file (a consumer's own, such as mock.pact() writes), as the
                        consumer and for the provider it names
  --help                print this help
`;

export async function publishCommand(argv: string[], environment: NodeJS.ProcessEnv): Promise<number> {
  if (argv.includes('--help')) {
    process.stdout.write(publishUsage);
    return 0;
  }
  let values;
  const broker = brokerFromEnvironment(environment);
  try {
    values = parseFlags(argv, {
      'consumer-version': { type: 'string' },
      branch: { type: 'string' },
      pact: { type: 'string' },
    });
    if (broker === undefined) throw new UsageError('publish-pact needs PACT_BROKER_BASE_URL');
    if (!values['consumer-version']) throw new UsageError('publish-pact needs --consumer-version V');
    if (values.pact !== undefined && (!existsSync(values.pact) || !statSync(values.pact).isFile()))
      throw new UsageError(`--pact ${JSON.stringify(values.pact)} is not a file: give the path of a pact file`);
  } catch (error) {
    return usageFailure('petstore-verify', error);
  }
  const { publishPact } = await import('../../verify/pact-broker.js');
  try {
    const notices = await publishPact({
      broker,
      consumerVersion: values['consumer-version'],
      ...(values.branch !== undefined && { branch: values.branch }),
      ...(values.pact !== undefined && { pactFile: values.pact }),
    });
    console.log(
      [`published the pact to ${broker.url} as version ${values['consumer-version']}`, ...notices].join('\n'),
    );
    return 0;
  } catch (error) {
    console.error(`petstore-verify: ${(error as Error).message}`);
    // A file that is no pact is a wrong argument; a broker that cannot be reached, nothing to judge.
    const wrongFile = (error as { code?: unknown }).code === 'invalid_pact_file';
    return wrongFile || (error as { cause?: unknown }).cause !== undefined ? 2 : 1;
  }
}
