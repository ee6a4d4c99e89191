import type { Diagnostics } from "../diagnostics.js";
import { isObject, type Json, type JsonObject, jsonType } from "../schema/json.js";
import {
  ACP_KEYWORDS,
  ANNOTATION_KEYWORDS,
  STANDARD_KEYWORDS,
  UNEVALUATED_KEYWORDS,
} from "../schema/keywords.js";
import { discriminatorOf, typesOf } from "../schema/node.js";
import { onlyRef, refTarget, refTo } from "../schema/refs.js";
import { taggedUnion } from "../schema/unions.js";
import { forEachSchema, mapSchema } from "../schema/walk.js";

/**
 * Named rewrites of the input, each with the reason it exists. Which backend sees which
 * rule, in which order, is said in backends.ts. A rule never mutates its input: it returns
 * a new node (or the same one, unchanged). Rules run at every subschema, bottom-up.
 */
export interface Rule {
  name: string;
  reason: string;
  apply(node: JsonObject, context: RuleContext): JsonObject;
}

/** What a rule may know besides the node: the surface's definitions and where to warn. */
export interface RuleContext {
  /** The surface's definitions as loaded (not prepared), by key. */
  defs: Readonly<Record<string, Json>>;
  defsKeyword: "$defs" | "definitions";
  /** Definitions a value of which can hold a closed tagged union (schema/unions.ts). */
  reachesClosed: ReadonlySet<string>;
  /** The `unevaluated*` keywords some definition gives a schema or `false` (`unevaluatedReaders`). */
  readsUnevaluated: ReadonlySet<string>;
  /** The schema file and the JSON pointer of what is being prepared, for warnings. */
  file: string;
  at: string;
  diagnostics: Diagnostics;
}

export const stripTitles: Rule = {
  name: "strip-titles",
  reason:
    "json-schema-to-typescript names a type after its `title`, which upstream puts on union branches; the branch names then outrank the $defs keys and types get renamed with numeric suffixes (Request1).",
  apply(node) {
    if (!Object.hasOwn(node, "title")) return node;
    const { title: _title, ...rest } = node;
    return rest;
  },
};

export const annotationsOnlyAreAny: Rule = {
  name: "annotations-only-are-any",
  reason:
    "A schema holding only annotations (a description, a default, the x-* vocabulary) admits every JSON value, as ToolCall's `rawInput` does; json-schema-to-typescript types it as an object of any keys all the same, so the type would claim what the value need not be. `tsType: unknown` says what the schema says.",
  apply(node) {
    if (Object.hasOwn(node, "tsType")) return node;
    const keys = Object.keys(node);
    if (keys.length === 0 || !keys.every((k) => ANNOTATION_KEYWORDS.has(k) || ACP_KEYWORDS.has(k)))
      return node;
    return { ...node, tsType: "unknown" };
  },
};

export const splitPropertiesFromUnion: Rule = {
  name: "split-properties-from-union",
  reason:
    "A schema with both `properties` and `anyOf`/`oneOf` makes json-schema-to-typescript invent a helper type named after the definition plus a digit (CreateElicitationRequest1); an equivalent `allOf` of the two parts keeps it anonymous.",
  apply(node) {
    const union = Object.hasOwn(node, "oneOf")
      ? "oneOf"
      : Object.hasOwn(node, "anyOf")
        ? "anyOf"
        : undefined;
    if (!union || !Object.hasOwn(node, "properties")) return node;
    const { [union]: branches, description, allOf, ...rest } = node;
    const parts: Json[] = [
      { [union]: branches as Json },
      rest,
      ...(Array.isArray(allOf) ? allOf : []),
    ];
    return description === undefined ? { allOf: parts } : { description, allOf: parts };
  },
};

