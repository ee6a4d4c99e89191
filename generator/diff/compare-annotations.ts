import { jsonEqual } from "../schema/equal.js";
import { isObject, type Json, type JsonObject } from "../schema/json.js";
import { type Breaks, type ChangeKind, COMPATIBLE } from "./change.js";
import type { At } from "./compare-schema.js";
import { DOC_KEYWORDS, METHOD_KEYWORDS, PARSING_KEYWORDS } from "./keywords.js";
import { show } from "./text.js";

export interface Reporter {
  add(
    kind: ChangeKind,
    tokens: string[],
    subject: string,
    what: string,
    breaks: Breaks,
    docOnly?: boolean,
  ): void;
}

/** What each lenient-parsing annotation makes `parse<Name>` do. */
const PARSING_EFFECT: Record<(typeof PARSING_KEYWORDS)[number], string> = {
  "x-deserialize-default-on-error": "replaces an invalid value with its default",
  "x-deserialize-skip-invalid-items": "drops invalid array items",
  "x-deserialize-default-on-null": "replaces null with the default",
};

const BREAKS_READERS: Breaks = { breaksBuilders: false, breaksReaders: true };

/**
 * Keywords that never decide validity. Prose is doc-only (a patch release); the rest
 * changes what generated code does or says about the API and is at least a minor change.
 */
export function compareAnnotations(report: Reporter, a: JsonObject, b: JsonObject, at: At): void {
  const same = (k: string) =>
    jsonEqual(a[k] ?? null, b[k] ?? null) && Object.hasOwn(a, k) === Object.hasOwn(b, k);

  const prose = DOC_KEYWORDS.filter((k) => !same(k)).map((k) =>
    !Object.hasOwn(a, k) ? `${k} added` : !Object.hasOwn(b, k) ? `${k} removed` : `${k} changed`,
  );
  if (prose.length > 0) {
    report.add("doc-changed", at.new, at.label, `${prose.join(", ")}`, COMPATIBLE, true);
  }

  if ((a.deprecated === true) !== (b.deprecated === true)) {
    report.add(
      "deprecated-changed",
      at.new,
      at.label,
      `${b.deprecated === true ? "now deprecated" : "no longer deprecated"}`,
      COMPATIBLE,
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
          "default-changed",
          at.new,
          at.label,
          `default now also sets ${added.join(", ")}`,
          COMPATIBLE,
        );
      } else {
        // An omitted value now means something else to whoever reads the message.
        report.add(
          "default-changed",
          at.new,
          at.label,
          `default changed from ${show(before)} to ${show(after)} (an omitted value now means something else)`,
          BREAKS_READERS,
        );
      }
    } else {
      report.add(
        "default-changed",
        at.new,
        at.label,
        after !== undefined
          ? `default ${show(after)} added`
          : `default ${show(before as Json)} removed`,
        COMPATIBLE,
      );
    }
  }

  for (const keyword of PARSING_KEYWORDS) {
    const before = a[keyword] === true;
    const after = b[keyword] === true;
    if (before === after) continue;
    const effect = PARSING_EFFECT[keyword];
    if (after) {
      report.add(
        "parsing-changed",
        at.new,
        at.label,
        `lenient parsing now ${effect} (${keyword})`,
        COMPATIBLE,
      );
    } else {
      report.add(
        "parsing-changed",
        at.new,
        at.label,
        `lenient parsing no longer ${effect} (${keyword} removed): input it used to repair is now rejected`,
        BREAKS_READERS,
      );
    }
  }

  const handled = new Set<string>([
    ...DOC_KEYWORDS,
    ...PARSING_KEYWORDS,
    ...METHOD_KEYWORDS,
    "deprecated",
    "default",
  ]);
  const others = [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => !handled.has(k) && !same(k))
    .sort();
  for (const keyword of others) {
    report.add(
      "annotation-changed",
      at.new,
      at.label,
      `annotation "${keyword}" changed`,
      COMPATIBLE,
    );
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
