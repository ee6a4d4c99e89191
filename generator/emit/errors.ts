import { SESSION_NOT_FOUND } from "../model/conventions.js";
import { ERROR_CODE_DEFINITION } from "../model/error-codes.js";
import type { ErrorCode } from "../model/protocol.js";
import { runtimeSpecifier } from "../symbols/exports.js";
import type { EmitContext } from "./context.js";
import { commentLine, literal } from "./js.js";
import { banner, type OutputFile } from "./output.js";
import { render } from "./templates.js";

/**
 * `errors.js` / `errors.d.ts`: the entry point's `RequestError`, the runtime's class with a
 * static helper per code of the schema's `ErrorCode` (names from the symbol table), so a
 * code added to the schema gets its helper on the next generate. `instanceof` accepts any
 * `RequestError`, since the connection (shared by every entry point) makes its own with
 * the runtime's class.
 */
export function emitErrors({ surface, names, runtime }: EmitContext): OutputFile[] {
  const { errorClass, helpers, sessionNotFound } = names.errors;
  const data = {
    banner: banner(surface.schemaFile.name).trimEnd(),
    requestError: {
      js: runtimeSpecifier(runtime, names.imports.errors.base.from, false),
      dts: runtimeSpecifier(runtime, names.imports.errors.base.from, true),
    },
    definition: ERROR_CODE_DEFINITION,
    errorClass,
    helpers: helpers.map(({ name, code }) => ({
      name,
      code: code.code,
      title: literal(code.title),
      doc: `${code.code} ${commentLine(code.title)}${summary(code)}`,
    })),
    sessionNotFound: sessionNotFound && {
      name: sessionNotFound.name,
      code: sessionNotFound.code.code,
      title: literal(sessionNotFound.code.title),
      data: SESSION_NOT_FOUND.dataProperty,
      detail: `\`session \${${SESSION_NOT_FOUND.dataProperty}}\``,
      doc: `The session a request names does not exist (or is not active): \`${commentLine(sessionNotFound.code.title)}\` with \`data.${SESSION_NOT_FOUND.dataProperty}\`.`,
    },
  };
  return [
    { path: `${surface.id}/errors.js`, content: render("errors.js.hbs", data) },
    { path: `${surface.id}/errors.d.ts`, content: render("errors.d.ts.hbs", data) },
  ];
}

/** `: ` and the description without its leading `**Title**:`, or nothing. */
function summary(code: ErrorCode): string {
  const text = commentLine((code.description ?? "").replace(/^\*\*[^*]*\*\*:\s*/, ""));
  return text ? `: ${text}` : "";
}
