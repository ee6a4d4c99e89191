import type { Diagnostics } from "../diagnostics.js";
import { type Envelope, envelopesOf } from "../model/envelopes.js";
import type { PlanLayout } from "../model/plan-link.js";
import type { SurfaceModel } from "../model/protocol.js";
import {
  contextOf,
  type PrepareInput,
  prepareDefinition,
  prepareDefinitions,
  prepareInput,
  prepareSchema,
} from "../prepare/backends.js";
import { isObject, type Json } from "../schema/json.js";
import { containsRef } from "../schema/node.js";
import { pointer } from "../schema/pointer.js";
import { selfNesting } from "../schema/refs.js";
import { withUnknownVariant } from "../schema/unions.js";
import { forEachJson } from "../schema/walk.js";
import type { DefinitionSymbols, SurfaceSymbols } from "../symbols/table.js";
import { type NumberFormat, unknownFormats } from "./ajv-facts.js";

/**
 * What the emitters of one surface read besides its model and names: every fact about the
 * surface's schemas that more than one file needs, computed once (analysis/index.ts) and
 * never re-derived by an emitter.
 */
export interface SurfaceFacts {
  /** The definitions as written, by key, in schema order: what the schema walks read. */
  readonly schemas: Readonly<Record<string, Json>>;
  /**
   * Definitions a value of which can hold a closed tagged union (schema/unions.ts): read
   * differently by the open reading, typed in received.d.ts, received by handlers.
   */
  readonly reachesClosed: ReadonlySet<string>;
  /** Definitions that can contain themselves (schema/refs.ts `selfNesting`). */
  readonly nestsItself: ReadonlySet<string>;
  /**
   * The JSON-RPC envelope definitions, by key (model/envelopes.ts): parse<Name> reads their
   * `params` by the message's method, a `result` by the method the caller names.
   */
  readonly envelopes: ReadonlyMap<string, Envelope>;
  /** The definitions as each backend must see them (prepare/), prepared once. */
  readonly prepared: PreparedSchemas;
  /** The parse plans, laid out beside the surface next to it (model/plan-link.ts). */
  readonly layout: PlanLayout;
  /** What this surface and the one beside it share, file kind by file kind (sharing.ts). */
  readonly sharing: Sharing;
  /** The layout's local checks, prepared (`parseChecks`). */
  readonly parseChecks: PreparedChecks;
  /** The input the surface's schemas are prepared from, with the facts rules read. */
  readonly prepareInput: PrepareInput;
}

/** One surface's definitions prepared for each backend that reads them whole. */
export interface PreparedSchemas {
  /** As ajv compiles them (validators.js, shared-validators.js), by key. */
  readonly validators: Readonly<Record<string, Json>>;
  /** Formats used that neither the runtime checks nor count as annotations, first met first. */
  readonly unknownFormats: ReadonlySet<string>;
  /** As json-schema-to-typescript declares them in types.d.ts, by key. */
  readonly types: Readonly<Record<string, Json>>;
  /**
   * As received.d.ts declares them: the definitions that reach a closed union only, each
   * closed union with its unknown variant, in schema order.
   */
  readonly received: ReadonlyMap<string, Json>;
  /** The plain types (types.d.ts names) the received declarations refer to, by `tsType`. */
  readonly receivedPlain: ReadonlySet<string>;
}

/** The parse plan's local checks (model/checks.ts), prepared for the parse-checks backend. */
export interface PreparedChecks {
  /**
   * Check index → schema, for the checks this surface's files write: its own, and on a stable
   * surface with a plan base, the base's (shared-parsers.js).
   */
  readonly checks: ReadonlyMap<number, Json>;
  /**
   * The definitions as a check that refers to them sees them (the parse-definitions backend):
   * only when some check does (none upstream so far).
   */
  readonly definitions?: Readonly<Record<string, Json>>;
}

/** The facts of one surface that need nothing of the surface beside it. */
export type OwnFacts = Omit<SurfaceFacts, "layout" | "sharing" | "parseChecks">;

/**
 * `surface`'s own facts. Preparing for the validators warns (unknown keywords; unknown formats,
 * per definition after its keywords): once per surface, in the order the surfaces come.
 */
export function ownFacts(
  surface: SurfaceModel,
  names: SurfaceSymbols,
  diagnostics: Diagnostics,
  formats: Record<string, NumberFormat>,
): OwnFacts {
  const input = prepareInput(
    {
      defsKeyword: surface.defsKeyword,
      definitions: surface.definitions,
      file: surface.schemaFile.display,
    },
    diagnostics,
  );
  const { defs: schemas, reachesClosed } = input;

  const validators: Record<string, Json> = {};
  const unknown = new Set<string>();
  for (const def of surface.definitions) {
    validators[def.key] = prepareDefinition("validators", input, def.key, def.schema);
    for (const format of unknownFormats(def.schema, formats)) {
      unknown.add(format);
      diagnostics.warn(
        input.file,
        pointer(surface.defsKeyword, def.key),
        `unknown format ${JSON.stringify(format)} treated as an annotation`,
      );
    }
  }

  const types: Record<string, Json> = {};
  for (const def of surface.definitions)
    types[def.key] = prepareDefinition("types", input, def.key, def.schema);

  // The plain types refs-to-plain-types names; a `tsType` may also be a TypeScript type of its
  // own (annotations-only-are-any writes `unknown`), which nothing declares.
  const declared = new Set(names.definitions.map((d) => d.type));
  const received = new Map<string, Json>();
  const receivedPlain = new Set<string>();
  for (const def of surface.definitions) {
    if (!reachesClosed.has(def.key)) continue;
    const open =
      def.union && isObject(def.schema) ? withUnknownVariant(def.schema, def.union) : def.schema;
    const schema = prepareDefinition("received-types", input, def.key, open);
    forEachJson(schema, (value, path, inNames) => {
      if (!inNames && path.at(-1) === "tsType" && typeof value === "string" && declared.has(value))
        receivedPlain.add(value);
    });
    received.set(def.key, schema);
  }

  return {
    prepareInput: input,
    schemas,
    reachesClosed,
    nestsItself: selfNesting(schemas, surface.defsKeyword),
    envelopes: envelopesOf(surface),
    prepared: { validators, unknownFormats: unknown, types, received, receivedPlain },
  };
}

