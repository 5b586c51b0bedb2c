import { parseInt64 } from '../int64.js';
import type { OperationDefinition } from './definition.js';

/**
 * `GET /pets/{petId}`, deprecated: a minimal pet `{ id }` for any id, since the specification gives it no
 * type, with `Deprecation` (RFC 9745) and `Sunset` (RFC 8594). Its answers prove nothing of the store.
 * @example
 * readPetDefinition.evidence({ status: 200, body: { id: 7 } }) // { kind: 'nothing' }
 */
export const readPetDefinition: OperationDefinition = {
  mock: ({ petDeprecation, petSunset }, petId) => ({
    kind: 'json',
    status: 200,
    body: { id: parseInt64(petId) ?? petId },
    headers: {
      deprecation: `@${Math.floor(petDeprecation.getTime() / 1000)}`,
      sunset: petSunset.toUTCString(),
    },
  }),
  evidence: () => ({ kind: 'nothing' }),
};
