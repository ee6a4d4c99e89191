import { posix } from "node:path";
import { runtimeSpecifier } from "../symbols/exports.js";
import type { EmitContext } from "./context.js";
import { literal } from "./js.js";
import { banner, type OutputFile } from "./output.js";

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
  /** Every exported name the lines declare, in order: what the function module's own `.d.ts` re-exports. */
  exported: readonly string[];
  /** Whether the lines name received types, as `<locals.received>.<Name>` (received.d.ts). */
  readsReceived: boolean;
  /** One statement per line, doc comments included. */
  lines: readonly string[];
}

/**
 * `guards.js` / `guards.d.ts`: for every definition a strict type guard `is<Name>`, a
 * `validate<Name>` that returns the issues, and an `assert<Name>` that throws them.
 * Each is a one-liner over its own compiled validator, so a bundler keeps only what is used.
 * They are declared in `types.d.ts` (`guardDeclarations`); `guards.d.ts` only re-exports them
 * from there, for a deep import of `guards.js`, and the entry point does not read it.
 */
export function emitGuards(context: EmitContext): OutputFile[] {
  const { surface, names, runtime: runtimePath, stable, stableNames, fromStable } = context;
  const head = banner(surface.schemaFile.name);
  const own = surface.definitions.filter((d) => !fromStable.has(d.key));
  // A definition whose validator is the stable surface's (shared-code.ts) has its guards too.
  const reexports = surface.definitions.flatMap((def) => {
    const theirs = fromStable.has(def.key) ? stableNames?.definition(def.key) : undefined;
    if (theirs === undefined) return [];
    const mine = names.definition(def.key);
    return ([["guard"], ["validate"], ["assert"]] as const).map(([role]) =>
      theirs[role] === mine[role] ? mine[role] : `${theirs[role]} as ${mine[role]}`,
    );
  });
  const js = [
    head,
    `import { assertWith, validateWith } from "${runtimeSpecifier(runtimePath, "validation.js", false)}";`,
    ...(own.length
      ? [
          `import { ${own.map((d) => names.definition(d.key).validator).join(", ")} } from "./validators.js";`,
        ]
      : []),
    ...(reexports.length && stable
      ? [
          `export { ${reexports.join(", ")} } from "${posix.relative(surface.id, stable.id) || "."}/guards.js";`,
        ]
      : []),
    "",
  ];
  for (const def of own) {
    const { type, guard, validate, assert, validator: v } = names.definition(def.key);
    js.push(
      // A value nested deeper than the stack allows (only possible through recursive
      // definitions) makes the validator throw RangeError: that is "not valid", never a crash.
      `export function ${guard}(value) { try { return ${v}(value); } catch { return false; } }`,
      `export function ${validate}(value) { return validateWith(${v}, value); }`,
      `export function ${assert}(value) { return assertWith(${v}, ${literal(type)}, value); }`,
    );
  }
  return [
    { path: `${surface.id}/guards.js`, content: `${js.join("\n")}\n` },
    {
      path: `${surface.id}/guards.d.ts`,
      content: reexportFromTypes(head, guardDeclarations(context).exported),
    },
  ];
}

/** `is<Name>`, `validate<Name>` and `assert<Name>` of every definition, as constants of the shared signatures. */
export function guardDeclarations({ surface, names }: EmitContext): FunctionDeclarations {
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

/** The `.d.ts` of a function module whose functions `types.d.ts` declares. */
export function reexportFromTypes(head: string, exported: readonly string[]): string {
  return exported.length === 0
    ? `${head}\nexport {};\n`
    : `${head}\nexport { ${exported.join(", ")} } from "./types.js";\n`;
}
