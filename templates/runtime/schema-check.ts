/**
 * Checks of the small subschemas a parse plan asks about (a property's schema under
 * `x-deserialize-default-on-error`, an array item under `x-deserialize-skip-invalid-items`, a
 * union's candidate variant), read from the schema itself as plan data. The definitions'
 * compiled validators stay the one compiled checker of the package: a subschema that refers
 * to a definition is composed from that definition's validator (parse.ts's combinators), and
 * what is left has no reference, so it is read here, keyword by keyword, as the compiled
 * validators read it (ajv with `ownProperties`: only own properties count, a property whose
 * value is `undefined` is absent; a number is finite).
 *
 * The generator writes a schema here only when every keyword in it is an `InterpretedKeyword`
 * (the rest, such as `unevaluatedProperties` beside a reference, is compiled), and only after
 * the definitions that hold it compiled under ajv's strict mode, so each keyword's value is
 * well formed. A schema is turned into closures the first time it is asked: most never are.
 */
import { equal, ucs2length } from "./ajv-helpers.js";
import { formats } from "./formats.js";

/** A validity check, as parse.ts composes them. */
type Check = (value: unknown) => boolean;

/** A subschema as the generator writes it: JSON, with only interpreted keywords. */
export type CheckSchema = boolean | { readonly [keyword: string]: unknown };

/** Every keyword this module reads; the generator writes a schema here only if it uses no other. */
export type InterpretedKeyword = keyof typeof KEYWORDS;

type Dict = Record<string, unknown>;

const hasOwn = (object: object, key: string): boolean => Object.hasOwn(object, key);

const isDict = (value: unknown): value is Dict =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A number as JSON Schema's `number` (and ajv) reads it: finite. */
const isNumber = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value);

/** Present as the compiled validators see it: own, and not `undefined`. */
const present = (object: Dict, key: string): boolean =>
  object[key] !== undefined && hasOwn(object, key);

const TYPES: Readonly<Record<string, Check>> = {
  null: (v) => v === null,
  boolean: (v) => typeof v === "boolean",
  object: isDict,
  array: Array.isArray,
  number: isNumber,
  integer: (v) => isNumber(v) && v % 1 === 0,
  string: (v) => typeof v === "string",
};

/** A value's check for `const` (and each `enum` member): deep for objects and arrays. */
function sameAs(expected: unknown): Check {
  return typeof expected === "object" && expected !== null
    ? (v) => equal(v, expected)
    : (v) => v === expected;
}

const always: Check = () => true;

/** What one keyword of `schema` checks, or nothing (`undefined`) when it constrains nothing. */
type Keyword = (value: unknown, schema: Dict) => Check | undefined;

const onObjects =
  (check: (value: Dict) => boolean): Check =>
  (v) =>
    !isDict(v) || check(v);
const onArrays =
  (check: (value: unknown[]) => boolean): Check =>
  (v) =>
    !Array.isArray(v) || check(v);
const onStrings =
  (check: (value: string) => boolean): Check =>
  (v) =>
    typeof v !== "string" || check(v);
const onNumbers =
  (check: (value: number) => boolean): Check =>
  (v) =>
    !isNumber(v) || check(v);

const schemas = (value: unknown): Check[] => (value as CheckSchema[]).map(compile);
const pattern = (source: unknown): RegExp => new RegExp(source as string, "u");
const count = (value: unknown): number => value as number;

