import { jsonEqual } from "../schema/equal.js";
import type { Json, JsonObject } from "../schema/json.js";
import { isObject } from "../schema/json.js";
import { COMPATIBLE, NARROWS, WIDENS } from "./change.js";
import type { At, Walk } from "./compare-schema.js";
import type { SchemaView } from "./schema-view.js";
import { compareText } from "./text.js";

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
        "field-removed",
        a.tokens,
        field,
        `field removed (was ${va.required.has(name) ? "required" : "optional"}; readers that use it no longer compile${rejected ? "; extra fields are rejected, so builders that still send it fail validation" : ""})`,
        { breaksBuilders: rejected, breaksReaders: true },
      );
    } else if (!a && b) {
      const required = vb.required.has(name);
      walk.add(
        "field-added",
        b.tokens,
        field,
        required ? "required field added (builders must now send it)" : "optional field added",
        required ? NARROWS : COMPATIBLE,
      );
    } else if (a && b) {
      const wasRequired = va.required.has(name);
      const isRequired = vb.required.has(name);
      if (!wasRequired && isRequired) {
        walk.add(
          "field-required",
          b.tokens,
          field,
          "now required (builders must send it)",
          NARROWS,
        );
      } else if (wasRequired && !isRequired) {
        walk.add(
          "field-optional",
          b.tokens,
          field,
          "now optional (readers must handle it missing)",
          WIDENS,
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
      "constraint-changed",
      [...vb.tokens, "required"],
      at.label,
      `field "${name}" ${added ? "now required" : "no longer required"}`,
      added ? NARROWS : WIDENS,
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
      "constraint-changed",
      tokens,
      at.label,
      "no longer accepts fields it does not list",
      NARROWS,
    );
  } else if (a === false) {
    // Readers never enumerate unknown fields, so accepting more of them breaks nobody.
    walk.add(
      "constraint-changed",
      tokens,
      at.label,
      "now accepts fields it does not list",
      COMPATIBLE,
    );
  } else if (isObject(b)) {
    walk.add(
      "constraint-changed",
      tokens,
      at.label,
      "extra fields must now match a schema",
      NARROWS,
    );
  } else {
    walk.add("constraint-changed", tokens, at.label, "extra fields are no longer checked", WIDENS);
  }
}

export function compareItems(walk: Walk, va: SchemaView, vb: SchemaView, at: At): void {
  const a = va.structure.items;
  const b = vb.structure.items;
  if (a === undefined && b === undefined) {
    // fall through to prefixItems
  } else if (Array.isArray(a) || Array.isArray(b)) {
    // Draft-07 tuple form.
    positional(
      walk,
      listOf(a),
      listOf(b),
      [...va.tokens, "items"],
      [...vb.tokens, "items"],
      (i) => `${at.label}[${i}]`,
      at,
      "a tuple item",
    );
  } else if (a !== undefined && b !== undefined) {
    walk.compare(a, b, {
      old: [...va.tokens, "items"],
      new: [...vb.tokens, "items"],
      label: `${at.label}[]`,
    });
  } else if (b !== undefined) {
    walk.add(
      "constraint-changed",
      [...vb.tokens, "items"],
      at.label,
      "array items now constrained",
      NARROWS,
    );
  } else {
    walk.add(
      "constraint-changed",
      [...vb.tokens, "items"],
      at.label,
      "array items no longer constrained",
      WIDENS,
    );
  }
  const pa = va.structure.prefixItems;
  const pb = vb.structure.prefixItems;
  if (Array.isArray(pa) || Array.isArray(pb)) {
    positional(
      walk,
      listOf(pa),
      listOf(pb),
      [...va.tokens, "prefixItems"],
      [...vb.tokens, "prefixItems"],
      (i) => `${at.label}[${i}]`,
      at,
      "a tuple item",
    );
  }
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
      walk.add(
        "constraint-changed",
        [...tokensB, String(y.index)],
        at.label,
        `${what} added`,
        NARROWS,
      );
    } else if (x) {
      walk.add(
        "constraint-changed",
        [...tokensA, String(x.index)],
        at.label,
        `${what} removed`,
        WIDENS,
      );
    }
  }
}

function listOf(value: Json | undefined): Array<{ schema: Json; index: number }> {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((schema, index) => ({ schema, index }));
}
