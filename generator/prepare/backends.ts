import type { Diagnostics } from "../diagnostics.js";
import type { Json } from "../schema/json.js";
import { pointer } from "../schema/pointer.js";
import { reachingClosedUnions } from "../schema/unions.js";
import {
  annotationsOnlyAreAny,
  applyRules,
  discriminatorForAjv,
  dropNoopUnevaluated,
  enumsAsEnum,
  escapeCommentTerminators,
  type Rule,
  type RuleContext,
  refBesideKeywords,
  refsToOwnIds,
  refsToPlainTypes,
  refsToSurface,
  splitPropertiesFromUnion,
  stripAnnotations,
  stripTitles,
  unevaluatedReaders,
  untaggedVariantsWithoutTag,
} from "./rules.js";

/**
 * Preparing the schema for a backend: each backend (a library or an emitter that reads
 * schemas) sees the definitions through its own list of rewrites, and this table is the
 * one place that says which, in which order, and why it does without the others. The
 * rules themselves, with the reason each exists, are in rules.ts.
 */
export type Backend =
  | "types"
  | "received-types"
  | "validators"
  | "parse-definitions"
  | "parse-checks";

export interface BackendRewrites {
  /** Who reads the prepared schemas. */
  reader: string;
  /** Rules applied at every subschema, bottom-up; each pass sees the previous one's result. */
  passes: readonly (readonly Rule[])[];
  /** What happens around the rules, outside this table. */
  also?: string;
  /** Rules another backend sees that this one does not, and why. */
  without?: Readonly<Record<string, string>>;
}

export const BACKENDS: Readonly<Record<Backend, BackendRewrites>> = {
  types: {
    reader: "json-schema-to-typescript, in emit/types.ts",
    passes: [
      // A pass of its own: it reads unions as the schema writes them, before they are split.
      [untaggedVariantsWithoutTag],
      [
        stripTitles,
        refBesideKeywords,
        splitPropertiesFromUnion,
        escapeCommentTerminators,
        annotationsOnlyAreAny,
      ],
    ],
    also: "emit/types.ts then adds the @experimental tags, and swaps keys named like Object.prototype members for placeholders around the compile (placeholder-keys.ts: undone on the output, so a codec rather than a rule)",
    without: {
      "strip-annotations": "descriptions become the JSDoc, and defaults are documented",
    },
  },
  "received-types": {
    reader: "json-schema-to-typescript, in emit/received.ts",
    passes: [
      [untaggedVariantsWithoutTag],
      [
        stripTitles,
        refBesideKeywords,
        splitPropertiesFromUnion,
        escapeCommentTerminators,
        annotationsOnlyAreAny,
      ],
      // After ref-beside-keywords: every reference is then a node of its own.
      [refsToPlainTypes],
    ],
    also: "the types backend's rules, for the same reasons; emit/received.ts first gives each closed tagged union its unknown variant (schema/unions.ts `withUnknownVariant`) and adds the @experimental tags, then imports the plain types the references name",
    without: {
      "strip-annotations": "descriptions become the JSDoc, and defaults are documented",
    },
  },
  validators: {
    reader: "ajv's standalone code, in emit/validators.ts",
    passes: [
      [stripAnnotations, discriminatorForAjv, enumsAsEnum, dropNoopUnevaluated],
      // A pass of its own: discriminator-for-ajv resolves `$ref` branches in their `#/$defs/` form.
      [refsToOwnIds],
    ],
    also: "emit/validators.ts compiles each definition under its own id (refs-to-own-ids points there)",
  },
  "parse-definitions": {
    reader:
      "ajv, in emit/parsers.ts: the definitions compiled beside a parse check that refers to them",
    passes: [[stripAnnotations, discriminatorForAjv]],
    also: "compiled only for a parse check the check table could not split into the definitions' own validators (no release has one so far); its warnings were given by the validators already",
    without: {
      "enums-as-enum":
        "a speed rewrite for the is<Name> hot path; these copies are compiled only for a rare parse check, and leaving it out keeps their code as it has always been generated",
      "drop-noop-unevaluated": "likewise a speed rewrite, for the same reason",
      "refs-to-own-ids":
        "these definitions sit in one container schema (`acp-codegen:surface`), where `#/$defs/…` already resolves",
    },
  },
  "parse-checks": {
    reader:
      "the runtime's schema-check.ts (the small ref-free checks of subschemas, written as data into parsers.js), or ajv for one it cannot read, in parsers-validators.js (emit/parsers.ts)",
    passes: [[refsToSurface, dropNoopUnevaluated]],
    also: "the schemas come from the repair plan's check table (model/checks.ts), already reduced to their assertions (schema/node.ts `assertions`: annotations, the ACP vocabulary, `discriminator` and unknown keywords removed, as strip-annotations does, without warning again)",
    without: {
      "discriminator-for-ajv": "`discriminator` is already gone from these schemas",
      "enums-as-enum":
        "a speed rewrite for the is<Name> hot path; the checks run while repairing a value or choosing a union's variant, where a list of constants reads as well as an `enum`",
    },
  },
};

