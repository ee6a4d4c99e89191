import { canonical } from "../../schema/equal.js";
import { isObject, type Json, type JsonObject } from "../../schema/json.js";
import { literalOf } from "../../schema/node.js";
import { refTarget } from "../../schema/refs.js";

/**
 * One alternative of an enum or a union. Branches are matched between releases by `tag`,
 * never by position: upstream reorders `oneOf` branches, and a variant inserted in the
 * middle must not make every later one look changed.
 */
export interface Variant {
  /** Identity across releases: `="end_turn"`, `type="text"`, `ref:TextContent`, `(other)`… */
  tag: string;
  /** How the variant is shown to people: `"end_turn"`, `type: "text"`, `TextContent`. */
  label: string;
  /** Position in the schema's array, for the JSON pointer. */
  index: number;
  /** The branch schema; absent for plain `enum` values. */
  schema?: Json;
  /** The catch-all branch of an open union (accepts tags nobody listed). */
  other: boolean;
}

export interface Variants {
  /** Where the variants are written; the pointer to a variant is `<source>/<index>`. */
  source: "enum" | "const" | "oneOf" | "anyOf";
  items: Variant[];
  /**
   * An open union has a catch-all branch (`title: "other"`, or a `not` excluding the known
   * tags). Readers of an open union must already cope with unknown tags, so a new variant
   * does not break them.
   */
  open: boolean;
}

const OTHER_TITLE = /^other$/i;

export function valueVariants(source: "enum" | "const", values: Json[]): Variants {
  return {
    source,
    open: false,
    items: dedupe(
      values.map((value, index) => ({
        tag: `=${canonical(value)}`,
        label: canonical(value),
        index,
        other: false,
      })),
    ),
  };
}

export function branchVariants(
  source: "oneOf" | "anyOf",
  branches: Array<{ schema: Json; index: number }>,
  discriminator: string | undefined,
  defsKeyword: string,
): Variants {
  const identified = branches.map(({ schema, index }) => ({
    ...identify(schema, discriminator, defsKeyword),
    index,
    schema,
  }));
  const items = dedupe(preferTypes(markCatchAll(identified)));
  return { source, items, open: items.some((v) => v.other) };
}

/**
 * Upstream writes the catch-all of an open enum without a marker, too: ErrorCode lists
 * `{const: -32700, type: integer}`… and then `{type: integer}` ("other undefined error
 * code"). Beside literal siblings, a branch that only names a type is a catch-all; beside
 * siblings tagged by a property, so is a branch declaring that property without a literal.
 */
function markCatchAll(items: Variant[]): Variant[] {
  const literalSiblings = items.some((v) => v.tag.startsWith("="));
  const tagProperties = new Set(
    items.filter((v) => /^[^=:()]+=/.test(v.tag)).map((v) => v.tag.slice(0, v.tag.indexOf("="))),
  );
  return items.map((v) => {
    if (v.other || !isObject(v.schema) || v.tag.startsWith("=") || v.tag.startsWith("ref:"))
      return v;
    const props = isObject(v.schema.properties) ? v.schema.properties : {};
    const byType = literalSiblings && v.schema.type !== undefined && !isObject(v.schema.properties);
    const byProperty =
      [...tagProperties].some((p) => Object.hasOwn(props, p)) && !/^[^=:()]+=/.test(v.tag);
    return byType || byProperty
      ? { ...v, tag: "(other)", label: "other (catch-all)", other: true }
      : v;
  });
}