/**
 * What a stable surface and its unstable surface share, file kind by file kind: the code
 * written once, into the stable folder's shared modules, which the unstable surface's files
 * re-export under its own names (`taken`, per file kind: emit/module.ts writes the re-exports
 * from it; emit/shared-code.ts names the modules).
 *
 * The rule, for every kind: a definition's code is taken from the stable surface when the
 * input that kind's code is printed from is the same on both sides, and so is everything
 * that input refers to (a closure over references: a change deep down is never reached
 * through stable code). What "the input" is differs by kind, and so does "the same":
 *
 * - validators.js, guards.js (`code`): the schemas as the validators see them (prepared,
 *   prose stripped), equal as JSON, closed over `$ref` (model/stability.ts `sameDefinitions`).
 * - parsers.js (`parsers`, `unions`): the parse plan's records, which are shared when the two
 *   plans' graphs are bisimilar there (model/plan-link.ts); a definition's functions when all
 *   its roots are shared records, among the definitions whose validators are shared.
 * - types.d.ts, received.d.ts: the declarations as json-schema-to-typescript writes them,
 *   the same text up to draft links and bound alike (emit/shared-declarations.ts). Judged on
 *   the text because the text is the documentation; decided in emit/ (it needs that output).
 * - `@experimental` (model/stability.ts, on the model's definitions): the schemas as written.
 *
 * Unifying the four would change the output (the declarations' rule shares fewer types than
 * the validators' rule shares validators, as descriptions differ; plans share records below
 * the definition level), so each keeps its own input and the rule above is what they have in
 * common.
 */
export interface Sharing {
  /** The stable surface this one takes code from; absent on a stable or lone surface. */
  readonly stable?: SurfaceModel;
  /** The unstable surface this one gives code to; absent on an unstable or lone surface. */
  readonly unstable?: SurfaceModel;
  /** Definitions whose validator and guards are the stable surface's (empty without a pair). */
  readonly code: ReadonlySet<string>;
  /** Definitions whose `parse<Name>` is the stable surface's, in shared-parsers.js. */
  readonly parsers: ReadonlySet<string>;
  /** Definitions whose union helpers (`is<Name>Of`, …) are in shared-parsers.js. */
  readonly unions: ReadonlySet<string>;
  /** Whether the pair's plans share any record: shared-parsers.js exists. */
  readonly planBase: boolean;
  /**
   * What each file kind of this surface takes from the stable folder's shared module of that
   * kind, definition by definition in schema order: the names (by their role in the symbol
   * table) the file re-exports from there. Empty without a pair. A stable surface's files take
   * the same from its own folder's shared modules, so both entry points give one function.
   * (types.d.ts and received.d.ts take what emit/shared-declarations.ts decides on their text.)
   */
  readonly taken: Readonly<Record<SharedKind, readonly Taken[]>>;
}

/** The file kinds whose code a pair shares, each through one shared module of the stable folder. */
export type SharedKind = "validators" | "guards" | "parsers";

/** A name of a definition's, by its role in the symbol table (`validator`, `guard`, `parse`…). */
export type SharedRole = Exclude<keyof DefinitionSymbols, "key" | "type">;

/** The names of one definition a file takes from the shared module. */
export interface Taken {
  readonly key: string;
  readonly roles: readonly SharedRole[];
}

/**
 * The local checks of `layout` that `surface`'s files write, prepared for the parse checks:
 * its own (numbered after the base), and the base's when `withBase` (the stable surface of a
 * pair writes them into shared-parsers.js). Preparing warns about nothing the validators did
 * not warn about already, so the warnings go nowhere.
 */
export function parseChecks(
  facts: OwnFacts,
  layout: PlanLayout,
  withBase: boolean,
  silent: Diagnostics,
): PreparedChecks {
  const input: PrepareInput = { ...facts.prepareInput, diagnostics: silent };
  const checks = new Map<number, Json>();
  const add = (specs: PlanLayout["own"]["checks"], first: number) =>
    specs.forEach((spec, i) => {
      if (spec.kind === "local")
        checks.set(first + i, prepareSchema("parse-checks", spec.schema, contextOf(input, "")));
    });
  if (withBase) add(layout.base.checks, 0);
  add(layout.own.checks, layout.base.checks.length);
  const refers = [...checks.values()].some(containsRef);
  return refers
    ? { checks, definitions: prepareDefinitions("parse-definitions", input) }
    : { checks };
}
