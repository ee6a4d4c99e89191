import type { SurfaceModel } from "../model/protocol.js";
import { guardName, validateName, validatorExportName } from "../naming.js";
import { literal } from "./js.js";
import { banner, type OutputFile } from "./output.js";

/**
 * `guards.js` / `guards.d.ts`: for every definition a strict type guard `is<Name>`, a
 * `validate<Name>` that returns the issues, and an `assert<Name>` that throws them.
 * Each is a one-liner over its own compiled validator, so a bundler keeps only what is used.
 */
export function emitGuards(surface: SurfaceModel, runtimePath: string): OutputFile[] {
  const head = banner(surface.schemaFile.name);
  const validators = surface.definitions.map((d) => validatorExportName(d.name));
  const js = [
    head,
    `import { assertWith, validateWith } from "${runtimePath}/validation.js";`,
    `import { ${validators.join(", ")} } from "./validators.js";`,
    "",
  ];
  const dts = [
    head,
    `import type { ValidationResult } from "${runtimePath}/validation.js";`,
    'import type * as T from "./types.js";',
    "",
  ];
  for (const def of surface.definitions) {
    const v = validatorExportName(def.name);
    const experimental = def.experimental === "new" ? " @experimental" : "";
    js.push(
      // A value nested deeper than the stack allows (only possible through recursive
      // definitions) makes the validator throw RangeError: that is "not valid", never a crash.
      `export function ${guardName(def.name)}(value) { try { return ${v}(value); } catch { return false; } }`,
      `export function ${validateName(def.name)}(value) { return validateWith(${v}, value); }`,
      `export function assert${def.name}(value) { return assertWith(${v}, ${literal(def.name)}, value); }`,
    );
    dts.push(
      `/** Strict check against the schema's \`${def.key}\` definition.${experimental} */`,
      `export declare function ${guardName(def.name)}(value: unknown): value is T.${def.name};`,
      `/** Like \`${guardName(def.name)}\`, returning the issues (instance path and message) when invalid.${experimental} */`,
      `export declare function ${validateName(def.name)}(value: unknown): ValidationResult<T.${def.name}>;`,
      `/** Returns the value typed as \`${def.name}\`, or throws a \`ValidationError\` listing the issues.${experimental} */`,
      `export declare function assert${def.name}(value: unknown): T.${def.name};`,
    );
  }
  return [
    { path: `${surface.id}/guards.js`, content: `${js.join("\n")}\n` },
    { path: `${surface.id}/guards.d.ts`, content: `${dts.join("\n")}\n` },
  ];
}