const KEYWORDS = {
  type: (value) => {
    const types = (Array.isArray(value) ? value : [value]).map((t) => TYPES[t as string] as Check);
    return (v) => types.some((t) => t(v));
  },
  const: (value) => sameAs(value),
  enum: (value) => {
    const members = (value as unknown[]).map(sameAs);
    return (v) => members.some((m) => m(v));
  },
  required: (value) => {
    const names = value as string[];
    return onObjects((o) => names.every((n) => present(o, n)));
  },
  properties: (value) => {
    const checks = Object.entries(value as Dict)
      .filter(([, sub]) => sub !== true)
      .map(([name, sub]) => [name, compile(sub as CheckSchema)] as const);
    if (checks.length === 0) return undefined;
    return onObjects((o) => checks.every(([n, c]) => !present(o, n) || c(o[n])));
  },
  patternProperties: (value) => {
    const checks = Object.entries(value as Dict).map(
      ([source, sub]) => [pattern(source), compile(sub as CheckSchema)] as const,
    );
    return onObjects((o) =>
      Object.keys(o).every((key) => checks.every(([p, c]) => !p.test(key) || c(o[key]))),
    );
  },
  additionalProperties: (value, schema) => {
    const check = compile(value as CheckSchema);
    if (check === always) return undefined;
    const declared = new Set(isDict(schema.properties) ? Object.keys(schema.properties) : []);
    const patterns = isDict(schema.patternProperties)
      ? Object.keys(schema.patternProperties).map(pattern)
      : [];
    return onObjects((o) =>
      Object.keys(o).every(
        (key) => declared.has(key) || patterns.some((p) => p.test(key)) || check(o[key]),
      ),
    );
  },
  propertyNames: (value) => {
    const check = compile(value as CheckSchema);
    return onObjects((o) => Object.keys(o).every((key) => check(key)));
  },
  minProperties: (value) => onObjects((o) => Object.keys(o).length >= count(value)),
  maxProperties: (value) => onObjects((o) => Object.keys(o).length <= count(value)),
  dependentRequired: (value) => {
    const rules = Object.entries(value as Record<string, string[]>);
    return onObjects((o) =>
      rules.every(([name, needs]) => !present(o, name) || needs.every((n) => present(o, n))),
    );
  },
  dependentSchemas: (value) => {
    const rules = Object.entries(value as Dict).map(
      ([name, sub]) => [name, compile(sub as CheckSchema)] as const,
    );
    return onObjects((o) => rules.every(([name, c]) => !present(o, name) || c(o)));
  },
  prefixItems: (value) => {
    const checks = schemas(value);
    return onArrays((a) => checks.every((c, i) => i >= a.length || c(a[i])));
  },
  items: (value, schema) => {
    const check = compile(value as CheckSchema);
    const from = Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0;
    return onArrays((a) => {
      for (let i = from; i < a.length; i++) if (!check(a[i])) return false;
      return true;
    });
  },
  minItems: (value) => onArrays((a) => a.length >= count(value)),
  maxItems: (value) => onArrays((a) => a.length <= count(value)),
  uniqueItems: (value) =>
    value !== true
      ? undefined
      : onArrays((a) => {
          for (let i = 1; i < a.length; i++)
            for (let j = 0; j < i; j++) if (equal(a[i], a[j])) return false;
          return true;
        }),
  contains: (value, schema) => {
    const check = compile(value as CheckSchema);
    const min = schema.minContains === undefined ? 1 : count(schema.minContains);
    const max = schema.maxContains === undefined ? Infinity : count(schema.maxContains);
    return onArrays((a) => {
      const n = a.filter((item) => check(item)).length;
      return n >= min && n <= max;
    });
  },
  // Read by `contains`; on their own they constrain nothing.
  minContains: () => undefined,
  maxContains: () => undefined,
  minLength: (value) => onStrings((s) => ucs2length(s) >= count(value)),
  maxLength: (value) => onStrings((s) => ucs2length(s) <= count(value)),
  pattern: (value) => {
    const p = pattern(value);
    return onStrings((s) => p.test(s));
  },
  minimum: (value) => onNumbers((n) => n >= count(value)),
  maximum: (value) => onNumbers((n) => n <= count(value)),
  exclusiveMinimum: (value) => onNumbers((n) => n > count(value)),
  exclusiveMaximum: (value) => onNumbers((n) => n < count(value)),
  multipleOf: (value) =>
    onNumbers((n) => {
      // As the compiled validators decide it (an integral quotient), float error included.
      const quotient = n / count(value);
      return quotient === Number.parseInt(String(quotient), 10);
    }),
  format: (value) => {
    // The runtime's numeric formats; every other format is an annotation.
    const format = hasOwn(formats, value as string) ? formats[value as string] : undefined;
    return format === undefined ? undefined : onNumbers((n) => format.validate(n));
  },
  allOf: (value) => {
    const checks = schemas(value);
    return (v) => checks.every((c) => c(v));
  },
  anyOf: (value) => {
    const checks = schemas(value);
    return (v) => checks.some((c) => c(v));
  },
  oneOf: (value) => {
    const checks = schemas(value);
    return (v) => {
      let passed = 0;
      for (const c of checks) if (c(v) && ++passed > 1) return false;
      return passed === 1;
    };
  },
  not: (value) => {
    const check = compile(value as CheckSchema);
    return (v) => !check(v);
  },
  if: (value, schema) => {
    const test = compile(value as CheckSchema);
    const then = schema.then === undefined ? always : compile(schema.then as CheckSchema);
    const otherwise = schema.else === undefined ? always : compile(schema.else as CheckSchema);
    return (v) => (test(v) ? then(v) : otherwise(v));
  },
  // Read by `if`; without it they constrain nothing.
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, never awaited.
  then: () => undefined,
  else: () => undefined,
} satisfies Record<string, Keyword>;

function compile(schema: CheckSchema): Check {
  if (schema === true) return always;
  if (schema === false) return () => false;
  const checks: Check[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    const read = hasOwn(KEYWORDS, keyword) ? (KEYWORDS as Record<string, Keyword>)[keyword] : null;
    // The generator writes no other keyword; one that is not read must not pass silently.
    if (!read) throw new Error(`a parse check cannot read the keyword ${JSON.stringify(keyword)}`);
    const check = read(value, schema);
    if (check) checks.push(check);
  }
  if (checks.length === 0) return always;
  if (checks.length === 1) return checks[0] as Check;
  return (v) => {
    for (const c of checks) if (!c(v)) return false;
    return true;
  };
}

/**
 * The check of `schema`, built on its first call: parsers.js holds one per subschema check, and
 * a value that is valid as it arrives asks only few of them, if any.
 */
export function schemaCheck(schema: CheckSchema): Check {
  let check: Check | undefined;
  return (value) => {
    check ??= compile(schema);
    return check(value);
  };
}
