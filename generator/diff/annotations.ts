import { jsonEqual } from "../schema/equal.js";
import { isObject, type Json, type JsonObject } from "../schema/json.js";
import { METHOD_KEYWORDS, PARSING_KEYWORDS, PROSE_KEYWORDS } from "../schema/keywords.js";
import type { At, Report } from "./shape/walk.js";
import { show } from "./text.js";

/** What each lenient-parsing annotation makes `parse<Name>` do. */
const PARSING_EFFECT: Record<(typeof PARSING_KEYWORDS)[number], string> = {
  "x-deserialize-default-on-error": "replaces an invalid value with its default",
  "x-deserialize-skip-invalid-items": "drops invalid array items",
  "x-deserialize-default-on-null": "replaces null with the default",
};

/**
 * Keywords that never decide validity. Prose is doc-only (a patch release); the rest
 * changes what generated code does or says about the API and is at least a minor change.
 */
export function compareAnnotations(report: Report, a: JsonObject, b: JsonObject, at: At): void {
  const same = (k: string) =>
    jsonEqual(a[k] ?? null, b[k] ?? null) && Object.hasOwn(a, k) === Object.hasOwn(b, k);

  const prose = PROSE_KEYWORDS.filter((k) => !same(k)).map((k) =>
    !Object.hasOwn(a, k) ? `${k} added` : !Object.hasOwn(b, k) ? `${k} removed` : `${k} changed`,
  );
  if (prose.length > 0) {
    report.add("doc-changed", at.new, at.label, `${prose.join(", ")}`);
  }

  if ((a.deprecated === true) !== (b.deprecated === true)) {
    report.add(
      "deprecated-changed",
      at.new,
      at.label,
      `${b.deprecated === true ? "now deprecated" : "no longer deprecated"}`,
    );
  }

  if (!same("default")) {
    const before = a.default;
    const after = b.default;
    if (before !== undefined && after !== undefined) {
      const added = addedKeysOnly(before, after);
      if (added) {
        // Only new keys, for new fields: what an omitted value meant before is unchanged.
        report.add(
          "default-extended",
          at.new,
          at.label,
          `default now also sets ${added.join(", ")}`,
        );
      } else {
        // An omitted value now means something else to whoever reads the message.
        report.add(
          "default-changed",
          at.new,
          at.label,
          `default changed from ${show(before)} to ${show(after)} (an omitted value now means something else)`,
        );
      }
    } else {
      if (after !== undefined)
        report.add("default-added", at.new, at.label, `default ${show(after)} added`);
      else
        report.add("default-removed", at.new, at.label, `default ${show(before as Json)} removed`);
    }
  }

  for (const keyword of PARSING_KEYWORDS) {
    const before = a[keyword] === true;
    const after = b[keyword] === true;
    if (before === after) continue;
    const effect = PARSING_EFFECT[keyword];
    if (after) {
      report.add("parsing-added", at.new, at.label, `lenient parsing now ${effect} (${keyword})`);
    } else {
      report.add(
        "parsing-removed",
        at.new,
        at.label,
        `lenient parsing no longer ${effect} (${keyword} removed): input it used to repair is now rejected`,
      );
    }
  }

  const handled = new Set<string>([
    ...PROSE_KEYWORDS,
    ...PARSING_KEYWORDS,
    ...METHOD_KEYWORDS,
    "deprecated",
    "default",
  ]);
  const others = [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => !handled.has(k) && !same(k))
    .sort();
  for (const keyword of others) {
    report.add("annotation-changed", at.new, at.label, `annotation "${keyword}" changed`);
  }
}

/**
 * The paths of keys `after` adds to `before` when everything `before` sets is unchanged
 * (nested objects may gain keys too); undefined when any existing value differs.
 */
function addedKeysOnly(before: Json, after: Json, prefix = ""): string[] | undefined {
  if (!isObject(before) || !isObject(after)) return undefined;
  const added: string[] = [];
  for (const [k, v] of Object.entries(before)) {
    if (!Object.hasOwn(after, k)) return undefined;
    const next = after[k] as Json;
    if (jsonEqual(v, next)) continue;
    const nested = addedKeysOnly(v, next, `${prefix}${k}.`);
    if (!nested) return undefined;
    added.push(...nested);
  }
  for (const k of Object.keys(after)) if (!Object.hasOwn(before, k)) added.push(`${prefix}${k}`);
  return added.length > 0 ? added.sort() : undefined;
}
