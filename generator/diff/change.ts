/**
 * What one difference between two schema releases means for code that uses the generated
 * package. Two audiences are judged separately, because every ACP message is built by one
 * side of the connection and read by the other:
 *
 * - builders: code that constructs a message (a client filling in `PromptRequest`, an agent
 *   sending `SessionNotification`). A change breaks them when something they used to send
 *   is no longer accepted, or when a name they mention disappears.
 * - readers: code that receives a message (a handler, a `switch` over a union's tag). A
 *   change breaks them when a message may now carry something they could not see before,
 *   or when a name they mention disappears.
 *
 * The guiding rule: narrowing what a message may hold breaks builders, widening it breaks
 * readers, removing a name breaks both. Each kind below documents its exceptions.
 */
export type ChangeKind =
  // Entry points (surfaces: v1, v1/unstable, v2, v2/unstable).
  | "surface-added"
  | "surface-removed"
  | "protocol-version-changed"
  // Methods, identified by wire name and kind (request or notification).
  | "method-added"
  | "method-removed"
  | "method-stabilized"
  | "method-moved-to-unstable"
  | "method-side-changed"
  | "method-types-changed"
  | "method-key-changed"
  // Definitions, identified by their `$defs` key.
  | "definition-added"
  | "definition-removed"
  | "definition-stabilized"
  | "definition-moved-to-unstable"
  // Inside a definition.
  | "field-added"
  | "field-removed"
  | "field-required"
  | "field-optional"
  | "variant-added"
  | "variant-removed"
  | "type-changed"
  | "ref-changed"
  | "nullable-added"
  | "nullable-removed"
  | "constraint-changed"
  | "default-changed"
  | "parsing-changed"
  | "deprecated-changed"
  | "annotation-changed"
  | "schema-changed"
  | "doc-changed";

export interface Change {
  /** Surface id: `v1`, `v1/unstable`, `v2`, `v2/unstable`. */
  surface: string;
  kind: ChangeKind;
  /**
   * JSON pointer (without the leading `/`) into the new schema file, or into the old one
   * for things that were removed: `$defs/Foo/properties/bar`. Method changes point at the
   * `x-method` annotation of the params definition; surface changes are `""`.
   */
  path: string;
  /**
   * What changed, named for people: a definition with its fields (`PromptRequest.prompt[]`,
   * `[]` for array items, `<tag>` for a union variant), a method (`session/prompt (request
   * handled by agent)`), or an entry point (`./v2`).
   */
  subject: string;
  /** One sentence: the subject, what happened to it, and why it matters when it breaks. */
  description: string;
  breaksBuilders: boolean;
  breaksReaders: boolean;
  /** Only descriptions, titles, examples or comments changed: nothing a program can observe. */
  docOnly: boolean;
}

/** A change before it is attached to a surface. */
export type Finding = Omit<Change, "surface">;

export type Impact = "breaking" | "compatible" | "doc";

export function impactOf(
  change: Pick<Change, "breaksBuilders" | "breaksReaders" | "docOnly">,
): Impact {
  if (change.breaksBuilders || change.breaksReaders) return "breaking";
  return change.docOnly ? "doc" : "compatible";
}

/** Who a change breaks, named by the rule that decided it (keeps call sites readable). */
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

export function finding(
  kind: ChangeKind,
  path: string,
  subject: string,
  what: string,
  breaks: Breaks,
  docOnly = false,
): Finding {
  return { kind, path, subject, description: `${subject}: ${what}`, ...breaks, docOnly };
}
