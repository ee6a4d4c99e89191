/**
 * The helpers ajv's generated code calls out to. ajv's standalone output would `require()`
 * the first two from the ajv package; the generator rewires those calls to this module so
 * the generated package is pure ESM with no runtime dependency. `issue` builds the error
 * objects ajv writes out literally at each check (generator/emit/ajv-output.ts).
 */
/** An error a validator reports: what validation.ts's `issuesOf` reads. */
export declare function issue(instancePath: string, keyword: string, params: Record<string, unknown>): {
    instancePath: string;
    keyword: string;
    params: Record<string, unknown>;
};
/** String length in Unicode code points (JSON Schema's `minLength`/`maxLength` unit). */
export declare function ucs2length(text: string): number;
/** Deep equality of JSON values (`const`, `enum` and `uniqueItems` on non-primitive values). */
export declare function equal(a: unknown, b: unknown): boolean;
