import { jsonEqual } from "../../schema/equal.js";
import { isObject, type Json, type JsonObject } from "../../schema/json.js";
import { compareText } from "../text.js";
import type { SchemaView } from "./view.js";
import type { At, Walk } from "./walk.js";

/** Objects (fields, extra fields) and arrays (items, tuples, `allOf` parts). */

export function compareProperties(walk: Walk, va: SchemaView, vb: SchemaView, at: At): void {
  const closed = (s: JsonObject) =>
    s.additionalProperties === false || s.unevaluatedProperties === false;
  const names = [...new Set([...va.properties.keys(), ...vb.properties.keys()])].sort(compareText);
  for (const name of names) {
    const a = va.properties.get(name);
    const b = vb.properties.get(name);
    const field = `${at.label}.${name}`;
    if (a && !b) {
      const rejected = closed(vb.structure);
      walk.add(
        rejected ? "field-removed-from-closed-object" : "field-removed",
        a.tokens,
        field,
        `field removed (was ${va.required.has(name) ? "required" : "optional"}; readers that use it no longer compile${rejected ? "; extra fields are rejected, so builders that still send it fail validation" : ""})`,
      );
    } else if (!a && b) {
      const required = vb.required.has(name);
      walk.add(
        required ? "required-field-added" : "field-added",
        b.tokens,
        field,
        required ? "required field added (builders must now send it)" : "optional field added",
      );
    } else if (a && b) {
      const wasRequired = va.required.has(name);
      const isRequired = vb.required.has(name);
      if (!wasRequired && isRequired) {
        walk.add("field-required", b.tokens, field, "now required (builders must send it)");
      } else if (wasRequired && !isRequired) {
        walk.add(
          "field-optional",
          b.tokens,
          field,
          "now optional (readers must handle it missing)",
        );
      }
      walk.compare(a.schema, b.schema, { old: a.tokens, new: b.tokens, label: field });
    }
  }
  // `required` naming a field that `properties` does not declare (allowed by JSON Schema).
  const undeclared = [...new Set([...va.required, ...vb.required])]
    .filter((n) => !va.properties.has(n) && !vb.properties.has(n))
    .sort(compareText);
  for (const name of undeclared) {
    if (va.required.has(name) === vb.required.has(name)) continue;
    const added = vb.required.has(name);
    walk.add(
      added ? "undeclared-field-required" : "undeclared-field-optional",
      [...vb.tokens, "required"],
      at.label,
      `field "${name}" ${added ? "now required" : "no longer required"}`,
    );
  }
}

export function compareExtraProperties(
  walk: Walk,
  keyword: "additionalProperties" | "unevaluatedProperties",
  va: SchemaView,
  vb: SchemaView,
  at: At,
): void {
  // Absent means "anything", exactly like `true`.
  const a = va.structure[keyword] ?? true;
  const b = vb.structure[keyword] ?? true;
  if (jsonEqual(a, b)) return;
  const tokens = [...vb.tokens, keyword];
  if (isObject(a) && isObject(b)) {
    walk.compare(a, b, { old: [...va.tokens, keyword], new: tokens, label: `${at.label}[key]` });
  } else if (b === false) {
    walk.add(
      "extra-fields-rejected",
      tokens,
      at.label,
      "no longer accepts fields it does not list",
    );
  } else if (a === false) {
    walk.add("extra-fields-accepted", tokens, at.label, "now accepts fields it does not list");
  } else if (isObject(b)) {
    walk.add("extra-fields-checked", tokens, at.label, "extra fields must now match a schema");
  } else {
    walk.add("extra-fields-unchecked", tokens, at.label, "extra fields are no longer checked");
  }
}

export function compareItems(walk: Walk, va: SchemaView, vb: SchemaView, at: At): void {
  const tuple = (keyword: "items" | "prefixItems") =>
    positional(
      walk,
      listOf(va.structure[keyword]),
      listOf(vb.structure[keyword]),
      [...va.tokens, keyword],
      [...vb.tokens, keyword],
      (i) => `${at.label}[${i}]`,
      at,
      "a tuple item",
    );
  const a = va.structure.items;
  const b = vb.structure.items;
  if (a === undefined && b === undefined) {
    // fall through to prefixItems
  } else if (Array.isArray(a) || Array.isArray(b)) {
    tuple("items"); // the draft-07 tuple form
  } else if (a !== undefined && b !== undefined) {
    walk.compare(a, b, {
      old: [...va.tokens, "items"],
      new: [...vb.tokens, "items"],
      label: `${at.label}[]`,
    });
  } else {
    const constrained = b !== undefined;
    walk.add(
      constrained ? "items-constrained" : "items-unconstrained",
      [...vb.tokens, "items"],
      at.label,
      `array items ${constrained ? "now" : "no longer"} constrained`,
    );
  }
  if (Array.isArray(va.structure.prefixItems) || Array.isArray(vb.structure.prefixItems))
    tuple("prefixItems");
}

export function positional(
  walk: Walk,
  a: Array<{ schema: Json; index: number }>,
  b: Array<{ schema: Json; index: number }>,
  tokensA: string[],
  tokensB: string[],
  label: (i: number) => string,
  at: At,
  what: string,
): void {
  const count = Math.max(a.length, b.length);
  for (let i = 0; i < count; i++) {
    const x = a[i];
    const y = b[i];
    if (x && y) {
      walk.compare(x.schema, y.schema, {
        old: [...tokensA, String(x.index)],
        new: [...tokensB, String(y.index)],
        label: label(i),
      });
    } else if (y) {
      walk.add("part-added", [...tokensB, String(y.index)], at.label, `${what} added`);
    } else if (x) {
      walk.add("part-removed", [...tokensA, String(x.index)], at.label, `${what} removed`);
    }
  }
}

function listOf(value: Json | undefined): Array<{ schema: Json; index: number }> {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((schema, index) => ({ schema, index }));
}
