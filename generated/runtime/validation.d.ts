/** One reason a value failed validation: where (JSON pointer into the value) and why. */
export interface ValidationIssue {
    /** JSON pointer into the validated value; "" for the value itself. */
    readonly instancePath: string;
    readonly message: string;
    /** The schema keyword that failed (`type`, `required`, `oneOf`, …). */
    readonly keyword: string;
}
export type ValidationResult<T> = {
    readonly valid: true;
    readonly value: T;
} | {
    readonly valid: false;
    readonly issues: readonly ValidationIssue[];
};
/** Thrown by `assert…` functions (and by the connection layer for invalid messages). */
export declare class ValidationError extends Error {
    readonly name = "ValidationError";
    readonly issues: readonly ValidationIssue[];
    /** Name of the definition the value was checked against. */
    readonly type: string;
    constructor(type: string, issues: readonly ValidationIssue[]);
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
export declare function issuesOf(validator: CompiledValidator, sent?: {
    value: unknown;
}): ValidationIssue[];
/**
 * What a failed check means, in the words of ajv (which compiled the validators) for each
 * keyword of JSON Schema 2020-12 and `discriminator`; an unexpected property is named, and so
 * are the values an `enum` or `const` allows.
 */
export declare function messageOf(keyword: string, params: Record<string, unknown>): string;
/** What a validator reports when the value is nested deeper than the call stack allows. */
export declare const TOO_DEEP: ValidationIssue;
export declare function validateWith<T>(validator: CompiledValidator, value: unknown): ValidationResult<T>;
export declare function assertWith<T>(validator: CompiledValidator, type: string, value: unknown): T;
