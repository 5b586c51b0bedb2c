import { describe, expect, it } from 'vitest';
import { int64Message, schemaValidator } from '../../core/schema-validator.js';

const validateOrders = schemaValidator('test-orders', {
  type: 'array',
  items: {
    type: 'object',
    properties: { id: { type: 'integer', format: 'int64' }, 'pet/id': { type: 'integer', format: 'int64' } },
  },
});

describe('schemaValidator', () => {
  it('passes int64 values written exactly, as numbers or bigints', () => {
    expect(validateOrders([{ id: 1 }, { id: 9223372036854775807n, 'pet/id': -9223372036854775808n }])).toEqual([]);
  });

  it('names each int64 value beyond the range by its JSON pointer, items and escaped keys alike', () => {
    expect(
      validateOrders([{ id: 1 }, { id: 2 }, { id: 9223372036854775808n }, { 'pet/id': -9223372036854775809n }]),
    ).toEqual([
      { path: '/2/id', message: int64Message },
      { path: '/3/pet~1id', message: int64Message },
    ]);
  });

  it('reports what Ajv finds first, and checks int64 exactness only once the shape is right', () => {
    expect(validateOrders([{ id: 'one' }, { id: 9223372036854775808n }])).toEqual([
      { path: '/0/id', message: 'must be integer' },
    ]);
  });
});
