/**
 * Every keyword the generator knows, with what it is: which vocabulary it comes from, where
 * its value holds subschemas, whether it can change validity, and (for bounds) in which
 * direction it restricts. Every keyword set anywhere in the generator is read from here.
 */
export interface Keyword {
  /**
   * The JSON Schema 2020-12 vocabulary; `legacy` for draft-07 forms that are still walked
   * but are not 2020-12 keywords; `acp` for the vendor keywords the upstream schema
   * generator writes.
   */
  vocabulary:
    | "core"
    | "applicator"
    | "unevaluated"
    | "validation"
    | "meta-data"
    | "format"
    | "content"
    | "legacy"
    | "acp";
  /**
   * Where the value holds subschemas: one schema, a list, a map from names to schemas, or
   * (`items`) one schema or a list of them.
   */
  subschemas?: "one" | "list" | "map" | "one-or-list";
  /** A standard keyword that never changes whether an instance is valid. */
  annotation?: true;
  /** Prose for people: it ends up in documentation and nowhere else. */
  prose?: true;
  /** A bound on a number, a length or a count, restricting from below or from above. */
  bound?: "lower" | "upper";
  /** For `acp` keywords: what the generator does with it. */
  acp?: "method" | "docs" | "parsing" | "dispatch";
}

const PARSING = [
  "x-deserialize-default-on-error",
  "x-deserialize-skip-invalid-items",
  "x-deserialize-default-on-null",
] as const;

/** The keywords of each vocabulary (2020-12, then the legacy and ACP additions). */
const VOCABULARIES = {
  core: [
    ...["$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary"],
    "$comment",
    // `definitions` is the draft-07 name of `$defs`, which releases and hand-written inputs use.
    ...["$defs", "definitions"],
  ],
  applicator: [
    ...["allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas"],
    ...["prefixItems", "items", "contains"],
    ...["properties", "patternProperties", "additionalProperties", "propertyNames"],
  ],
  unevaluated: ["unevaluatedItems", "unevaluatedProperties"],
  validation: [
    ...["type", "enum", "const"],
    ...["multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"],
    ...["maxLength", "minLength", "pattern"],
    ...["maxItems", "minItems", "uniqueItems", "maxContains", "minContains"],
    ...["maxProperties", "minProperties", "required", "dependentRequired"],
  ],
  // An annotation in 2020-12, but one the validators may assert: see emit/ajv.ts.
  format: ["format"],
  content: ["contentEncoding", "contentMediaType", "contentSchema"],
  "meta-data": [
    ...["description", "title", "default", "deprecated", "readOnly", "writeOnly", "examples"],
  ],
  // Draft-07 tuples (`items` as a list, then `additionalItems`): walked, never standard here.
  legacy: ["additionalItems"],
  // Written by the upstream schema generator; for validation all of these are annotations.
  acp: [
    ...["x-side", "x-method", "x-docs-ignore"],
    ...PARSING,
    // OpenAPI-style tagged-union hint: a dispatch on the tag for ajv where it can use one.
    "discriminator",
  ],
} as const satisfies Record<Keyword["vocabulary"], readonly string[]>;

/** Where each keyword's value holds subschemas. */
const SUBSCHEMAS = {
  one: [
    ...["not", "if", "then", "else", "contains", "propertyNames", "additionalProperties"],
    ...["unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema"],
  ],
  list: ["allOf", "anyOf", "oneOf", "prefixItems"],
  map: ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"],
  "one-or-list": ["items"],
} as const satisfies Record<NonNullable<Keyword["subschemas"]>, readonly string[]>;

/**
 * Prose, in the order the diff reports it: descriptions, titles, examples and comments
 * end up in documentation and nowhere else.
 */
const PROSE = ["description", "title", "examples", "$comment", "x-docs-ignore"] as const;

/** Standard keywords that never change validity, besides the prose ones. */
const ANNOTATIONS = [
  ...["default", "deprecated", "readOnly", "writeOnly"],
  ...["contentEncoding", "contentMediaType", "contentSchema"],
] as const;

