/** Thrown by `assert…` functions (and by the connection layer for invalid messages). */
export class ValidationError extends Error {
    constructor(type, issues) {
        const first = issues[0];
        const where = first ? `${first.instancePath || "(root)"} ${first.message}` : "invalid";
        super(`invalid ${type}: ${where}${issues.length > 1 ? ` (+${issues.length - 1} more)` : ""}`);
        this.name = "ValidationError";
        this.type = type;
        this.issues = issues;
    }
}
export function issuesOf(validator) {
    return (validator.errors ?? []).map((e) => {
        const extra = e.keyword === "additionalProperties" || e.keyword === "unevaluatedProperties"
            ? unexpected(e.params)
            : "";
        return {
            instancePath: e.instancePath,
            message: `${e.message ?? e.keyword}${extra}`,
            keyword: e.keyword,
        };
    });
}
function unexpected(params) {
    const name = params?.additionalProperty ?? params?.unevaluatedProperty;
    return typeof name === "string" ? `: ${JSON.stringify(name)}` : "";
}
/** What a validator reports when the value is nested deeper than the call stack allows. */
export const TOO_DEEP = {
    instancePath: "",
    message: "is nested too deeply to validate",
    keyword: "depth",
};
/** Run a validator; a stack overflow on a hostile, deeply nested value counts as invalid. */
function run(validator, value) {
    try {
        return validator(value) ? null : issuesOf(validator);
    }
    catch (error) {
        if (error instanceof RangeError)
            return [TOO_DEEP];
        throw error;
    }
}
export function validateWith(validator, value) {
    const issues = run(validator, value);
    return issues === null ? { valid: true, value: value } : { valid: false, issues };
}
export function assertWith(validator, type, value) {
    const issues = run(validator, value);
    if (issues === null)
        return value;
    throw new ValidationError(type, issues);
}