export const refBesideKeywords: Rule = {
  name: "ref-beside-keywords",
  reason:
    "Older releases put `description`/`default` beside a `$ref` (valid in 2020-12). json-schema-to-typescript then copies the referenced type under a new name with a digit suffix (AgentCapabilities1); wrapping the ref in `allOf` keeps the reference by name.",
  apply(node) {
    if (!Object.hasOwn(node, "$ref") || Object.keys(node).length === 1) return node;
    const { $ref, allOf, ...rest } = node;
    return { ...rest, allOf: [{ $ref: $ref as Json }, ...(Array.isArray(allOf) ? allOf : [])] };
  },
};

export const untaggedVariantsWithoutTag: Rule = {
  name: "untagged-variants-without-tag",
  reason:
    'serde reads a value of a tagged union that no tagged variant takes as an untagged variant, and ignores the tag; parsing drops it, so such a variant never holds the tag. Declaring the tag `false` there (json-schema-to-typescript writes `tag?: never`) says so in the type, and makes narrowing on the tag sound: `if (m.type === "terminal")` compiles on every variant and reaches the tagged one only.',
  apply(node, context) {
    const resolve = (ref: string): Json | undefined => {
      const key = refTarget(ref, context.defsKeyword);
      return key !== undefined && Object.hasOwn(context.defs, key) ? context.defs[key] : undefined;
    };
    const union = taggedUnion(node, resolve);
    if (!union) return node;
    const branches = node[union.keyword] as Json[];
    let changed = false;
    const next = branches.map((branch, i) => {
      if (union.variants[i]?.kind !== "untagged" || !isObject(branch)) return branch;
      const types = typesOf(branch);
      if (types && !types.includes("object")) return branch;
      if (declares(branch, union.tag, resolve, new Set())) return branch;
      changed = true;
      const properties = {
        ...(isObject(branch.properties) ? branch.properties : {}),
        [union.tag]: false,
      };
      if (typeof branch.$ref !== "string") return { ...branch, properties };
      // Beside a `$ref`, as ref-beside-keywords would write it: json-schema-to-typescript
      // would copy the referenced type under a new name otherwise.
      const { $ref, allOf, ...rest } = branch;
      return {
        ...rest,
        properties,
        allOf: [{ $ref: $ref as Json }, ...(Array.isArray(allOf) ? allOf : [])],
      };
    });
    return changed ? { ...node, [union.keyword]: next } : node;
  },
};

/** Whether a branch, its `allOf` parts or what they refer to declare the property `name`. */
function declares(
  branch: Json,
  name: string,
  resolve: (ref: string) => Json | undefined,
  seen: Set<string>,
): boolean {
  if (!isObject(branch)) return false;
  if (isObject(branch.properties) && Object.hasOwn(branch.properties, name)) return true;
  if (typeof branch.$ref === "string" && !seen.has(branch.$ref)) {
    seen.add(branch.$ref);
    const target = resolve(branch.$ref);
    if (target !== undefined && declares(target, name, resolve, seen)) return true;
  }
  return Array.isArray(branch.allOf) && branch.allOf.some((p) => declares(p, name, resolve, seen));
}

export const refsToPlainTypes: Rule = {
  name: "refs-to-plain-types",
  reason:
    "A received type differs from the plain one only where a closed tagged union can be below it. A reference to any other definition names the plain type instead (json-schema-to-typescript writes `tsType` as is), so received.d.ts declares only what differs.",
  apply(node, context) {
    const ref = onlyRef(node);
    const key = ref === undefined ? undefined : refTarget(ref, context.defsKeyword);
    if (key === undefined || !Object.hasOwn(context.defs, key) || context.reachesClosed.has(key))
      return node;
    return { tsType: key };
  },
};

