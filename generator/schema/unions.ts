import { isObject, type Json, type JsonObject } from "./json.js";
import { discriminatorOf, literalOf, requiredOf, unionKeyword } from "./node.js";
import { directRefs, refTarget } from "./refs.js";

/**
 * Tagged unions as the schema writes them: a `oneOf`/`anyOf` whose branches pin one
 * property to a string `const` (`SessionUpdate.sessionUpdate`, `ContentBlock.type`). Upstream
 * writes three kinds of branch, and parse, the narrowing helpers, the types backend and the
 * tests all need to tell them apart the same way, so the classification lives here and
 * nowhere else.
 */
export interface TaggedUnion {
  keyword: "oneOf" | "anyOf";
  /** The property that carries the tag. */
  tag: string;
  /** In schema order: serde tries untagged variants in declaration order. */
  variants: UnionVariant[];
}

export type UnionVariant =
  /** Selected by `tag === value`. */
  | { kind: "tagged"; index: number; value: string; schema: Json }
  /**
   * The open union's catch-all: the tag is any string, and (upstream always adds this)
   * a `not` excludes the known tags, so a known tag with a broken payload is never
   * mistaken for a custom variant.
   */
  | { kind: "other"; index: number; schema: Json }
  /** No tag of its own (`McpServerStdio` in v1, a `null` branch): tried by its shape. */
  | { kind: "untagged"; index: number; schema: Json };

/** Resolves a plain `{"$ref": …}` branch to the definition it names, one level deep. */
export type ResolveRef = (ref: string) => Json | undefined;

/** The union at the root of `node`, when it has at least one tagged branch. */
export function taggedUnion(node: JsonObject, resolve: ResolveRef): TaggedUnion | undefined {
  const keyword = unionKeyword(node);
  if (!keyword) return undefined;
  const branches = (node[keyword] as Json[]).map((b) => branchShape(b, resolve));
  const tag = tagProperty(node, branches);
  if (tag === undefined) return undefined;
  const topRequired = requiredOf(node);
  const variants = branches.map((branch, index): UnionVariant => {
    const schema = (node[keyword] as Json[])[index] as Json;
    const value = constTag(branch, tag, topRequired);
    if (value !== undefined) return { kind: "tagged", index, value, schema };
    return isOpenTag(branch, tag)
      ? { kind: "other", index, schema }
      : { kind: "untagged", index, schema };
  });
  const tagged = variants.filter((v) => v.kind === "tagged");
  if (tagged.length === 0) return undefined;
  // Two branches claiming one tag would make dispatch ambiguous; plain validation copes.
  if (new Set(tagged.map((v) => v.value)).size !== tagged.length) return undefined;
  return { keyword, tag, variants };
}

/** Every tag value a known (tagged) variant claims, in schema order. */
export function knownTags(union: TaggedUnion): string[] {
  return union.variants.flatMap((v) => (v.kind === "tagged" ? [v.value] : []));
}

export function hasCatchAll(union: TaggedUnion): boolean {
  return union.variants.some((v) => v.kind === "other");
}

/**
 * The property that tags the union: `discriminator.propertyName` when the schema names it,
 * otherwise the const-pinned property that the most branches share (first in schema order
 * on a tie, so the choice is deterministic).
 */
function tagProperty(node: JsonObject, branches: JsonObject[]): string | undefined {
  const declared = discriminatorOf(node);
  if (declared !== undefined) return declared;
  const topRequired = requiredOf(node);
  const counts = new Map<string, number>();
  for (const branch of branches) {
    if (!isObject(branch.properties)) continue;
    for (const name of Object.keys(branch.properties))
      if (constTag(branch, name, topRequired) !== undefined)
        counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [name, count] of counts)
    if (best === undefined || count > (counts.get(best) ?? 0)) best = name;
  return best;
}

/** The tag value a branch pins (`const`, or a one-value `enum`), when it also requires it. */
function constTag(branch: JsonObject, tag: string, topRequired: string[]): string | undefined {
  const prop = isObject(branch.properties) ? branch.properties[tag] : undefined;
  if (!isObject(prop)) return undefined;
  const value = literalOf(prop);
  if (typeof value !== "string") return undefined;
  return requiredOf(branch).includes(tag) || topRequired.includes(tag) ? value : undefined;
}

/** A catch-all: the tag is required to be a string but pinned to no value. */
function isOpenTag(branch: JsonObject, tag: string): boolean {
  const prop = isObject(branch.properties) ? branch.properties[tag] : undefined;
  return (
    isObject(prop) &&
    prop.type === "string" &&
    prop.const === undefined &&
    prop.enum === undefined &&
    requiredOf(branch).includes(tag)
  );
}

/** A branch's own object, or the definition it is a bare `$ref` to (older releases). */
function branchShape(branch: Json, resolve: ResolveRef): JsonObject {
  if (!isObject(branch)) return {};
  if (typeof branch.$ref === "string" && !isObject(branch.properties)) {
    const target = resolve(branch.$ref);
    if (isObject(target)) return target;
  }
  return branch;
}

/**
 * A tagged union without a catch-all variant: serde rejects a tag it does not know. The open
 * reading (`unknownVariants: "keep"`) keeps such a value as an unknown variant instead.
 */
export function isClosed(union: TaggedUnion): boolean {
  return !hasCatchAll(union);
}

/**
 * The definitions a value can hold a closed tagged union in, at a definition's root (those
 * unions included): the ones the open reading can read differently, and whose received
 * type admits unknown variants. By the references between definitions, to a fixpoint
 * (they form cycles).
 */
export function reachingClosedUnions(
  defs: Readonly<Record<string, Json>>,
  defsKeyword: string,
): Set<string> {
  const resolve = (ref: string): Json | undefined => {
    const key = refTarget(ref, defsKeyword);
    return key !== undefined && Object.hasOwn(defs, key) ? defs[key] : undefined;
  };
  const reach = new Set<string>();
  const refs = new Map<string, Set<string>>();
  for (const [key, schema] of Object.entries(defs)) {
    const union = isObject(schema) ? taggedUnion(schema, resolve) : undefined;
    if (union && isClosed(union)) reach.add(key);
    refs.set(key, directRefs(schema, defsKeyword));
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const [key, targets] of refs) {
      if (reach.has(key) || ![...targets].some((t) => reach.has(t))) continue;
      reach.add(key);
      changed = true;
    }
  }
  return reach;
}

/**
 * A closed tagged union as the open reading sees it: one more branch, for any object whose
 * tag is a string no variant claims, with whatever else it holds (a newer peer's variant).
 * The open reading's checks and its received types are both made from this.
 */
export function withUnknownVariant(schema: JsonObject, union: TaggedUnion): JsonObject {
  const branches = schema[union.keyword];
  if (!Array.isArray(branches) || !isClosed(union)) return schema;
  const unknown: JsonObject = {
    description: `A variant this package does not know: its \`${union.tag}\` is none of the known ones (a newer peer's). Only the open reading (\`unknownVariants: "keep"\`) admits it, whole.`,
    type: "object",
    properties: { [union.tag]: { type: "string", not: { enum: knownTags(union) } } },
    required: [union.tag],
    additionalProperties: true,
  };
  return { ...schema, [union.keyword]: [...branches, unknown] };
}
