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
export function validateWith(validator, value) {
    return validator(value)
        ? { valid: true, value: value }
        : { valid: false, issues: issuesOf(validator) };
}
export function assertWith(validator, type, value) {
    if (validator(value))
        return value;
    throw new ValidationError(type, issuesOf(validator));
}
