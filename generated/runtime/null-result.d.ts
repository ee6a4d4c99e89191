/**
 * The result of a request that early releases give no response definition (the
 * generator's NULL RESULT rule: `authenticate`, `session/load`, `fs/write_text_file` before
 * protocol 0.3): JSON `null`, as those releases' own SDK sent it. The generated method
 * tables use these two in place of a definition's validator and parser.
 */
/** What we send must be `null`: a handler that returns nothing (`undefined`) sends `null`. */
export declare function validateNullResult(value: unknown): boolean;
export declare namespace validateNullResult {
    var errors: readonly {
        instancePath: string;
        keyword: string;
        params?: Record<string, unknown>;
    }[] | null | undefined;
}
/**
 * What we receive carries nothing to read, whatever a peer puts there: a peer built from a
 * later schema answers the same request with an empty object (`AuthenticateResponse`),
 * which means the same. The call resolves with `null`, which is what its type says.
 */
export declare function parseNullResult(_value: unknown): null;