/** How a union branch is recognised, most specific first (the tag a reader switches on). */
function identify(
  branch: Json,
  discriminator: string | undefined,
  defsKeyword: string,
): Pick<Variant, "tag" | "label" | "other"> {
  if (!isObject(branch))
    return { tag: `schema:${canonical(branch)}`, label: String(branch), other: false };
  const value = literalOf(branch);
  if (value !== undefined)
    return { tag: `=${canonical(value)}`, label: canonical(value), other: false };

  const property = tagProperty(branch, discriminator);
  if (property) {
    const [name, tagValue] = property;
    return { tag: `${name}=${canonical(tagValue)}`, label: canonical(tagValue), other: false };
  }
  const title = typeof branch.title === "string" ? branch.title : undefined;
  if (Object.hasOwn(branch, "not") || (title !== undefined && OTHER_TITLE.test(title))) {
    return { tag: "(other)", label: "other (catch-all)", other: true };
  }
  const ref = singleRef(branch, defsKeyword);
  if (ref !== undefined) return { tag: `ref:${ref}`, label: ref, other: false };
  // Untagged object branches (a JSON-RPC result vs an error) differ by the fields they
  // require; that survives upstream adding or dropping branch titles between releases.
  const fields = fieldNames(branch);
  if (fields.length > 0)
    return { tag: `fields:${fields.join(",")}`, label: `{${fields.join(", ")}}`, other: false };
  // Settled per union by `preferTypes`: a title or the JSON type.
  if (title !== undefined) return { tag: `title:${title}`, label: title, other: false };
  if (branch.type !== undefined) return typeTag(branch.type);
  return { tag: `schema:${canonical(branch)}`, label: "unnamed branch", other: false };
}

function typeTag(type: Json): Pick<Variant, "tag" | "label" | "other"> {
  const types = canonical(type);
  return { tag: `type:${types}`, label: `type ${types}`, other: false };
}

/**
 * Titles come and go between releases (RequestId's branches gained "Number" and "Str"),
 * while a branch's JSON type is part of what it accepts. Where a titled branch's type is
 * unique in its union, the type identifies it; titles only separate same-typed branches.
 */
function preferTypes(items: Variant[]): Variant[] {
  const jsonTypeOf = (v: Variant) =>
    isObject(v.schema) && v.schema.type !== undefined ? canonical(v.schema.type) : undefined;
  const counts = new Map<string, number>();
  for (const v of items) {
    const t = jsonTypeOf(v);
    if (t !== undefined) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  return items.map((v) => {
    const t = jsonTypeOf(v);
    if (!v.tag.startsWith("title:") || t === undefined || counts.get(t) !== 1) return v;
    return { ...v, ...typeTag((v.schema as JsonObject).type as Json) };
  });
}

/**
 * The property whose `const` tells branches apart: the union's `discriminator` when it has
 * one, else the first property (in name order, so the choice does not depend on key order)
 * that holds a literal.
 */
function tagProperty(
  branch: JsonObject,
  discriminator: string | undefined,
): [string, Json] | undefined {
  const properties = isObject(branch.properties) ? branch.properties : undefined;
  if (!properties) return undefined;
  const names = discriminator !== undefined ? [discriminator] : Object.keys(properties).sort();
  for (const name of names) {
    const schema = properties[name];
    if (!isObject(schema)) continue;
    const value = literalOf(schema);
    if (value !== undefined) return [name, value];
  }
  return undefined;
}

function fieldNames(branch: JsonObject): string[] {
  if (Array.isArray(branch.required) && branch.required.length > 0) {
    return branch.required.filter((n): n is string => typeof n === "string").sort();
  }
  return isObject(branch.properties) ? Object.keys(branch.properties).sort() : [];
}

/** `{"$ref": X}` or `{"allOf": [{"$ref": X}]}`, with nothing structural beside it. */
function singleRef(branch: JsonObject, defsKeyword: string): string | undefined {
  if (typeof branch.$ref === "string") return refTarget(branch.$ref, defsKeyword) ?? branch.$ref;
  if (Array.isArray(branch.allOf) && branch.allOf.length === 1) {
    const only = branch.allOf[0];
    if (isObject(only) && typeof only.$ref === "string")
      return refTarget(only.$ref, defsKeyword) ?? only.$ref;
  }
  return undefined;
}

/** Two branches with the same tag (rare: hand-written schemas) are told apart by order. */
function dedupe(items: Variant[]): Variant[] {
  const seen = new Map<string, number>();
  return items.map((v) => {
    const n = (seen.get(v.tag) ?? 0) + 1;
    seen.set(v.tag, n);
    return n === 1 ? v : { ...v, tag: `${v.tag}#${n}`, label: `${v.label} (#${n})` };
  });
}
