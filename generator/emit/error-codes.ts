import { InputError, pointer } from "../errors.js";
import { isObject } from "../load/json-types.js";
import type { SurfaceModel } from "../model/protocol.js";
import { banner, literal, type OutputFile } from "./output.js";
import { runtimePathFrom } from "./package.js";

/** The definition that lists the protocol's error codes, one `anyOf` entry per code. */
export const ERROR_CODE_DEFINITION = "ErrorCode";

/**
 * The one helper the schema cannot name: ACP reports a session that does not exist as the
 * code titled "Resource not found" with `data.sessionId` (the official SDK's
 * `RequestError.sessionNotFound` sends exactly that, and its own `resourceNotFound(uri)`
 * would put the id under `uri`). Generated when the schema has that code.
 */
const SESSION_NOT_FOUND = { helper: "sessionNotFound", code: "resourceNotFound" } as const;

/** Names a helper cannot take: members every class already has. */
const TAKEN = new Set([
  "name",
  "length",
  "prototype",
  "caller",
  "arguments",
  "apply",
  "bind",
  "call",
  "toString",
]);

export interface ErrorCodeHelper {
  /** `resourceNotFound`: camelCase of the title. */
  readonly name: string;
  readonly code: number;
  /** `Resource not found`: the title, the message of every error the helper makes. */
  readonly title: string;
  /** The description without its leading `**Title**:`, on one line. */
  readonly summary: string;
}

/**
 * One helper per entry of the schema's ErrorCode with a title and an integer `const`, in
 * schema order (the "Other" entry has no constant and gets none). A title whose name is
 * not an identifier, clashes with a class member or repeats another is an input error.
 */
export function errorCodeHelpers(surface: SurfaceModel): ErrorCodeHelper[] {
  const definition = surface.definitions.find((d) => d.key === ERROR_CODE_DEFINITION);
  if (!definition || !isObject(definition.schema)) return [];
  const variants = definition.schema.anyOf ?? definition.schema.oneOf;
  if (!Array.isArray(variants)) return [];
  const keyword = Array.isArray(definition.schema.anyOf) ? "anyOf" : "oneOf";
  const helpers: ErrorCodeHelper[] = [];
  const seen = new Set<string>([SESSION_NOT_FOUND.helper]);
  variants.forEach((variant, i) => {
    if (!isObject(variant) || typeof variant.title !== "string") return;
    if (typeof variant.const !== "number" || !Number.isInteger(variant.const)) return;
    const name = helperName(variant.title);
    if (!/^[a-z][A-Za-z0-9]*$/.test(name) || TAKEN.has(name) || seen.has(name)) {
      throw new InputError(
        surface.schemaFile.display,
        pointer(surface.defsKeyword, ERROR_CODE_DEFINITION, keyword, i, "title"),
        `error code title ${JSON.stringify(variant.title)} gives the helper name ${JSON.stringify(name)}, which is not a free identifier`,
      );
    }
    seen.add(name);
    const description = typeof variant.description === "string" ? variant.description : "";
    helpers.push({
      name,
      code: variant.const,
      title: variant.title,
      summary: description
        .replace(/^\*\*[^*]*\*\*:\s*/, "")
        .replace(/\s*\n\s*/g, " ")
        .replace(/\*\//g, "*\\/")
        .trim(),
    });
  });
  return helpers;
}

/** `Authentication required` → `authenticationRequired`. */
function helperName(title: string): string {
  const words = title.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words
    .map((w, i) =>
      i === 0 ? w.toLowerCase() : `${w[0]?.toUpperCase()}${w.slice(1).toLowerCase()}`,
    )
    .join("");
}

/**
 * `errors.js` / `errors.d.ts`: the entry point's `RequestError`, the runtime's class with a
 * static helper per error code, so a code added to the schema gets its helper on the next
 * generate. `instanceof` accepts any `RequestError`, since the connection (shared by every
 * entry point) makes its own with the runtime's class.
 */
export function emitErrorCodes(surface: SurfaceModel): OutputFile[] {
  const helpers = errorCodeHelpers(surface);
  const runtime = runtimePathFrom(surface);
  const head = banner(surface.schemaFile.name);
  const notFound = helpers.find((h) => h.name === SESSION_NOT_FOUND.code);
  const doc = (h: ErrorCodeHelper) =>
    `  /** ${h.code} ${h.title}${h.summary ? `: ${h.summary}` : ""} */`;
  const sessionDoc =
    "  /** The session a request names does not exist (or is not active): `Resource not found` with `data.sessionId`. */";
  const classDoc = [
    "/**",
    " * A JSON-RPC error: throw one from a handler to answer with its code; a call the peer",
    ` * answered with an error rejects with one. One helper per code of the schema's \`${ERROR_CODE_DEFINITION}\`.`,
    " */",
  ];
  const js = [
    head,
    `import { RequestError as RuntimeRequestError, withDetail } from "${runtime}/request-error.js";`,
    "",
    ...classDoc,
    "export class RequestError extends RuntimeRequestError {",
    "  /** True for every RequestError, whichever entry point or the connection made it; subclasses check their own. */",
    "  static [Symbol.hasInstance](value) {",
    "    return this === RequestError",
    "      ? value instanceof RuntimeRequestError",
    "      : Function.prototype[Symbol.hasInstance].call(this, value);",
    "  }",
    ...helpers.flatMap((h) => [
      doc(h),
      `  static ${h.name}(data, detail) {`,
      `    return new RequestError(${h.code}, withDetail(${literal(h.title)}, detail), data);`,
      "  }",
    ]),
    ...(notFound
      ? [
          sessionDoc,
          `  static ${SESSION_NOT_FOUND.helper}(sessionId) {`,
          `    return new RequestError(${notFound.code}, withDetail(${literal(notFound.title)}, \`session \${sessionId}\`), { sessionId });`,
          "  }",
        ]
      : []),
    "}",
    "",
  ];
  const dts = [
    head,
    `import { RequestError as RuntimeRequestError } from "${runtime}/request-error.js";`,
    "",
    ...classDoc,
    "export declare class RequestError extends RuntimeRequestError {",
    ...helpers.flatMap((h) => [
      doc(h),
      `  static ${h.name}(data?: unknown, detail?: string): RequestError;`,
    ]),
    ...(notFound
      ? [sessionDoc, `  static ${SESSION_NOT_FOUND.helper}(sessionId: string): RequestError;`]
      : []),
    "}",
    "",
  ];
  return [
    { path: `${surface.id}/errors.js`, content: js.join("\n") },
    { path: `${surface.id}/errors.d.ts`, content: dts.join("\n") },
  ];
}
