// petstore-verify publish-pact: publishes the shipped pact to a Pact Broker.
import { brokerFromEnvironment, parseFlags, usageFailure, UsageError } from '../shared.js';

const publishUsage = `Usage: petstore-verify publish-pact --consumer-version V [--branch B]

Publishes the pact the package ships to the Pact Broker at $PACT_BROKER_BASE_URL (with
$PACT_BROKER_TOKEN, or $PACT_BROKER_USERNAME and $PACT_BROKER_PASSWORD), as consumer version V.

Options:
  --consumer-version V  the consumer's version to publish the pact as
  --branch B            the consumer version's branch
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
    values = parseFlags(argv, { 'consumer-version': { type: 'string' }, branch: { type: 'string' } });
    if (broker === undefined) throw new UsageError('publish-pact needs PACT_BROKER_BASE_URL');
    if (!values['consumer-version']) throw new UsageError('publish-pact needs --consumer-version V');
  } catch (error) {
    return usageFailure('petstore-verify', error);
  }
  const { publishPact } = await import('../../verify/pact-broker.js');
  try {
    const notices = await publishPact({
      broker,
      consumerVersion: values['consumer-version'],
      ...(values.branch !== undefined && { branch: values.branch }),
    });
    console.log(
      [`published the pact to ${broker.url} as version ${values['consumer-version']}`, ...notices].join('\n'),
    );
    return 0;
  } catch (error) {
    console.error(`petstore-verify: ${(error as Error).message}`);
    return (error as { cause?: unknown }).cause !== undefined ? 2 : 1;
  }
}