const BOUNDS = {
  lower: ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"],
  upper: ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"],
} as const;

const ACP_ROLES = {
  method: ["x-side", "x-method"],
  docs: ["x-docs-ignore"],
  parsing: PARSING,
  dispatch: ["discriminator"],
} as const satisfies Record<NonNullable<Keyword["acp"]>, readonly string[]>;

export type KeywordName = (typeof VOCABULARIES)[keyof typeof VOCABULARIES][number];

/** Every keyword with what is known about it, built from the lists above. */
export const KEYWORDS: Readonly<Record<KeywordName, Keyword>> = (() => {
  const table = {} as Record<KeywordName, Keyword>;
  const each = <V>(
    lists: Record<string, readonly KeywordName[]>,
    set: (k: Keyword, v: V) => void,
  ) => {
    for (const [value, list] of Object.entries(lists))
      for (const name of list) set(table[name], value as V);
  };
  for (const [vocabulary, list] of Object.entries(VOCABULARIES))
    for (const name of list) table[name] = { vocabulary: vocabulary as Keyword["vocabulary"] };
  each<Keyword["subschemas"]>(SUBSCHEMAS, (k, shape) => {
    k.subschemas = shape;
  });
  each<Keyword["bound"]>(BOUNDS, (k, bound) => {
    k.bound = bound;
  });
  each<Keyword["acp"]>(ACP_ROLES, (k, role) => {
    k.acp = role;
  });
  for (const name of PROSE) table[name].prose = true;
  for (const name of [...PROSE, ...ANNOTATIONS])
    if (table[name].vocabulary !== "acp") table[name].annotation = true;
  return table;
})();

/** What the generator knows about `keyword`; undefined for a keyword nobody knows. */
export function keyword(name: string): Keyword | undefined {
  return Object.hasOwn(KEYWORDS, name) ? KEYWORDS[name as KeywordName] : undefined;
}

function names(test: (k: Keyword) => boolean): KeywordName[] {
  return (Object.keys(KEYWORDS) as KeywordName[]).filter((name) => test(KEYWORDS[name]));
}

/** Every JSON Schema 2020-12 keyword (core, applicator, unevaluated, validation, format, content, meta-data). */
export const STANDARD_KEYWORDS: ReadonlySet<string> = new Set(
  names((k) => k.vocabulary !== "acp" && k.vocabulary !== "legacy"),
);

/** Standard keywords that only annotate: they never change whether an instance is valid. */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set(
  names((k) => k.annotation === true),
);

/** The ACP vendor vocabulary. */
export const ACP_KEYWORDS: ReadonlySet<string> = new Set(VOCABULARIES.acp);

/** Keywords whose value is prose only, in the order the diff reports them. */
export const PROSE_KEYWORDS: readonly KeywordName[] = PROSE;

/** The `x-deserialize-*` annotations that lenient parsing acts on. */
export const PARSING_KEYWORDS: typeof PARSING = PARSING;

/** `x-side` and `x-method`: the annotations that make a definition a method's params or result. */
export const METHOD_KEYWORDS: readonly KeywordName[] = ACP_ROLES.method;

/** Bounds restricting from below: raising one rejects values that used to pass. */
export const LOWER_BOUNDS: readonly KeywordName[] = BOUNDS.lower;

/** Bounds restricting from above: lowering one rejects values that used to pass. */
export const UPPER_BOUNDS: readonly KeywordName[] = BOUNDS.upper;

/** `unevaluatedProperties` and `unevaluatedItems`: their meaning depends on what siblings evaluated. */
export const UNEVALUATED_KEYWORDS: readonly KeywordName[] = VOCABULARIES.unevaluated;

/** Keywords whose values map names (not keywords) to subschemas: `properties`, `$defs`… */
export const SUBSCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set(SUBSCHEMAS.map);
