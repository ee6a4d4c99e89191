import { InputError } from "../errors.js";
import { DEFINITION_ID } from "../prepare/rules.js";
import { isObject, type JsonObject } from "../schema/json.js";
import { createStandaloneAjv, loadFormats, standaloneModule } from "./ajv.js";
import { COMPACTIONS, type Compaction } from "./ajv-output.js";
import type { EmitContext } from "./context.js";
import { sharedReexports } from "./module.js";
import { banner, type OutputFile } from "./output.js";
import { SHARED_VALIDATORS, sharedModuleFrom } from "./shared-code.js";

/**
 * `validators.js`: ajv standalone code for every definition, compiled now so nothing is
 * compiled at import time, each definition as a schema of its own (`DEFINITION_ID`).
 * Exports `v<Name>` per definition; guards.js wraps them. `compactions`: the rewrites of
 * ajv's output (ajv-output.ts); the tests compare the result with ajv's code without them.
 *
 * The validators of the definitions a stable and an unstable surface share (shared-code.ts)
 * are compiled once, into the stable surface's `shared-validators.js`, which both surfaces'
 * validators.js import and re-export: an unstable entry point then loads the stable code it
 * uses and no more (its import compiles every byte of every module it reaches).
 */
export async function emitValidators(
  context: EmitContext,
  compactions: readonly Compaction[] = COMPACTIONS,
): Promise<OutputFile[]> {
  const { surface, names, runtime: runtimePath, stable, stableNames, facts } = context;
  const file = surface.schemaFile.display;
  // Prepared, and warned about, by the analysis stage.
  const defs = facts.prepared.validators as JsonObject;
  const unknown = facts.prepared.unknownFormats;
  const sharedKeys = facts.sharing.code;
  const formats = await loadFormats();

  // A shared definition's validator is compiled once, in the stable surface's
  // shared-validators.js, under the stable surface's name for it; this surface's validators.js
  // imports and re-exports it, and its own validators that reach it call it.
  const sharedModule = sharedModuleFrom(surface, stable, SHARED_VALIDATORS);
  const exports: Record<string, string> = {};
  const sharedExports: Record<string, string> = {};
  const shared = new Map<string, string>();
  for (const def of names.definitions) {
    const id = `${DEFINITION_ID}${def.key}`;
    if (!sharedKeys.has(def.key)) {
      exports[def.validator] = id;
      continue;
    }
    const theirs = (stable ? stableNames?.definition(def.key) : def)?.validator ?? def.validator;
    shared.set(id, theirs);
    sharedExports[theirs] = id;
  }
  // Above ajv's code, which is written a statement a line: one name a line.
  const reexports = sharedReexports(context, "validators", "block");

  /** ajv standalone code for `exported`, every definition of the surface added. */
  const compile = (exported: Record<string, string>, what: string, imports?: typeof shared) => {
    const ajv = createStandaloneAjv(formats, unknown, defs);
    for (const def of surface.definitions) {
      const schema = defs[def.key];
      const body: JsonObject = isObject(schema) ? schema : schema === false ? { not: {} } : {};
      ajv.addSchema({ ...body, $id: `${DEFINITION_ID}${def.key}` });
    }
    return standaloneModule(ajv, exported, runtimePath, what, {
      ...(imports?.size ? { imports: { from: sharedModule, validators: imports } } : {}),
      compactions,
    });
  };

  const files: OutputFile[] = [];
  try {
    let code = compile(exports, "validators.js", shared);
    if (reexports.length) code = `${reexports.join("\n")}\n${code}`;
    files.push({
      path: `${surface.id}/validators.js`,
      content: `${banner(surface.schemaFile.name)}${code}`,
    });
    if (!stable && shared.size)
      files.push({
        path: `${surface.id}/${SHARED_VALIDATORS}`,
        content: `${banner(surface.schemaFile.name)}${compile(sharedExports, SHARED_VALIDATORS)}`,
      });
  } catch (error) {
    throw new InputError(
      file,
      "",
      `cannot compile validators: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return files;
}
