/**
 * Numeric formats of the ACP schema, enforced as real range checks. The generator hands
 * this same object to ajv when it compiles the validators, and the generated validators
 * import it from here, so the two can never disagree.
 */
export interface NumberFormat {
  readonly type: "number";
  readonly validate: (value: number) => boolean;
}

function integerIn(min: number, max: number): NumberFormat {
  return { type: "number", validate: (n) => Number.isInteger(n) && n >= min && n <= max };
}

/** 64-bit bounds are not exactly representable as doubles: compare against 2^63 / 2^64 with `<`. */
const TWO_63 = 2 ** 63;
const TWO_64 = 2 ** 64;

export const formats: Readonly<Record<string, NumberFormat>> = {
  int8: integerIn(-128, 127),
  int16: integerIn(-32768, 32767),
  int32: integerIn(-2147483648, 2147483647),
  int64: { type: "number", validate: (n) => Number.isInteger(n) && n >= -TWO_63 && n < TWO_63 },
  uint8: integerIn(0, 255),
  uint16: integerIn(0, 65535),
  uint32: integerIn(0, 4294967295),
  uint64: { type: "number", validate: (n) => Number.isInteger(n) && n >= 0 && n < TWO_64 },
  uint: { type: "number", validate: (n) => Number.isInteger(n) && n >= 0 && n < TWO_64 },
};
