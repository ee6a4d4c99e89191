import { posix } from "node:path";
import { Diagnostics } from "../diagnostics.js";
import { InputError } from "../errors.js";
import type { SurfaceModel } from "../model/protocol.js";
import { type PrepareInput, prepareDefinition } from "../prepare/backends.js";
import { DEFINITION_ID } from "../prepare/rules.js";
import { isObject, type JsonObject } from "../schema/json.js";
import { pointer } from "../schema/pointer.js";
import {
  createStandaloneAjv,
  loadFormats,
  needsEvaluation,
  standaloneModule,
  unknownFormats,
} from "./ajv.js";
import { COMPACTIONS, type Compaction } from "./ajv-output.js";
import type { EmitContext } from "./context.js";
import { banner, type OutputFile } from "./output.js";

/**
 * `validators.js`: ajv standalone code for every definition, compiled now so nothing is
 * compiled at import time, each definition as a schema of its own (`DEFINITION_ID`).
 * Exports `v<Name>` per definition; guards.js wraps them. `compactions`: the rewrites of
 * ajv's output (ajv-output.ts); the tests compare the result with ajv's code without them.
 */
export async function emitValidators(
  {
    surface,
    names,
    diagnostics,
    runtime: runtimePath,
    stable,
    stableNames,
    fromStable,
  }: EmitContext,
  compactions: readonly Compaction[] = COMPACTIONS,
): Promise<OutputFile> {
  const file = surface.schemaFile.display;
  const defs: JsonObject = {};
  const unknown = new Set<string>();
  const formats = await loadFormats();
  const input: PrepareInput = {
    defsKeyword: surface.defsKeyword,
    definitions: surface.definitions,
    file,
    diagnostics,
  };
  for (const def of surface.definitions) {
    const at = pointer(surface.defsKeyword, def.key);
    defs[def.key] = prepareDefinition("validators", input, def.key, def.schema);
    for (const format of unknownFormats(def.schema, formats)) {
      unknown.add(format);
      diagnostics.warn(
        file,
        at,
        `unknown format ${JSON.stringify(format)} treated as an annotation`,
      );
    }
  }

  const ajv = createStandaloneAjv(formats, unknown, defs);
  // A definition the stable surface compiles the same (shared-code.ts) is validated by its
  // code: imported and re-exported here, and used by this surface's own validators that reach
  // it. Its name there is the stable surface's.
  const exports: Record<string, string> = {};
  const shared = new Map<string, string>();
  const reexports: string[] = [];
  for (const def of names.definitions) {
    const theirs = fromStable.has(def.key) ? stableNames?.definition(def.key).validator : undefined;
    if (theirs === undefined) exports[def.validator] = `${DEFINITION_ID}${def.key}`;
    else {
      shared.set(`${DEFINITION_ID}${def.key}`, theirs);
      reexports.push(theirs === def.validator ? theirs : `${theirs} as ${def.validator}`);
    }
  }
  const stableModule = stable
    ? `${posix.relative(surface.id, stable.id) || "."}/validators.js`
    : "";

  let code: string;
  try {
    for (const def of surface.definitions) {
      const schema = defs[def.key];
      const body: JsonObject = isObject(schema) ? schema : schema === false ? { not: {} } : {};
      ajv.addSchema({ ...body, $id: `${DEFINITION_ID}${def.key}` });
    }
    code = standaloneModule(ajv, exports, runtimePath, "validators.js", {
      imports: { from: stableModule, validators: shared },
      compactions,
    });
    if (reexports.length)
      code = `export {\n${reexports.map((n) => `  ${n},\n`).join("")}} from "${stableModule}";\n${code}`;
  } catch (error) {
    throw new InputError(
      file,
      "",
      `cannot compile validators: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return {
    path: `${surface.id}/validators.js`,
    content: `${banner(surface.schemaFile.name)}${code}`,
  };
}
