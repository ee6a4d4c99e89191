/**
 * Numeric formats of the ACP schema, enforced as real range checks. The generator hands
 * this same object to ajv when it compiles the validators, and the generated validators
 * import it from here, so the two can never disagree.
 */
export interface NumberFormat {
    readonly type: "number";
    readonly validate: (value: number) => boolean;
}
export declare const formats: Readonly<Record<string, NumberFormat>>;
