import ajvFormats from 'ajv-formats/dist/formats.js';
import fc from 'fast-check';
import { expect, it, vi } from 'vitest';
import { dateTimeFormat } from '../../core/date-time-format.js';
import { schemaValidator } from '../../core/schema-validator.js';

const library = ajvFormats.fullFormats['date-time'] as { validate: (text: string) => boolean };

const digits = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });
const pick = <T>(...values: T[]) => fc.constantFrom(...values);

// Texts near the common form: each part sometimes out of range, missing, or of another form.
const nearDateTime = fc
  .tuple(
    fc.oneof(digits(4), pick('2024', '2000', '1900', '2100', '0000', '２０２４')),
    pick('-'),
    fc.oneof(digits(2), pick('00', '01', '02', '12', '13')),
    pick('-', '/'),
    fc.oneof(digits(2), pick('00', '28', '29', '30', '31', '32')),
    pick('T', 't', ' ', '\t', '\u00a0', 'TT', ''),
    fc.oneof(digits(2), pick('00', '23', '24')),
    pick(':'),
    fc.oneof(digits(2), pick('00', '59', '60')),
    pick(':', ''),
    fc.oneof(digits(2), pick('00', '58', '59', '60', '61')),
    fc.oneof(
      pick('', '.', '.5', '.999', '.99999999999999999999'),
      digits(1).map((d) => `.${d}`),
    ),
    fc.oneof(
      pick('Z', 'z', '', 'ZZ', '+00:00', '-00:00', '+23:59', '+24:00', '-05:60', '+0530', '+05', '+05:3'),
      fc.tuple(pick('+', '-'), digits(2), pick(':', ''), digits(2)).map((parts) => parts.join('')),
    ),
  )
  .map((parts) => parts.join(''));

it('gives ajv-formats’ answer for every text near the common form', () => {
  fc.assert(
    fc.property(nearDateTime, (text) => {
      expect(dateTimeFormat.validate(text)).toBe(library.validate(text));
    }),
    { numRuns: 3000 },
  );
});

it('gives ajv-formats’ answer for any text', () => {
  fc.assert(
    fc.property(fc.string(), (text) => {
      expect(dateTimeFormat.validate(text)).toBe(library.validate(text));
    }),
    { numRuns: 500 },
  );
});

it.each([
  ['2026-12-01T09:00:00Z', true],
  ['2024-02-29T09:00:00Z', true],
  ['2023-02-29T09:00:00Z', false],
  ['1900-02-29T09:00:00Z', false],
  ['2000-02-29T09:00:00Z', true],
  ['2026-04-31T09:00:00Z', false],
  ['2026-12-01t09:00:00.123456789+05:30', true],
  ['2026-12-01 09:00:00Z', true],
  ['2026-12-01T09:00:00', false],
  ['2026-12-01T24:00:00Z', false],
  ['2026-12-01T09:00:00+24:00', false],
  ['2026-12-31T23:59:60Z', true],
  ['2026-12-31T22:59:60-01:00', true],
  ['2026-12-31T12:59:60Z', false],
  ['2026-12-01T09:00:59.99999999999999999Z', false],
  ['2026-12-01T09:00:59.5Z', true],
  ['2026-12-01T09:00:00+0530', true],
])('judges %s as ajv-formats does: %s', (text, valid) => {
  expect(library.validate(text)).toBe(valid);
  expect(dateTimeFormat.validate(text)).toBe(valid);
});

it('is the format the kit’s schema checks use', () => {
  const validate = vi.spyOn(dateTimeFormat, 'validate');
  const check = schemaValidator('date-time-format-test', { type: 'string', format: 'date-time' });
  expect(check('2023-02-29T09:00:00Z')).toEqual([{ path: '', message: 'must match format "date-time"' }]);
  expect(validate).toHaveBeenCalledWith('2023-02-29T09:00:00Z');
  validate.mockRestore();
});
