import { isObject, type Json, type JsonObject } from "../../schema/json.js";
import { discriminatorOf, typesOf, unionKeyword } from "../../schema/node.js";
import { refTarget } from "../../schema/refs.js";
import { isAnnotation } from "./keywords.js";
import { branchVariants, type Variants, valueVariants } from "./variants.js";
import type { DefsSide } from "./walk.js";

/**
 * One schema node as the diff sees it. Upstream has written the same type several ways
 * over the releases, and the view makes them compare equal:
 *
 * - `{"$ref": X, "description": …}` (old) and `{"allOf": [{"$ref": X}], "description": …}`;
 * - `"type": ["string", "null"]` and `"anyOf": [{"type": "string"}, {"type": "null"}]`
 *   (both are "nullable string");
 * - `"enum": ["a", "b"]` and `"oneOf": [{"const": "a"}, {"const": "b"}]` (same variant tags);
 * - a union branch with its fields inline, and one that lists a tag and `allOf`s a named
 *   definition holding the fields (see `expandRefs`).
 */
export interface SchemaView {
  /** Annotation keywords (docs, defaults, x-*); the outer node's win over a collapsed branch's. */
  annotations: JsonObject;
  /** The node structure is read from: the node itself, or the one non-null branch of a nullable union. */
  structure: JsonObject;
  /** Absolute pointer tokens of `structure`. */
  tokens: string[];
  /** Definitions this node is (or is composed from): `$ref`, and `allOf` entries that are bare refs. */
  refs: string[];
  /** The refs' fields have been merged into `properties`/`required`. */
  expanded: boolean;
  /** Allowed JSON types without `null`; undefined when the node does not say. */
  types?: Set<string>;
  nullable: boolean;
  variants?: Variants;
  /** Pointer tokens of the array holding the variants (`…/oneOf`, `…/enum`). */
  variantTokens: string[];
  properties: Map<string, { schema: Json; tokens: string[] }>;
  required: Set<string>;
  /** `allOf` entries that are not bare refs, compared position by position. */
  allOf: Array<{ schema: Json; index: number }>;
  /** For the boolean schemas `true` (anything) and `false` (nothing). */
  boolean?: boolean;
}

export function viewOf(node: Json, tokens: string[], side: DefsSide): SchemaView {
  if (!isObject(node)) {
    return { ...emptyView({}, tokens), boolean: node !== false, nullable: node !== false };
  }
  const union = unionOf(node);
  const nullBranches = union ? union.branches.filter((b) => isNullSchema(b.schema)) : [];
  const others = union ? union.branches.filter((b) => !isNullSchema(b.schema)) : [];
  let nullable = nullBranches.length > 0;

  // `anyOf: [X, {type: null}]` is "X or null": read X's structure, keep the outer docs.
  const onlyBranch = others.length === 1 ? others[0] : undefined;
  // Only a union *with* a null branch collapses: a one-branch union without one is a union
  // with a single variant, and must still compare as such when variants are added.
  const collapse =
    union !== undefined &&
    nullBranches.length > 0 &&
    onlyBranch !== undefined &&
    isObject(onlyBranch.schema) &&
    Object.keys(node).every((k) => k === union.keyword || isAnnotation(k));
  const structure =
    collapse && onlyBranch && isObject(onlyBranch.schema) ? onlyBranch.schema : node;
  const structureTokens =
    collapse && union && onlyBranch ? [...tokens, union.keyword, String(onlyBranch.index)] : tokens;

  const annotations: JsonObject = {};
  for (const source of collapse ? [structure, node] : [node]) {
    for (const [k, v] of Object.entries(source)) if (isAnnotation(k)) annotations[k] = v;
  }
  const view = emptyView(structure, structureTokens);
  view.annotations = annotations;

  if (typeof structure.$ref === "string")
    view.refs.push(refTarget(structure.$ref, side.keyword) ?? structure.$ref);
  if (Array.isArray(structure.allOf)) {
    for (const [index, entry] of structure.allOf.entries()) {
      const ref = bareRef(entry);
      if (ref !== undefined) view.refs.push(refTarget(ref, side.keyword) ?? ref);
      else view.allOf.push({ schema: entry as Json, index });
    }
  }

  const types = typesOf(structure);
  if (types) {
    if (types.includes("null")) nullable = true;
    view.types = new Set(types.filter((t) => t !== "null"));
  }

  if (Array.isArray(structure.enum)) {
    if (structure.enum.includes(null)) nullable = true;
    view.variants = valueVariants(
      "enum",
      (structure.enum as Json[]).filter((v) => v !== null),
    );
    view.variantTokens = [...structureTokens, "enum"];
  } else if (Object.hasOwn(structure, "const")) {
    view.variants = valueVariants("const", [structure.const as Json]);
    view.variantTokens = [...structureTokens];
  } else if (union && !collapse) {
    view.variants = branchVariants(union.keyword, others, discriminatorOf(structure), side.keyword);
    view.variantTokens = [...structureTokens, union.keyword];
  } else if (collapse) {
    // The collapsed branch may itself be a union (`anyOf: [{anyOf: [...]}, {type: null}]`).
    const inner = unionOf(structure);
    if (inner) {
      const innerOthers = inner.branches.filter((b) => !isNullSchema(b.schema));
      if (innerOthers.length < inner.branches.length) nullable = true;
      view.variants = branchVariants(
        inner.keyword,
        innerOthers,
        discriminatorOf(structure),
        side.keyword,
      );
      view.variantTokens = [...structureTokens, inner.keyword];
    }
  }

  if (isObject(structure.properties)) {
    for (const [name, schema] of Object.entries(structure.properties)) {
      view.properties.set(name, { schema, tokens: [...structureTokens, "properties", name] });
    }
  }
  if (Array.isArray(structure.required)) {
    for (const name of structure.required) if (typeof name === "string") view.required.add(name);
  }

  // A schema that constrains nothing accepts `null` too; without this, `{}` → `{type: [x, null]}`
  // would read as "null added" rather than "narrowed to x".
  view.nullable = nullable || acceptsAnything(view);
  return view;
}

