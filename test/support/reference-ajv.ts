import Ajv2020Module from "ajv/dist/2020.js";

const Ajv2020 = Ajv2020Module.default;
export type ReferenceAjv = InstanceType<typeof Ajv2020>;

/**
 * Inclusive bounds of the schema's integer formats, written from what each format means
 * (the Rust integer type schemars names it after: two's-complement widths, `uint` is a
 * 64-bit `usize`), as exact big integers so the 64-bit bounds are not rounded.
 */
export const INTEGER_FORMAT_RANGES: Readonly<Record<string, readonly [bigint, bigint]>> = {
  int8: [-(2n ** 7n), 2n ** 7n - 1n],
  int16: [-(2n ** 15n), 2n ** 15n - 1n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint8: [0n, 2n ** 8n - 1n],
  uint16: [0n, 2n ** 16n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  uint: [0n, 2n ** 64n - 1n],
};

/** Whether a JSON number is an integer inside the format's range, compared exactly. */
export function inIntegerFormat(format: string, value: number): boolean {
  const range = INTEGER_FORMAT_RANGES[format];
  if (!range) throw new Error(`not an integer format: ${format}`);
  if (!Number.isInteger(value)) return false;
  const n = BigInt(value);
  return n >= range[0] && n <= range[1];
}

/**
 * A JSON Schema 2020-12 validator set up by the tests, apart from the generator's own ajv
 * factory and its runtime formats, to judge the generated validators against: the integer
 * formats are the range checks above; every other format is an annotation (the reference
 * implementation reads such strings unchecked, and 2020-12 makes format an annotation);
 * vendor keywords (`x-*`) and `discriminator` are unknown keywords and ignored, so a union is
 * tried branch by branch; objects are read as JSON objects, own properties only.
 */
export function referenceAjv(): ReferenceAjv {
  const ajv = new Ajv2020({
    strict: false,
    logger: false,
    discriminator: false,
    allErrors: false,
    ownProperties: true,
  });
  for (const format of Object.keys(INTEGER_FORMAT_RANGES))
    ajv.addFormat(format, { type: "number", validate: (n: number) => inIntegerFormat(format, n) });
  return ajv;
}