/**
 * One surface's definitions as the loader read them, what rules need to know about all of
 * them (computed once, by `prepareInput`), and where to report what rules find.
 */
export interface PrepareInput {
  readonly defsKeyword: "$defs" | "definitions";
  readonly definitions: ReadonlyArray<{ key: string; schema: Json }>;
  /** The schema file, as errors and warnings name it. */
  readonly file: string;
  readonly diagnostics: Diagnostics;
  /** The definitions by key (schema order), for rules that follow a `$ref`. */
  readonly defs: Readonly<Record<string, Json>>;
  /** Definitions a value of which can hold a closed tagged union (schema/unions.ts). */
  readonly reachesClosed: ReadonlySet<string>;
  /** The `unevaluated*` keywords some definition gives a schema or `false` (drop-noop-unevaluated). */
  readonly readsUnevaluated: ReadonlySet<string>;
}

/** The input to prepare a surface's schemas from: its definitions, and the facts rules read. */
export function prepareInput(
  surface: {
    defsKeyword: "$defs" | "definitions";
    definitions: ReadonlyArray<{ key: string; schema: Json }>;
    file: string;
  },
  diagnostics: Diagnostics,
): PrepareInput {
  const defs = Object.fromEntries(surface.definitions.map((d) => [d.key, d.schema]));
  return {
    defsKeyword: surface.defsKeyword,
    definitions: surface.definitions,
    file: surface.file,
    diagnostics,
    defs,
    reachesClosed: reachingClosedUnions(defs, surface.defsKeyword),
    readsUnevaluated: unevaluatedReaders(defs),
  };
}

/** Every definition as `backend` must see it, by key, in schema order. */
export function prepareDefinitions(backend: Backend, input: PrepareInput): Record<string, Json> {
  const prepared: Record<string, Json> = {};
  for (const { key, schema } of input.definitions)
    prepared[key] = prepareDefinition(backend, input, key, schema);
  return prepared;
}

/** One definition of `input` as `backend` must see it. */
export function prepareDefinition(
  backend: Backend,
  input: PrepareInput,
  key: string,
  schema: Json,
): Json {
  return prepareSchema(backend, schema, contextOf(input, pointer(input.defsKeyword, key)));
}

/** One schema of `input`'s surface as `backend` must see it; `at` is where warnings point. */
export function prepareSchema(backend: Backend, schema: Json, context: RuleContext): Json {
  return BACKENDS[backend].passes.reduce((node, rules) => applyRules(node, rules, context), schema);
}

/** What rules know while preparing a schema of `input`'s surface found at `at`. */
export function contextOf(input: PrepareInput, at: string): RuleContext {
  return {
    defs: input.defs,
    defsKeyword: input.defsKeyword,
    reachesClosed: input.reachesClosed,
    readsUnevaluated: input.readsUnevaluated,
    file: input.file,
    at,
    diagnostics: input.diagnostics,
  };
}
