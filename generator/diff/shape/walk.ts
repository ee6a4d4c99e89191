import type { Json } from "../../schema/json.js";
import type { RuleName } from "../classification.js";

/** One release's definitions, where refs are resolved. */
export interface DefsSide {
  defs: Record<string, Json>;
  keyword: "$defs" | "definitions";
}

/** One release's side of a comparison: its definitions, and which of them are methods' types. */
export interface SchemaSide extends DefsSide {
  /** Definitions carrying `x-method` (request, response and notification params). */
  methodDefs: ReadonlySet<string>;
}

/** Where two nodes being compared sit: a pointer into each file, and a name for people. */
export interface At {
  old: string[];
  new: string[];
  /** `SessionUpdate<"plan">.entries[]`: definition, then fields, `[]` items, `<tag>` variants. */
  label: string;
}

export interface Options {
  /** The caller already compared docs and nullability at this spot (ref resolution). */
  resolved?: boolean;
  /** In a union's catch-all branch, `not` lists the known tags and changes with them. */
  ignoreNot?: boolean;
}

/** Where findings go: `rule` decides the kind and whom it breaks (classification.ts). */
export interface Report {
  add(rule: RuleName, tokens: string[], subject: string, what: string): void;
}

/** What the comparisons of each part of a schema (unions, objects, constraints) need from the walk. */
export interface Walk extends Report {
  readonly oldSide: SchemaSide;
  readonly newSide: SchemaSide;
  compare(a: Json, b: Json, at: At, options?: Options): void;
}