export const escapeCommentTerminators: Rule = {
  name: "escape-comment-terminators",
  reason:
    "Descriptions become JSDoc comments; a `*/` inside one would end the comment early and turn the rest into code.",
  apply(node) {
    if (typeof node.description !== "string" || !node.description.includes("*/")) return node;
    return { ...node, description: node.description.replace(/\*\//g, "*\\/") };
  },
};

/**
 * ajv turns `discriminator` into a dispatch on the tag instead of trying every branch, but
 * only for a `oneOf` whose every branch declares the tag as a required `const`/`enum`
 * (directly or through a plain `$ref`). Older releases put it beside `anyOf`, and open
 * unions have a catch-all branch; there the hint is dropped and plain `oneOf`/`anyOf`
 * semantics apply, which is what the schema means anyway.
 */
export const discriminatorForAjv: Rule = {
  name: "discriminator-for-ajv",
  reason:
    "ajv rejects a `discriminator` it cannot dispatch on, and its strict mode wants `type: object` beside one; every branch of a discriminated union is an object, so adding the type changes nothing.",
  apply(node, context) {
    if (!Object.hasOwn(node, "discriminator")) return node;
    if (!dispatchable(node, context)) {
      const { discriminator: _unused, ...rest } = node;
      return rest;
    }
    return Object.hasOwn(node, "type") ? node : { type: "object", ...node };
  },
};

function dispatchable(node: JsonObject, { defs, defsKeyword }: RuleContext): boolean {
  const resolve = (branch: Json): Json => {
    const ref = onlyRef(branch);
    const key = ref === undefined ? undefined : refTarget(ref, defsKeyword);
    return (key !== undefined && Object.hasOwn(defs, key) ? defs[key] : undefined) ?? branch;
  };
  const tag = discriminatorOf(node);
  if (
    tag === undefined ||
    !Array.isArray(node.oneOf) ||
    (isObject(node.discriminator) && node.discriminator.mapping)
  )
    return false;
  const topRequired = Array.isArray(node.required) && node.required.includes(tag);
  return node.oneOf.every((raw) => {
    const branch = resolve(raw);
    if (!isObject(branch) || !isObject(branch.properties)) return false;
    const prop = branch.properties[tag];
    const required =
      topRequired || (Array.isArray(branch.required) && branch.required.includes(tag));
    return (
      isObject(prop) && (Object.hasOwn(prop, "const") || Object.hasOwn(prop, "enum")) && required
    );
  });
}

/** The constant of a branch that is nothing but `{const}` (with a matching `type`), if it is one. */
function constOf(branch: Json): { value: Json } | undefined {
  if (!isObject(branch) || !Object.hasOwn(branch, "const")) return undefined;
  if (Object.keys(branch).some((k) => k !== "const" && k !== "type")) return undefined;
  const value = branch.const as Json;
  const type = jsonType(value);
  if (
    branch.type !== undefined &&
    branch.type !== type &&
    !(branch.type === "number" && type === "integer")
  )
    return undefined;
  return { value };
}

export const enumsAsEnum: Rule = {
  name: "enums-as-enum",
  reason:
    "Upstream writes enums as oneOf/anyOf of {type, const} branches (so each value can carry a description). ajv then tries every branch and allocates an error for each that fails, on every call. A closed set is an `enum`; an open one (consts plus one catch-all {type} under anyOf) is the catch-all alone, which every const already satisfies.",
  apply(node) {
    for (const union of ["oneOf", "anyOf"] as const) {
      const branches = node[union];
      if (!Array.isArray(branches) || branches.length < 2) continue;
      const consts = branches.map(constOf);
      const values = consts.filter((c) => c !== undefined).map((c) => c.value);
      if (values.length < 2 || new Set(values.map((v) => JSON.stringify(v))).size !== values.length)
        continue;
      const others = branches.filter((_b, i) => consts[i] === undefined);
      const { [union]: _dropped, ...rest } = node;
      if (others.length === 0) return { ...rest, enum: values };
      const [catchAll] = others;
      if (
        union === "anyOf" &&
        others.length === 1 &&
        isObject(catchAll) &&
        Object.keys(catchAll).length === 1 &&
        typeof catchAll.type === "string" &&
        values.every(
          (v) =>
            jsonType(v) === catchAll.type ||
            (catchAll.type === "number" && jsonType(v) === "integer"),
        )
      ) {
        return { ...rest, type: catchAll.type };
      }
    }
    return node;
  },
};

/**
 * The `unevaluated*` keywords some definition of the surface gives a schema or `false`: a
 * `true` elsewhere marks everything it sees as evaluated for those, through `$ref` and the
 * in-place applicators, so there it is not a no-op.
 */
export function unevaluatedReaders(defs: Readonly<Record<string, Json>>): ReadonlySet<string> {
  const keywords = new Set<string>();
  for (const def of Object.values(defs))
    forEachSchema(def, (node) => {
      for (const keyword of UNEVALUATED_KEYWORDS)
        if (node[keyword] !== undefined && node[keyword] !== true) keywords.add(keyword);
    });
  return keywords;
}

export const dropNoopUnevaluated: Rule = {
  name: "drop-noop-unevaluated",
  reason:
    "`unevaluatedProperties: true` / `unevaluatedItems: true` can never fail, yet their presence makes ajv track evaluated properties in every validator. Kept where a definition of the surface has the same keyword with a schema or `false`, which reads what the `true` marks evaluated.",
  apply(node, context) {
    const drop = UNEVALUATED_KEYWORDS.filter(
      (k) => node[k] === true && !context.readsUnevaluated.has(k),
    );
    if (drop.length === 0) return node;
    const rest = { ...node };
    for (const k of drop) delete rest[k];
    return rest;
  },
};

/** The id prefix of each definition compiled as a schema of its own (validators.js). */
export const DEFINITION_ID = "acp-codegen:definition:";

/**
 * `#/$defs/Name` → `acp-codegen:definition:Name`: each definition compiled as a schema of
 * its own. Exported through a pointer into one big schema, ajv compiles a definition twice
 * (as the export and again where another reaches it by $ref): 349 functions for 178
 * definitions.
 */
export const refsToOwnIds: Rule = {
  name: "refs-to-own-ids",
  reason: "one compiled function per definition instead of two",
  apply(node, { defsKeyword }) {
    const key = typeof node.$ref === "string" ? refTarget(node.$ref, defsKeyword) : undefined;
    return key === undefined ? node : { ...node, $ref: `${DEFINITION_ID}${key}` };
  },
};

/** The id of the one schema holding a surface's definitions, for checks compiled beside them. */
export const SURFACE_ID = "acp-codegen:surface";

/**
 * `#/$defs/Name` → `acp-codegen:surface#/$defs/Name`: a parse check compiled as a schema of
 * its own still reaches the definitions, held in one container schema with that id.
 */
export const refsToSurface: Rule = {
  name: "refs-to-surface",
  reason:
    "a check compiled under its own id would resolve `#/$defs/…` against itself, where there are no definitions",
  apply(node, { defsKeyword }) {
    const key = typeof node.$ref === "string" ? refTarget(node.$ref, defsKeyword) : undefined;
    return key === undefined ? node : { ...node, $ref: `${SURFACE_ID}${refTo(defsKeyword, key)}` };
  },
};

/** Remove every keyword that cannot change validity, and warn about keywords nobody knows. */
export const stripAnnotations: Rule = {
  name: "strip-annotations",
  reason:
    "Validators only need assertions. ajv's standalone code embeds whole schema objects for some error messages, so descriptions would bloat the generated validators many times over; unknown keywords cannot be enforced and must not crash strict mode. `discriminator` stays, for discriminator-for-ajv.",
  apply(node, { diagnostics, file, at }) {
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (ANNOTATION_KEYWORDS.has(key)) continue;
      if (ACP_KEYWORDS.has(key)) {
        if (key === "discriminator") out[key] = value;
        continue;
      }
      if (!STANDARD_KEYWORDS.has(key)) {
        diagnostics.warn(
          file,
          at,
          `unknown keyword ${JSON.stringify(key)} ignored by the validators`,
        );
        continue;
      }
      out[key] = value;
    }
    return out;
  },
};

/** Apply rules in order at every subschema position (bottom-up). */
export function applyRules(schema: Json, rules: readonly Rule[], context: RuleContext): Json {
  return mapSchema(schema, (node) =>
    rules.reduce<JsonObject>((acc, rule) => rule.apply(acc, context), node),
  );
}
