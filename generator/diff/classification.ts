import type { ChangeKind, Finding } from "./change.js";

/**
 * How each difference between two releases is classified, in one table. Two audiences are
 * judged separately, because every ACP message is built by one side of the connection and
 * read by the other:
 *
 * - builders: code that constructs a message (a client filling in `PromptRequest`, an agent
 *   sending `SessionNotification`). A change breaks them when something they used to send
 *   is no longer accepted, or when a name they mention disappears.
 * - readers: code that receives a message (a handler, a `switch` over a union's tag). A
 *   change breaks them when a message may now carry something they could not see before,
 *   or when a name they mention disappears.
 *
 * The guiding rule: narrowing what a message may hold breaks builders, widening it breaks
 * readers, removing a name breaks both. Each rule below says where it departs from that.
 * docs/bump.md shows the same table for people.
 */
export interface Breaks {
  breaksBuilders: boolean;
  breaksReaders: boolean;
}
/** More values are possible: readers must now handle them. */
export const WIDENS: Breaks = { breaksBuilders: false, breaksReaders: true };
/** Fewer values are accepted: what builders used to send may be rejected. */
export const NARROWS: Breaks = { breaksBuilders: true, breaksReaders: false };
/** A name disappears or a type is replaced: both sides' code stops compiling. */
export const BREAKS_BOTH: Breaks = { breaksBuilders: true, breaksReaders: true };
export const COMPATIBLE: Breaks = { breaksBuilders: false, breaksReaders: false };

export function either(a: Breaks, b: Breaks): Breaks {
  return {
    breaksBuilders: a.breaksBuilders || b.breaksBuilders,
    breaksReaders: a.breaksReaders || b.breaksReaders,
  };
}

interface Rule {
  kind: ChangeKind;
  /** Whom it breaks; `derived` when the caller works it out (from a nested comparison). */
  breaks: Breaks | "derived";
  /** Nothing a program can observe changes: only the JSDoc. */
  docOnly?: true;
  /** Why it is classified so. */
  why: string;
}

