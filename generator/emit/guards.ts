import type { EmitContext } from "./context.js";
import { literal } from "./js.js";
import { banner, type OutputFile } from "./output.js";

/**
 * `guards.js` / `guards.d.ts`: for every definition a strict type guard `is<Name>`, a
 * `validate<Name>` that returns the issues, and an `assert<Name>` that throws them.
 * Each is a one-liner over its own compiled validator, so a bundler keeps only what is used.
 */
export function emitGuards({ surface, names, runtime: runtimePath }: EmitContext): OutputFile[] {
  const head = banner(surface.schemaFile.name);
  const js = [
    head,
    `import { assertWith, validateWith } from "${runtimePath}/validation.js";`,
    `import { ${names.definitions.map((d) => d.validator).join(", ")} } from "./validators.js";`,
    "",
  ];
  const dts = [
    head,
    `import type { ValidationResult } from "${runtimePath}/validation.js";`,
    'import type * as T from "./types.js";',
    "",
  ];
  for (const def of surface.definitions) {
    const { type, guard, validate, assert, validator: v } = names.definition(def.key);
    const experimental = def.experimental === "new" ? " @experimental" : "";
    js.push(
      // A value nested deeper than the stack allows (only possible through recursive
      // definitions) makes the validator throw RangeError: that is "not valid", never a crash.
      `export function ${guard}(value) { try { return ${v}(value); } catch { return false; } }`,
      `export function ${validate}(value) { return validateWith(${v}, value); }`,
      `export function ${assert}(value) { return assertWith(${v}, ${literal(type)}, value); }`,
    );
    dts.push(
      `/** Strict check against the schema's \`${def.key}\` definition.${experimental} */`,
      `export declare function ${guard}(value: unknown): value is T.${type};`,
      `/** Like \`${guard}\`, returning the issues (instance path and message) when invalid.${experimental} */`,
      `export declare function ${validate}(value: unknown): ValidationResult<T.${type}>;`,
      `/** Returns the value typed as \`${type}\`, or throws a \`ValidationError\` listing the issues.${experimental} */`,
      `export declare function ${assert}(value: unknown): T.${type};`,
    );
  }
  return [
    { path: `${surface.id}/guards.js`, content: `${js.join("\n")}\n` },
    { path: `${surface.id}/guards.d.ts`, content: `${dts.join("\n")}\n` },
  ];
}
