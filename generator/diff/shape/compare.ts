import { jsonEqual } from "../../schema/equal.js";
import type { Json, JsonObject } from "../../schema/json.js";
import { escapePointerToken } from "../../schema/pointer.js";
import { compareAnnotations } from "../annotations.js";
import type { Finding } from "../change.js";
import { finding, type RuleName } from "../classification.js";
import { compareText } from "../text.js";
import { compareConstraints } from "./constraints.js";
import { isUnhandled } from "./keywords.js";
import { compareExtraProperties, compareItems, compareProperties, positional } from "./objects.js";
import { compareVariants, openEnumOnOneSide } from "./unions.js";
import { expandRefs, isPureRef, type SchemaView, viewOf } from "./view.js";
import type { At, Options, SchemaSide, Walk } from "./walk.js";

/** Compare one definition in two releases; findings carry pointers into both files. */
export function compareDefinition(
  key: string,
  oldSchema: Json,
  newSchema: Json,
  oldSide: SchemaSide,
  newSide: SchemaSide,
): Finding[] {
  const comparison = new SchemaComparison(oldSide, newSide);
  comparison.compare(oldSchema, newSchema, {
    old: [oldSide.keyword, key],
    new: [newSide.keyword, key],
    label: key,
  });
  return comparison.findings;
}

/**
 * A recursive walk over two versions of a schema. Definitions are compared one by one: a
 * `$ref` to the same definition on both sides is not followed (that definition reports its
 * own changes), so every change is reported once, where it was made.
 */
export class SchemaComparison implements Walk {
  readonly findings: Finding[] = [];
  /** Ref pairs being compared right now: recursive types would otherwise never end. */
  private readonly active = new Set<string>();

  constructor(
    readonly oldSide: SchemaSide,
    readonly newSide: SchemaSide,
  ) {}

  add(rule: RuleName, tokens: string[], subject: string, what: string): void {
    this.findings.push(finding(rule, tokens.map(escapePointerToken).join("/"), subject, what));
  }

  compare(a: Json, b: Json, at: At, options: Options = {}): void {
    if (jsonEqual(a, b)) return;
    const va = viewOf(a, at.old, this.oldSide);
    const vb = viewOf(b, at.new, this.newSide);
    if (va.boolean !== undefined || vb.boolean !== undefined) {
      this.booleanSchemas(va, vb, at);
      return;
    }
    if (!options.resolved) {
      compareAnnotations(this, va.annotations, vb.annotations, at);
      this.nullability(va, vb, at);
    }
    this.structure(va, vb, at, options);
  }

  private booleanSchemas(va: SchemaView, vb: SchemaView, at: At): void {
    // `true` accepts anything, `false` nothing, an object schema something in between.
    const rank = (v: SchemaView) => (v.boolean === true ? 2 : v.boolean === false ? 0 : 1);
    const [ra, rb] = [rank(va), rank(vb)];
    if (ra === rb) {
      this.add("schema-replaced", at.new, at.label, "schema replaced");
    } else {
      this.add(
        rb > ra ? "schema-widened" : "schema-narrowed",
        at.new,
        at.label,
        `now accepts ${accepts(rb)} (was ${accepts(ra)})`,
      );
    }
  }

  private nullability(va: SchemaView, vb: SchemaView, at: At): void {
    if (va.nullable === vb.nullable) return;
    if (vb.nullable) this.add("nullable-added", vb.tokens, at.label, "may now be null");
    else this.add("nullable-removed", vb.tokens, at.label, "may no longer be null");
  }

  private structure(va: SchemaView, vb: SchemaView, at: At, options: Options): void {
    const refsA = [...va.refs].sort();
    const refsB = [...vb.refs].sort();
    if (refsA.join("\n") === refsB.join("\n")) {
      this.parts(va, vb, at, options);
      return;
    }
    this.refNote(va, vb, at);
    const guard = `${refsA.join(",")}|${refsB.join(",")}`;
    if (this.active.has(guard)) return;
    this.active.add(guard);
    try {
      const simple = (v: SchemaView) => isPureRef(v) || v.refs.length === 0;
      if (simple(va) && simple(vb)) {
        // A named type on one side, another name or an inline shape on the other: compare
        // what the names stand for, with pointers into the definitions.
        const ra = this.resolve(va, this.oldSide);
        const rb = this.resolve(vb, this.newSide);
        this.compare(
          ra.schema,
          rb.schema,
          { old: ra.tokens, new: rb.tokens, label: at.label },
          {
            ...options,
            resolved: true,
          },
        );
      } else {
        this.parts(expandRefs(va, this.oldSide), expandRefs(vb, this.newSide), at, options);
      }
    } finally {
      this.active.delete(guard);
    }
  }

