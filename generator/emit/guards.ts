import { runtimeSpecifier } from "../symbols/exports.js";
import type { EmitContext } from "./context.js";
import { literal } from "./js.js";
import { banner, type OutputFile } from "./output.js";

/** Before the functions of a definition only the unstable schema has (its type says so too). */
export const EXPERIMENTAL =
  "/** @experimental Only in the unstable schema: may change or be removed. */";

/**
 * `guards.js` / `guards.d.ts`: for every definition a strict type guard `is<Name>`, a
 * `validate<Name>` that returns the issues, and an `assert<Name>` that throws them.
 * Each is a one-liner over its own compiled validator, so a bundler keeps only what is used.
 * The declarations are one line per function: each is a constant of a shared call signature
 * (`runtime/signatures.js`), which documents the family once.
 */
export function emitGuards({ surface, names, runtime: runtimePath }: EmitContext): OutputFile[] {
  const { guard: Guard, validate: Validate, assert: Assert } = names.signatures;
  const head = banner(surface.schemaFile.name);
  const js = [
    head,
    `import { assertWith, validateWith } from "${runtimeSpecifier(runtimePath, "validation.js", false)}";`,
    `import { ${names.definitions.map((d) => d.validator).join(", ")} } from "./validators.js";`,
    "",
  ];
  const dts = [
    head,
    `import type { ${[Assert, Guard, Validate].join(", ")} } from "${runtimePath}/signatures.js";`,
    'import type * as T from "./types.js";',
    "",
  ];
  for (const def of surface.definitions) {
    const { type, guard, validate, assert, validator: v } = names.definition(def.key);
    js.push(
      // A value nested deeper than the stack allows (only possible through recursive
      // definitions) makes the validator throw RangeError: that is "not valid", never a crash.
      `export function ${guard}(value) { try { return ${v}(value); } catch { return false; } }`,
      `export function ${validate}(value) { return validateWith(${v}, value); }`,
      `export function ${assert}(value) { return assertWith(${v}, ${literal(type)}, value); }`,
    );
    // One statement per name: a doc comment (the @experimental tag) belongs to the first
    // declarator of a statement only.
    for (const [name, signature] of [
      [guard, Guard],
      [validate, Validate],
      [assert, Assert],
    ] as const) {
      if (def.experimental === "new") dts.push(EXPERIMENTAL);
      dts.push(`export declare const ${name}: ${signature}<T.${type}>;`);
    }
  }
  return [
    { path: `${surface.id}/guards.js`, content: `${js.join("\n")}\n` },
    { path: `${surface.id}/guards.d.ts`, content: `${dts.join("\n")}\n` },
  ];
}
