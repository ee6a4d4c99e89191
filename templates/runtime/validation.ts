/** One reason a value failed validation: where (JSON pointer into the value) and why. */
export interface ValidationIssue {
  /** JSON pointer into the validated value; "" for the value itself. */
  readonly instancePath: string;
  readonly message: string;
  /** The schema keyword that failed (`type`, `required`, `oneOf`, …). */
  readonly keyword: string;
}

export type ValidationResult<T> =
  | { readonly valid: true; readonly value: T }
  | { readonly valid: false; readonly issues: readonly ValidationIssue[] };

/** Thrown by `assert…` functions (and by the connection layer for invalid messages). */
export class ValidationError extends Error {
  override readonly name = "ValidationError";
  readonly issues: readonly ValidationIssue[];
  /** Name of the definition the value was checked against. */
  readonly type: string;

  constructor(type: string, issues: readonly ValidationIssue[]) {
    const first = issues[0];
    const where = first ? `${first.instancePath || "(root)"} ${first.message}` : "invalid";
    super(`invalid ${type}: ${where}${issues.length > 1 ? ` (+${issues.length - 1} more)` : ""}`);
    this.type = type;
    this.issues = issues;
  }
}

/**
 * Shape of an ajv-compiled validator, as far as this package relies on it. The generated
 * validators carry no message strings (they would be most of their size): an issue's message
 * is built here from the error's keyword and params.
 */
export interface CompiledValidator {
  (value: unknown): boolean;
  errors?: ReadonlyArray<{
    instancePath: string;
    keyword: string;
    params?: Record<string, unknown>;
  }> | null;
}

/**
 * The validator's issues. With `sent`, the value this side was about to send (never one it
 * received, so that logs and error answers do not carry a peer's data), an issue about a
 * value's type or literal names what was found there.
 */
export function issuesOf(
  validator: CompiledValidator,
  sent?: { value: unknown },
): ValidationIssue[] {
  return (validator.errors ?? []).map((e) => {
    const message = messageOf(e.keyword, e.params ?? {});
    return {
      instancePath: e.instancePath,
      message:
        sent && FOUND_KEYWORDS.has(e.keyword)
          ? `${message}; found ${shown(at(sent.value, e.instancePath))}`
          : message,
      keyword: e.keyword,
    };
  });
}

/** Keywords whose issue is about the value itself, which is worth seeing: a typo, a wrong type. */
const FOUND_KEYWORDS: ReadonlySet<string> = new Set(["type", "enum", "const"]);

/** The value a JSON pointer names in `root`. */
function at(root: unknown, pointer: string): unknown {
  let node = root;
  for (const token of pointer.split("/").slice(1)) {
    if (typeof node !== "object" || node === null) return undefined;
    const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
    node = Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

/** A value in a message: a scalar as JSON (shortened), anything else by its kind. */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object" && value !== null) return "an object";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** The allowed values of an `enum` or `const`, as they would be written in JSON (at most ten). */
function allowed(values: readonly unknown[]): string {
  const listed = values.slice(0, 10).map((v) => JSON.stringify(v) ?? String(v));
  return values.length > 10 ? `${listed.join(", ")}, …` : listed.join(", ");
}

const LIMITS: Readonly<Record<string, readonly [string, string]>> = {
  maxLength: ["more", "characters"],
  minLength: ["fewer", "characters"],
  maxItems: ["more", "items"],
  minItems: ["fewer", "items"],
  maxProperties: ["more", "properties"],
  minProperties: ["fewer", "properties"],
};

/**
 * What a failed check means, in the words of ajv (which compiled the validators) for each
 * keyword of JSON Schema 2020-12 and `discriminator`; an unexpected property is named, and so
 * are the values an `enum` or `const` allows.
 */
export function messageOf(keyword: string, params: Record<string, unknown>): string {
  const p = (name: string) => String(params[name]);
  switch (keyword) {
    case "type":
      return `must be ${p("type")}`;
    case "required":
      return `must have required property '${p("missingProperty")}'`;
    case "additionalProperties":
      return `must NOT have additional properties${unexpected(params.additionalProperty)}`;
    case "unevaluatedProperties":
      return `must NOT have unevaluated properties${unexpected(params.unevaluatedProperty)}`;
    case "enum":
      return Array.isArray(params.allowedValues)
        ? `must be equal to one of the allowed values: ${allowed(params.allowedValues)}`
        : "must be equal to one of the allowed values";
    case "const":
      return Object.hasOwn(params, "allowedValue")
        ? `must be equal to constant ${allowed([params.allowedValue])}`
        : "must be equal to constant";
    case "format":
      return `must match format "${p("format")}"`;
    case "pattern":
      return `must match pattern "${p("pattern")}"`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `must be ${p("comparison")} ${p("limit")}`;
    case "multipleOf":
      return `must be multiple of ${p("multipleOf")}`;
    case "uniqueItems":
      return `must NOT have duplicate items (items ## ${p("j")} and ${p("i")} are identical)`;
    case "items":
    case "additionalItems":
    case "unevaluatedItems":
      return `must NOT have more than ${p("limit")} items`;
    case "contains":
      return params.maxContains === undefined
        ? `must contain at least ${p("minContains")} valid item(s)`
        : `must contain at least ${p("minContains")} and no more than ${p("maxContains")} valid item(s)`;
    case "dependencies":
    case "dependentRequired":
      return `must have ${params.depsCount === 1 ? "property" : "properties"} ${p("deps")} when property ${p("property")} is present`;
    case "propertyNames":
      return "property name must be valid";
    case "anyOf":
      return "must match a schema in anyOf";
    case "oneOf":
      return "must match exactly one schema in oneOf";
    case "not":
      return "must NOT be valid";
    case "if":
      return `must match "${p("failingKeyword")}" schema`;
    case "false schema":
      return "boolean schema is false";
    case "discriminator":
      return params.error === "tag"
        ? `tag "${p("tag")}" must be string`
        : `value of tag "${p("tag")}" must be in oneOf`;
  }
  const limit = Object.hasOwn(LIMITS, keyword) ? LIMITS[keyword] : undefined;
  if (limit) return `must NOT have ${limit[0]} than ${p("limit")} ${limit[1]}`;
  return `must pass "${keyword}" keyword validation`;
}

function unexpected(name: unknown): string {
  return typeof name === "string" ? `: ${JSON.stringify(name)}` : "";
}

/** What a validator reports when the value is nested deeper than the call stack allows. */
export const TOO_DEEP: ValidationIssue = {
  instancePath: "",
  message: "is nested too deeply to validate",
  keyword: "depth",
};

/** Run a validator; a stack overflow on a hostile, deeply nested value counts as invalid. */
function run(validator: CompiledValidator, value: unknown): ValidationIssue[] | null {
  try {
    return validator(value) ? null : issuesOf(validator);
  } catch (error) {
    if (error instanceof RangeError) return [TOO_DEEP];
    throw error;
  }
}

export function validateWith<T>(validator: CompiledValidator, value: unknown): ValidationResult<T> {
  const issues = run(validator, value);
  return issues === null ? { valid: true, value: value as T } : { valid: false, issues };
}

export function assertWith<T>(validator: CompiledValidator, type: string, value: unknown): T {
  const issues = run(validator, value);
  if (issues === null) return value as T;
  throw new ValidationError(type, issues);
}
