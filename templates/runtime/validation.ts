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

/** Shape of an ajv-compiled validator, as far as this package relies on it. */
export interface CompiledValidator {
  (value: unknown): boolean;
  errors?: ReadonlyArray<{
    instancePath: string;
    message?: string;
    keyword: string;
    params?: Record<string, unknown>;
  }> | null;
}

export function issuesOf(validator: CompiledValidator): ValidationIssue[] {
  return (validator.errors ?? []).map((e) => {
    const extra =
      e.keyword === "additionalProperties" || e.keyword === "unevaluatedProperties"
        ? unexpected(e.params)
        : "";
    return {
      instancePath: e.instancePath,
      message: `${e.message ?? e.keyword}${extra}`,
      keyword: e.keyword,
    };
  });
}

function unexpected(params: Record<string, unknown> | undefined): string {
  const name = params?.additionalProperty ?? params?.unevaluatedProperty;
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
