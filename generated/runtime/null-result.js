/**
 * The result of a request that early releases give no response definition (the
 * generator's NULL RESULT rule: `authenticate`, `session/load`, `fs/write_text_file` before
 * protocol 0.3): JSON `null`, as those releases' own SDK sent it. The generated method
 * tables use these two in place of a definition's validator and parser.
 */
/** What we send must be `null`: a handler that returns nothing (`undefined`) sends `null`. */
export function validateNullResult(value) {
    const valid = value === null;
    validateNullResult.errors = valid ? null : MUST_BE_NULL;
    return valid;
}
validateNullResult.errors = null;
const MUST_BE_NULL = Object.freeze([
    Object.freeze({ instancePath: "", message: "must be null", keyword: "type" }),
]);
/**
 * What we receive carries nothing to read, whatever a peer puts there: a peer built from a
 * later schema answers the same request with an empty object (`AuthenticateResponse`),
 * which means the same. The call resolves with `null`, which is what its type says.
 */
export function parseNullResult(_value) {
    return null;
}
