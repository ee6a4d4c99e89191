import { _ } from "ajv";
import type { Diagnostics } from "../diagnostics.js";
import { InputError } from "../errors.js";
import type { SurfaceModel } from "../model/protocol.js";
import { validatorExportName } from "../naming.js";
import {
  applyRules,
  discriminatorForAjv,
  dropNoopUnevaluated,
  enumsAsEnum,
  refsToOwnIds,
  stripAnnotations,
} from "../patch/rules.js";
import { isObject, type Json, type JsonObject } from "../schema/json.js";
import { pointer } from "../schema/pointer.js";
import { forEachJson } from "../schema/walk.js";
import { createAjv, loadFormats, standaloneModule, unknownFormats } from "./ajv.js";
import { banner, type OutputFile } from "./output.js";

// `lines: true` (below) puts one statement per line, so a drift diff of validators.js is reviewable.

/**
 * `validators.js`: ajv standalone code for every definition, compiled now so nothing is
 * compiled at import time. Exports `v<Name>` per definition; guards.js wraps them.
 */
/** Each definition is compiled as its own schema under this id prefix. */
const DEFINITION_ID = "acp-codegen:definition:";

/** True when some object in `value`, data and names included, has one of `keywords` as a key. */
function usesKeyword(value: Json, keywords: readonly string[]): boolean {
  let found = false;
  forEachJson(value, (_node, path) => {
    const key = path.at(-1);
    if (typeof key === "string" && keywords.includes(key)) found = true;
  });
  return found;
}

export async function emitValidators(
  surface: SurfaceModel,
  diagnostics: Diagnostics,
  runtimePath: string,
): Promise<OutputFile> {
  const file = surface.schemaFile.display;
  const defs: JsonObject = {};
  const unknown = new Set<string>();
  const formats = await loadFormats();
  const discriminators = discriminatorForAjv(
    Object.fromEntries(surface.definitions.map((d) => [d.key, d.schema])),
    surface.defsKeyword,
  );
  const ownIds = refsToOwnIds(surface.defsKeyword, DEFINITION_ID);
  for (const def of surface.definitions) {
    const at = pointer(surface.defsKeyword, def.key);
    // Refs are rewritten in a pass of their own: the discriminator rule resolves `$ref`
    // branches by their `#/$defs/` form.
    const prepared = applyRules(def.schema, [
      stripAnnotations(diagnostics, file, at),
      discriminators,
      enumsAsEnum,
      dropNoopUnevaluated,
    ]);
    defs[def.key] = applyRules(prepared, [ownIds]);
    for (const format of unknownFormats(def.schema, formats)) {
      unknown.add(format);
      diagnostics.warn(
        file,
        at,
        `unknown format ${JSON.stringify(format)} treated as an annotation`,
      );
    }
  }

  const ajv = createAjv(formats, unknown, {
    code: { source: true, esm: true, lines: true, formats: _`__formats` },
  });
  if (!usesKeyword(defs, ["unevaluatedProperties", "unevaluatedItems", "$dynamicRef"])) {
    // Ajv2020 switches this bookkeeping on unconditionally; with no keyword that needs it
    // left, it is dead code in every validator.
    ajv.opts.unevaluated = false;
    ajv.opts.dynamicRef = false;
  }
  const exports: Record<string, string> = {};
  for (const def of surface.definitions)
    exports[validatorExportName(def.name)] = `${DEFINITION_ID}${def.key}`;

  let code: string;
  try {
    for (const def of surface.definitions) {
      const schema = defs[def.key];
      const body: JsonObject = isObject(schema) ? schema : schema === false ? { not: {} } : {};
      ajv.addSchema({ ...body, $id: `${DEFINITION_ID}${def.key}` });
    }
    code = standaloneModule(ajv, exports, runtimePath, "validators.js");
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