function emptyView(structure: JsonObject, tokens: string[]): SchemaView {
  return {
    annotations: {},
    structure,
    tokens,
    refs: [],
    expanded: false,
    nullable: false,
    variantTokens: tokens,
    properties: new Map(),
    required: new Set(),
    allOf: [],
  };
}

/** Nothing but a `$ref` (and annotations): the node *is* the referenced definition. */
export function isPureRef(view: SchemaView): boolean {
  return (
    view.refs.length === 1 &&
    view.allOf.length === 0 &&
    view.types === undefined &&
    view.variants === undefined &&
    view.properties.size === 0 &&
    view.required.size === 0 &&
    Object.keys(view.structure).every((k) => k === "$ref" || k === "allOf" || isAnnotation(k))
  );
}

function acceptsAnything(view: SchemaView): boolean {
  return (
    view.boolean === undefined &&
    view.refs.length === 0 &&
    view.types === undefined &&
    view.variants === undefined &&
    view.properties.size === 0 &&
    view.allOf.length === 0 &&
    Object.keys(view.structure).every((k) => isAnnotation(k))
  );
}

/**
 * Merge the fields of every definition this node is composed from into the view, so a
 * branch that moved its fields into a named definition (or back) compares field by field.
 * Pointers of merged fields point into the definition that declares them.
 */
export function expandRefs(view: SchemaView, side: DefsSide, seen = new Set<string>()): SchemaView {
  if (view.expanded || view.refs.length === 0) return view;
  const properties = new Map(view.properties);
  const required = new Set(view.required);
  let { types, variants, variantTokens } = view;
  let nullable = view.nullable;
  for (const ref of view.refs) {
    if (seen.has(ref) || !Object.hasOwn(side.defs, ref)) continue;
    const target = expandRefs(
      viewOf(side.defs[ref] as Json, [side.keyword, ref], side),
      side,
      new Set([...seen, ref]),
    );
    for (const [name, prop] of target.properties)
      if (!properties.has(name)) properties.set(name, prop);
    for (const name of target.required) required.add(name);
    types ??= target.types;
    if (!variants && target.variants) {
      variants = target.variants;
      variantTokens = target.variantTokens;
    }
    // A bare `$ref` to a nullable definition is nullable; an `allOf` part alone cannot make it so.
    if (isPureRef(view)) nullable ||= target.nullable;
  }
  return {
    ...view,
    expanded: true,
    properties,
    required,
    nullable,
    variantTokens,
    ...(types ? { types } : {}),
    ...(variants ? { variants } : {}),
  };
}

function unionOf(
  node: JsonObject,
): { keyword: "oneOf" | "anyOf"; branches: Array<{ schema: Json; index: number }> } | undefined {
  const keyword = unionKeyword(node);
  if (!keyword) return undefined;
  const branches = (node[keyword] as Json[]).map((schema, index) => ({ schema, index }));
  return { keyword, branches };
}

function isNullSchema(schema: Json): boolean {
  if (!isObject(schema)) return false;
  const types = typesOf(schema);
  const onlyNull =
    (types !== undefined && types.length === 1 && types[0] === "null") ||
    (Object.hasOwn(schema, "const") && schema.const === null);
  return (
    onlyNull && Object.keys(schema).every((k) => k === "type" || k === "const" || isAnnotation(k))
  );
}

function bareRef(entry: unknown): string | undefined {
  if (!isObject(entry) || typeof entry.$ref !== "string") return undefined;
  return Object.keys(entry).every((k) => k === "$ref" || isAnnotation(k)) ? entry.$ref : undefined;
}
