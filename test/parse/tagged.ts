import { isObject, type Json } from "../../generator/schema/json.js";

/**
 * The tests' own reading of tagged unions, apart from the generator's classifier
 * (generator/schema/unions.ts), so the tables and the mutations that exercise them do not
 * take its word for what a union is.
 *
 * A tagged union as serde writes an internally tagged enum into the schema: a `oneOf` or
 * `anyOf` at the root of a definition whose branches pin one property to a string (`const`,
 * or a one-value `enum`). A branch that pins it is a known variant; one that declares the
 * property without pinning it is the open catch-all (a custom tag); one without it is an
 * untagged variant, tried by its shape.
 */
export interface TaggedUnion {
  tag: string;
  /** In schema order. */
  variants: Variant[];
}
export type Variant =
  | { kind: "tagged"; value: string; schema: Json }
  | { kind: "other"; schema: Json }
  | { kind: "untagged"; schema: Json };

function pinned(property: Json | undefined): string | undefined {
  if (!isObject(property)) return undefined;
  const value =
    property.const ??
    (Array.isArray(property.enum) && property.enum.length === 1 ? property.enum[0] : undefined);
  return typeof value === "string" ? value : undefined;
}

/** The test's reading of a definition as a tagged union, or undefined when it is none. */
export function readTaggedUnion(schema: Json, defs: Map<string, Json>): TaggedUnion | undefined {
  if (!isObject(schema)) return undefined;
  const branches = Array.isArray(schema.oneOf)
    ? schema.oneOf
    : Array.isArray(schema.anyOf)
      ? schema.anyOf
      : [];
  // A branch that is a bare `$ref` (older releases) stands for the definition it names.
  const shapes = branches.map((b) =>
    isObject(b) && typeof b.$ref === "string" && !isObject(b.properties)
      ? (defs.get(b.$ref.split("/").pop() as string) ?? b)
      : b,
  );
  const propertiesOf = (b: Json) => (isObject(b) && isObject(b.properties) ? b.properties : {});
  const tags = new Set(
    shapes.flatMap((b) =>
      Object.entries(propertiesOf(b))
        .filter(([, p]) => pinned(p) !== undefined)
        .map(([k]) => k),
    ),
  );
  if (tags.size === 0) return undefined;
  if (tags.size > 1) throw new Error(`a union pinning several properties: ${[...tags].join(", ")}`);
  const tag = [...tags][0] as string;
  const variants = shapes.map((shape, i): Variant => {
    const schema = branches[i] as Json;
    const value = pinned(propertiesOf(shape)[tag]);
    if (value !== undefined) return { kind: "tagged", value, schema };
    return Object.hasOwn(propertiesOf(shape), tag)
      ? { kind: "other", schema }
      : { kind: "untagged", schema };
  });
  return { tag, variants };
}

export const knownTags = (union: TaggedUnion) =>
  union.variants.flatMap((v) => (v.kind === "tagged" ? [v.value] : []));
export const hasCatchAll = (union: TaggedUnion) => union.variants.some((v) => v.kind === "other");

/**
 * Every tag property of a surface's tagged unions, with the groups of values one union
 * gives it: where a message holds one of them, another of its group is a stale tag.
 */
export function tagGroups(defs: Map<string, Json>): Map<string, string[][]> {
  const groups = new Map<string, string[][]>();
  for (const schema of defs.values()) {
    const union = readTaggedUnion(schema, defs);
    if (!union) continue;
    const values = knownTags(union);
    if (values.length < 2) continue;
    groups.set(union.tag, [...(groups.get(union.tag) ?? []), values]);
  }
  return groups;
}