export const RULES = {
  // Entry points (surfaces: v1, v1/unstable, v2, v2/unstable).
  "surface-added": {
    kind: "surface-added",
    breaks: COMPATIBLE,
    why: "a new import path",
  },
  "surface-removed": {
    kind: "surface-removed",
    breaks: BREAKS_BOTH,
    why: "code importing the entry point no longer compiles",
  },
  "protocol-version-changed": {
    kind: "protocol-version-changed",
    breaks: BREAKS_BOTH,
    why: "peers negotiate on it: both sides must agree",
  },

  // Methods, identified by wire name and kind.
  "method-added": {
    kind: "method-added",
    breaks: COMPATIBLE,
    why: "a new, optional handler",
  },
  "method-stabilized": {
    kind: "method-stabilized",
    breaks: COMPATIBLE,
    why: "it was in the unstable entry point already",
  },
  "method-removed": {
    kind: "method-removed",
    breaks: BREAKS_BOTH,
    why: "a name disappears",
  },
  "method-moved-to-unstable": {
    kind: "method-moved-to-unstable",
    breaks: BREAKS_BOTH,
    why: "gone from the stable entry point",
  },
  "method-side-changed": {
    kind: "method-side-changed",
    breaks: BREAKS_BOTH,
    why: "the handler moves to the other side's interface, and senders change direction",
  },
  "method-key-changed": {
    kind: "method-key-changed",
    breaks: BREAKS_BOTH,
    why: "the key names the method constant and the handler member",
  },
  "method-types-changed": {
    kind: "method-types-changed",
    breaks: "derived",
    why: "as the old and the new definition's shapes differ: none when they are the same shape",
  },

  // Definitions, identified by their `$defs` key.
  "definition-added": {
    kind: "definition-added",
    breaks: COMPATIBLE,
    why: "a new name",
  },
  "definition-stabilized": {
    kind: "definition-stabilized",
    breaks: COMPATIBLE,
    why: "it was in the unstable entry point already",
  },
  "definition-removed": {
    kind: "definition-removed",
    breaks: BREAKS_BOTH,
    why: "code that imports the type or its guards no longer compiles",
  },
  "definition-moved-to-unstable": {
    kind: "definition-moved-to-unstable",
    breaks: BREAKS_BOTH,
    why: "gone from the stable entry point",
  },

  // Whole schemas.
  "schema-replaced": {
    kind: "schema-changed",
    breaks: BREAKS_BOTH,
    why: "a boolean schema became the other boolean, or an object schema another",
  },
  "schema-widened": {
    kind: "schema-changed",
    breaks: WIDENS,
    why: "now accepts more",
  },
  "schema-narrowed": {
    kind: "schema-changed",
    breaks: NARROWS,
    why: "now accepts less",
  },
  "keyword-not-understood": {
    kind: "schema-changed",
    breaks: BREAKS_BOTH,
    why: "an unknown difference is never dropped, and may break either side",
  },
  "ref-changed": {
    kind: "ref-changed",
    breaks: COMPATIBLE,
    why: "only the reference: what it names is compared and reported on its own",
  },
  "nullable-added": {
    kind: "nullable-added",
    breaks: WIDENS,
    why: "readers must handle null",
  },
  "nullable-removed": {
    kind: "nullable-removed",
    breaks: NARROWS,
    why: "builders may not send it",
  },

  // Types, literals and unions.
  "type-restricted": {
    kind: "type-changed",
    breaks: NARROWS,
    why: "a type where there was none",
  },
  "type-unrestricted": {
    kind: "type-changed",
    breaks: WIDENS,
    why: "any type where there was one",
  },
  "type-widened": {
    kind: "type-changed",
    breaks: WIDENS,
    why: "more types (integer → number)",
  },
  "type-narrowed": {
    kind: "type-changed",
    breaks: NARROWS,
    why: "fewer types",
  },
  "type-replaced": {
    kind: "type-changed",
    breaks: BREAKS_BOTH,
    why: "some types gone, others new",
  },
  "literals-listed": {
    kind: "type-changed",
    breaks: NARROWS,
    why: "now limited to listed values",
  },
  "literals-unlisted": {
    kind: "type-changed",
    breaks: WIDENS,
    why: "no longer limited to them",
  },
  "union-made": {
    kind: "type-changed",
    breaks: BREAKS_BOTH,
    why: "a union replaces a shape",
  },
  "union-unmade": {
    kind: "type-changed",
    breaks: BREAKS_BOTH,
    why: "a shape replaces a union",
  },
  "known-values-listed": {
    kind: "type-changed",
    breaks: COMPATIBLE,
    why: "an open enum of known values accepts what the plain type did (ErrorCode)",
  },
  "known-values-unlisted": {
    kind: "type-changed",
    breaks: COMPATIBLE,
    why: "the open enum accepted any value already",
  },
  "variant-added": {
    kind: "variant-added",
    breaks: WIDENS,
    why: "code that switches over the union must handle it",
  },
  "variant-added-to-open-union": {
    kind: "variant-added",
    breaks: COMPATIBLE,
    why: "readers of an open union already handle unknown variants",
  },
  "variant-added-for-method": {
    kind: "variant-added",
    breaks: COMPATIBLE,
    why: "a routing union's branch names a method's type: the method changes are reported",
  },
  "catch-all-added": {
    kind: "variant-added",
    breaks: WIDENS,
    why: "now open: readers must handle variants it does not list",
  },
  "variant-removed": {
    kind: "variant-removed",
    breaks: BREAKS_BOTH,
    why: "builders can no longer send it; readers that name it no longer compile",
  },
  "variant-removed-for-method": {
    kind: "variant-removed",
    breaks: COMPATIBLE,
    why: "a routing union's branch names a method's type: the method changes are reported",
  },
  "catch-all-removed": {
    kind: "variant-removed",
    breaks: NARROWS,
    why: "no longer open: builders sending unlisted variants now fail",
  },

  // Objects and arrays.
  "field-added": {
    kind: "field-added",
    breaks: COMPATIBLE,
    why: "an optional field",
  },
  "required-field-added": {
    kind: "field-added",
    breaks: NARROWS,
    why: "builders must now send it",
  },
  "field-removed": {
    kind: "field-removed",
    breaks: WIDENS,
    why: "readers that use it no longer compile; builders that still send it are fine",
  },
  "field-removed-from-closed-object": {
    kind: "field-removed",
    breaks: BREAKS_BOTH,
    why: "extra fields are rejected, so builders that still send it fail validation too",
  },
  "field-required": {
    kind: "field-required",
    breaks: NARROWS,
    why: "builders must send it",
  },
  "field-optional": {
    kind: "field-optional",
    breaks: WIDENS,
    why: "readers must handle it missing",
  },
  "undeclared-field-required": {
    kind: "constraint-changed",
    breaks: NARROWS,
    why: "`required` names a field `properties` does not declare",
  },
  "undeclared-field-optional": {
    kind: "constraint-changed",
    breaks: WIDENS,
    why: "likewise, no longer required",
  },
  "extra-fields-rejected": {
    kind: "constraint-changed",
    breaks: NARROWS,
    why: "builders sending unlisted fields now fail",
  },
  "extra-fields-accepted": {
    kind: "constraint-changed",
    breaks: COMPATIBLE,
    why: "readers never enumerate unknown fields, so accepting more breaks nobody",
  },
  "extra-fields-checked": {
    kind: "constraint-changed",
    breaks: NARROWS,
    why: "extra fields must now match a schema",
  },
  "extra-fields-unchecked": {
    kind: "constraint-changed",
    breaks: WIDENS,
    why: "extra fields are no longer checked",
  },
  "items-constrained": {
    kind: "constraint-changed",
    breaks: NARROWS,
    why: "items must match",
  },
  "items-unconstrained": {
    kind: "constraint-changed",
    breaks: WIDENS,
    why: "any item passes",
  },
  "part-added": {
    kind: "constraint-changed",
    breaks: NARROWS,
    why: "a tuple item or allOf part (identified by position) more to satisfy",
  },
  "part-removed": {
    kind: "constraint-changed",
    breaks: WIDENS,
    why: "one fewer to satisfy",
  },

  // Validation keywords that restrict values without changing their type.
  "constraint-added": {
    kind: "constraint-changed",
    breaks: NARROWS,
    why: "a new restriction",
  },
  "constraint-removed": {
    kind: "constraint-changed",
    breaks: WIDENS,
    why: "one restriction less",
  },
  "bound-tightened": {
    kind: "constraint-changed",
    breaks: NARROWS,
    why: "a tighter bound",
  },
  "bound-loosened": {
    kind: "constraint-changed",
    breaks: WIDENS,
    why: "a looser bound",
  },
  "constraint-replaced": {
    kind: "constraint-changed",
    breaks: BREAKS_BOTH,
    why: "no direction can be computed (a pattern, a format…), so either side may break",
  },

  // Annotations.
  "doc-changed": {
    kind: "doc-changed",
    breaks: COMPATIBLE,
    docOnly: true,
    why: "prose ends up in the JSDoc and nowhere else (a patch release)",
  },
  "deprecated-changed": {
    kind: "deprecated-changed",
    breaks: COMPATIBLE,
    why: "a deprecation is a minor change, as semver asks",
  },
  "default-added": {
    kind: "default-changed",
    breaks: COMPATIBLE,
    why: "an omitted value was free",
  },
  "default-removed": {
    kind: "default-changed",
    breaks: COMPATIBLE,
    why: "nothing is filled in",
  },
  "default-extended": {
    kind: "default-changed",
    breaks: COMPATIBLE,
    why: "only new keys, for new fields: what an omitted value meant before is unchanged",
  },
  "default-changed": {
    kind: "default-changed",
    breaks: WIDENS,
    why: "an omitted value now means something else to whoever reads the message",
  },
  "parsing-added": {
    kind: "parsing-changed",
    breaks: COMPATIBLE,
    why: "lenient parsing repairs more",
  },
  "parsing-removed": {
    kind: "parsing-changed",
    breaks: WIDENS,
    why: "parse<Name> now rejects input it used to repair: readers break",
  },
  "annotation-changed": {
    kind: "annotation-changed",
    breaks: COMPATIBLE,
    why: "changes what generated code says, never what it accepts",
  },
} as const satisfies Record<string, Rule>;

export type RuleName = keyof typeof RULES;

/** A finding made by rule `name`; `breaks` only for the rules whose breakage is derived. */
export function finding(
  name: RuleName,
  path: string,
  subject: string,
  what: string,
  breaks?: Breaks,
): Finding {
  const rule: Rule = RULES[name];
  const decided = rule.breaks === "derived" ? breaks : rule.breaks;
  if (decided === undefined) throw new Error(`internal error: rule ${name} needs its breakage`);
  return {
    kind: rule.kind,
    path,
    subject,
    description: `${subject}: ${what}`,
    what,
    breaksBuilders: decided.breaksBuilders,
    breaksReaders: decided.breaksReaders,
    docOnly: rule.docOnly === true,
  };
}
