/**
 * What one difference between two schema releases is, and whom it breaks among the code
 * that uses the generated package (builders and readers of messages): classification.ts
 * has the rules that decide it.
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
  /** The description without the subject and the references: what happened (`now restricted to object`). */
  what: string;
  /**
   * Other names the same change is reached through (a definition first seen in this release,
   * compared through each of its references): `ContentBlock<"audio">._meta`.
   */
  also?: readonly string[];
  breaksBuilders: boolean;
  breaksReaders: boolean;
  /** Only descriptions, titles, examples or comments changed: nothing a program can observe. */
  docOnly: boolean;
  /**
   * The `--extension` file the change is in (extensions.ts), when it is not the protocol's
   * schema; `path` then points into that file.
   */
  extension?: string;
}

/** A change before it is attached to a surface. */
export type Finding = Omit<Change, "surface" | "extension">;

export type Impact = "breaking" | "compatible" | "doc";

export function impactOf(
  change: Pick<Change, "breaksBuilders" | "breaksReaders" | "docOnly">,
): Impact {
  if (change.breaksBuilders || change.breaksReaders) return "breaking";
  return change.docOnly ? "doc" : "compatible";
}