  private resolve(v: SchemaView, side: SchemaSide): { schema: Json; tokens: string[] } {
    const ref = v.refs[0];
    if (isPureRef(v) && ref !== undefined && Object.hasOwn(side.defs, ref)) {
      return { schema: side.defs[ref] as Json, tokens: [side.keyword, ref] };
    }
    return { schema: v.structure, tokens: v.tokens };
  }

  /** The reference itself changed. Its effect on values is reported by comparing what it names. */
  private refNote(va: SchemaView, vb: SchemaView, at: At): void {
    const names = (refs: string[]) => refs.join(" & ");
    let what: string;
    if (va.refs.length === 0) what = `now refers to ${names(vb.refs)} (was written inline)`;
    else if (vb.refs.length === 0) what = `now written inline (was ${names(va.refs)})`;
    else what = `now refers to ${names(vb.refs)} instead of ${names(va.refs)}`;
    this.add("ref-changed", vb.tokens, at.label, what);
  }

  private parts(va: SchemaView, vb: SchemaView, at: At, options: Options): void {
    if (openEnumOnOneSide(this, va, vb, at)) return;
    this.types(va, vb, at);
    compareVariants(this, va, vb, at);
    compareProperties(this, va, vb, at);
    for (const keyword of ["additionalProperties", "unevaluatedProperties"] as const) {
      compareExtraProperties(this, keyword, va, vb, at);
    }
    compareItems(this, va, vb, at);
    positional(
      this,
      va.allOf,
      vb.allOf,
      [...va.tokens, "allOf"],
      [...vb.tokens, "allOf"],
      (i) => `${at.label}&${i}`,
      at,
      "an allOf part",
    );
    compareConstraints(this, va.structure, vb.structure, va.tokens, vb.tokens, at, options);
    for (const keyword of unionKeys(va.structure, vb.structure)) {
      if (!isUnhandled(keyword)) continue;
      if (jsonEqual(va.structure[keyword] ?? null, vb.structure[keyword] ?? null)) continue;
      this.add(
        "keyword-not-understood",
        [...vb.tokens, keyword],
        at.label,
        `keyword "${keyword}" changed (not understood by the diff; treated as breaking)`,
      );
    }
  }

  private types(va: SchemaView, vb: SchemaView, at: At): void {
    const a = va.types;
    const b = vb.types;
    if (!a && !b) return;
    const shapedElsewhere = (v: SchemaView) =>
      v.refs.length > 0 || v.variants !== undefined || v.allOf.length > 0 || v.properties.size > 0;
    if (!a || !b) {
      if ((!a && shapedElsewhere(va)) || (!b && shapedElsewhere(vb))) return;
      if (b) this.add("type-restricted", vb.tokens, at.label, `now restricted to ${typeNames(b)}`);
      else if (a)
        this.add(
          "type-unrestricted",
          vb.tokens,
          at.label,
          `no longer restricted to ${typeNames(a)}`,
        );
      return;
    }
    // `integer` values are `number`s: integer → number widens, number → integer narrows.
    const covers = (set: Set<string>, t: string) =>
      set.has(t) || (t === "integer" && set.has("number"));
    const widened = [...b].some((t) => !covers(a, t));
    const narrowed = [...a].some((t) => !covers(b, t));
    if (!widened && !narrowed) return;
    this.add(
      widened && narrowed ? "type-replaced" : widened ? "type-widened" : "type-narrowed",
      vb.tokens,
      at.label,
      `type changed from ${typeNames(a)} to ${typeNames(b)}`,
    );
  }
}

function accepts(rank: number): string {
  return rank === 2 ? "any value" : rank === 0 ? "no value" : "only values matching a schema";
}

function unionKeys(a: JsonObject, b: JsonObject): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareText);
}

function typeNames(types: Set<string>): string {
  return types.size === 0 ? "null" : [...types].sort(compareText).join(" | ");
}
