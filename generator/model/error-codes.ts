import { isObject } from "../schema/json.js";
import { literalOf, unionKeyword } from "../schema/node.js";
import { pointer } from "../schema/pointer.js";
import { SESSION_NOT_FOUND } from "./conventions.js";
import type { ErrorCode, ErrorCodes, SurfaceModel } from "./protocol.js";

/** The definition that lists the protocol's error codes, one union entry per code. */
export const ERROR_CODE_DEFINITION = "ErrorCode";

/**
 * Every entry of the schema's `ErrorCode` with a title and an integer constant, in schema
 * order (ACP's "Other" entry, any other integer, has no constant and is left out). Each
 * becomes a `RequestError` helper named after its title, so a code a schema bump adds gets
 * its helper; symbols/ checks that the titles make usable names.
 */
export function errorCodes(surface: Pick<SurfaceModel, "definitions" | "defsKeyword">): ErrorCodes {
  const schema = surface.definitions.find((d) => d.key === ERROR_CODE_DEFINITION)?.schema;
  const keyword = isObject(schema) ? unionKeyword(schema) : undefined;
  if (!isObject(schema) || !keyword) return { codes: [] };
  const codes: ErrorCode[] = [];
  (schema[keyword] as unknown[]).forEach((variant, i) => {
    if (!isObject(variant) || typeof variant.title !== "string") return;
    const code = literalOf(variant);
    if (typeof code !== "number" || !Number.isInteger(code)) return;
    codes.push({
      code,
      title: variant.title,
      ...(typeof variant.description === "string" ? { description: variant.description } : {}),
      at: pointer(surface.defsKeyword, ERROR_CODE_DEFINITION, keyword, i),
    });
  });
  const sessionNotFound = codes.find((c) => c.title === SESSION_NOT_FOUND.title);
  return sessionNotFound ? { codes, sessionNotFound } : { codes };
}
