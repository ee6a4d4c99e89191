import { _ } from "ajv";
import type { Diagnostics } from "../diagnostics.js";
import { InputError, pointer } from "../errors.js";
import type { JsonObject } from "../load/json-types.js";
import type { SurfaceModel } from "../model/protocol.js";
import { validatorExportName } from "../naming.js";
import { applyRules, discriminatorForAjv, stripAnnotations } from "../patch/rules.js";
import { forEachSchema } from "../patch/walk.js";
import { ANNOTATION_FORMATS, createAjv, loadFormats, standaloneModule } from "./ajv.js";
import { banner, type OutputFile } from "./output.js";

// `lines: true` (below) puts one statement per line, so a drift diff of validators.js is reviewable.

/**
 * `validators.js`: ajv standalone code for every definition, compiled now so nothing is
 * compiled at import time. Exports `v<Name>` per definition; guards.js wraps them.
 */
export async function emitValidators(
  surface: SurfaceModel,
  diagnostics: Diagnostics,
  runtimePath: string,
): Promise<OutputFile> {
  const file = surface.schemaFile.display;
  const defs: JsonObject = {};
  const unknownFormats = new Set<string>();
  const formats = await loadFormats();
  const discriminators = discriminatorForAjv(
    Object.fromEntries(surface.definitions.map((d) => [d.key, d.schema])),
    surface.defsKeyword,
  );
  for (const def of surface.definitions) {
    const at = pointer(surface.defsKeyword, def.key);
    defs[def.key] = applyRules(def.schema, [
      stripAnnotations(diagnostics, file, at),
      discriminators,
    ]);
    forEachSchema(def.schema, (node) => {
      const format = node.format;
      if (
        typeof format === "string" &&
        !Object.hasOwn(formats, format) &&
        !ANNOTATION_FORMATS.includes(format)
      ) {
        unknownFormats.add(format);
        diagnostics.warn(
          file,
          at,
          `unknown format ${JSON.stringify(format)} treated as an annotation`,
        );
      }
    });
  }

  const ajv = createAjv(formats, unknownFormats, {
    code: { source: true, esm: true, lines: true, formats: _`__formats` },
  });
  const id = "acp-codegen:surface";
  const exports: Record<string, string> = {};
  for (const def of surface.definitions)
    exports[validatorExportName(def.name)] = `${id}#/${surface.defsKeyword}/${def.key}`;

  let code: string;
  try {
    ajv.addSchema({ $id: id, [surface.defsKeyword]: defs }, id);
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
