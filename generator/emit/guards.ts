import { runtimeSpecifier } from "../symbols/exports.js";
import type { DefinitionSymbols } from "../symbols/table.js";
import type { EmitContext } from "./context.js";
import { literal } from "./js.js";
import { sharedReexports } from "./module.js";
import { banner, type OutputFile } from "./output.js";
import { SHARED_GUARDS, SHARED_VALIDATORS } from "./shared-code.js";

/** Before the functions of a definition only the unstable schema has (its type says so too). */
export const EXPERIMENTAL =
  "/** @experimental Only in the unstable schema: may change or be removed. */";

/**
 * The declarations of some of each definition's functions, written into `types.d.ts` beside
 * the types they name (emitTypes): there the types are the file's own, so a consumer's compiler
 * reads `Guard<SessionId>` (one identifier for the type) where an importing file would read
 * `T.SessionId` (two) or bind an import per type (a symbol each).
 */
export interface FunctionDeclarations {
  /** The runtime's call signatures the lines name (`runtime/signatures.js`). */
  signatures: readonly string[];
  /** Every exported name the lines declare, in order: what the function module exports. */
  exported: readonly string[];
  /** Whether the lines name received types, as `<locals.received>.<Name>` (received.d.ts). */
  readsReceived: boolean;
  /**
   * One statement per line, doc comments included; the file's layout joins the runs of
   * undocumented ones (ts-declarations.ts `joinConstantDeclarations`).
   */
  lines: readonly string[];
}

/**
 * `guards.js`: for every definition a strict type guard `is<Name>`, a `validate<Name>` that
 * returns the issues, and an `assert<Name>` that throws them. Each is a one-liner over its own
 * compiled validator, so a bundler keeps only what is used. They are declared in `types.d.ts`
 * (`guardDeclarations`), which the entry point's declarations re-export. The module has no
 * `.d.ts` of its own, like every module but the entry points: the package's `exports` map
 * lets no one import it directly.
 *
 * The guards of the definitions a stable and an unstable surface share (shared-code.ts) are
 * written once, into the stable folder's `shared-guards.js` over its shared validators, and
 * both surfaces' guards.js re-export them: `is<Name>` is then one function in both entry points.
 */
export function emitGuards(context: EmitContext): OutputFile[] {
  const { surface, names, runtime: runtimePath, stable, facts } = context;
  const shared = facts.sharing.code;
  const head = banner(surface.schemaFile.name);
  const runtime = `import { assertWith, validateWith } from "${runtimeSpecifier(runtimePath, "validation.js", false)}";`;
  const sharedDefs = surface.definitions.filter((d) => shared.has(d.key));
  const own = surface.definitions.filter((d) => !shared.has(d.key));
  const js = [
    head,
    ...(own.length ? [runtime] : []),
    ...(own.length
      ? [
          `import { ${own.map((d) => names.definition(d.key).validator).join(", ")} } from "./validators.js";`,
        ]
      : []),
    ...sharedReexports(context, "guards"),
    "",
    ...guardFunctions(own.map((d) => names.definition(d.key))),
  ];
  const files: OutputFile[] = [{ path: `${surface.id}/guards.js`, content: `${js.join("\n")}\n` }];
  if (!stable && sharedDefs.length) {
    const defs = sharedDefs.map((d) => names.definition(d.key));
    const lines = [
      head,
      runtime,
      `import { ${defs.map((d) => d.validator).join(", ")} } from "./${SHARED_VALIDATORS}";`,
      "",
      ...guardFunctions(defs),
    ];
    files.push({ path: `${surface.id}/${SHARED_GUARDS}`, content: `${lines.join("\n")}\n` });
  }
  return files;
}

/** The three guard functions of each definition, over its validator. */
function guardFunctions(defs: readonly DefinitionSymbols[]): string[] {
  return defs.flatMap(({ type, guard, validate, assert, validator: v }) => [
    // A value nested deeper than the stack allows (only possible through recursive
    // definitions) makes the validator throw RangeError: that is "not valid", never a crash.
    `export function ${guard}(value) { try { return ${v}(value); } catch { return false; } }`,
    `export function ${validate}(value) { return validateWith(${v}, value); }`,
    `export function ${assert}(value) { return assertWith(${v}, ${literal(type)}, value); }`,
  ]);
}

/** `is<Name>`, `validate<Name>` and `assert<Name>` of every definition, as constants of the shared signatures. */
export function guardDeclarations({
  surface,
  names,
}: Pick<EmitContext, "surface" | "names">): FunctionDeclarations {
  const { guard: Guard, validate: Validate, assert: Assert } = names.signatures;
  const lines: string[] = [];
  const exported: string[] = [];
  for (const def of surface.definitions) {
    const { type, guard, validate, assert } = names.definition(def.key);
    // One statement per name: a doc comment (the @experimental tag) belongs to the first
    // declarator of a statement only.
    for (const [name, signature] of [
      [guard, Guard],
      [validate, Validate],
      [assert, Assert],
    ] as const) {
      if (def.experimental === "new") lines.push(EXPERIMENTAL);
      lines.push(`export declare const ${name}: ${signature}<${type}>;`);
      exported.push(name);
    }
  }
  return { signatures: [Assert, Guard, Validate], exported, readsReceived: false, lines };
}
