/**
 * The helpers ajv's generated code calls out to. ajv's standalone output would `require()`
 * the first two from the ajv package; the generator rewires those calls to this module so
 * the generated package is pure ESM with no runtime dependency. `issue` builds the error
 * objects ajv writes out literally at each check, and the `…Issues` helpers keep the list of
 * them where ajv spells out the same statements at every site (generator/emit/ajv-output.ts).
 */
/** An error a validator reports: what validation.ts's `issuesOf` reads. */
export declare function issue(instancePath: string, keyword: string, params: Record<string, unknown>): {
    instancePath: string;
    keyword: string;
    params: Record<string, unknown>;
};
/** What a validator reports when its first failed check ends it: `false`, and that one error. */
export declare function fail(validator: {
    errors?: unknown;
}, instancePath: string, keyword: string, params: Record<string, unknown>): false;
/** An issue is what a validator's `errors` list holds. */
type Issue = ReturnType<typeof issue>;
/**
 * `list` with `error` appended: a new list when there was none. ajv's code keeps `null` for
 * "no errors yet" and appends in place (ajv-output.ts writes these calls in its place).
 */
export declare function pushIssue(list: Issue[] | null, error: Issue): Issue[];
/** `list` followed by a called validator's `errors`: that very list when there was none. */
export declare function concatIssues(list: Issue[] | null, errors: Issue[]): Issue[];
/** `list` cut back to its first `count` errors, in place; `null` for none. */
export declare function truncateIssues(list: Issue[] | null, count: number): Issue[] | null;
/** String length in Unicode code points (JSON Schema's `minLength`/`maxLength` unit). */
export declare function ucs2length(text: string): number;
/** Deep equality of JSON values (`const`, `enum` and `uniqueItems` on non-primitive values). */
export declare function equal(a: unknown, b: unknown): boolean;
export {};
