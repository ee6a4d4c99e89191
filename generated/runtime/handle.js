/** Kept off the handle's own properties, so a handle compares and prints like the result. */
const STATE = Symbol("acp-codegen.handle");
/**
 * The prototype of every handle one spec makes: one method per `spec.methods` entry, each
 * sending its request with the scope and id filled in, and `Symbol.asyncDispose` calling
 * `spec.dispose` where the platform has the symbol.
 */
export function handlePrototype(spec) {
    const proto = {};
    for (const [member, method] of Object.entries(spec.methods)) {
        proto[member] = function (extra, options) {
            const state = this[STATE];
            return state.request(method, { ...extra, ...state.params }, options);
        };
    }
    const asyncDispose = Symbol.asyncDispose;
    const dispose = spec.dispose === undefined ? undefined : proto[spec.dispose];
    if (typeof asyncDispose === "symbol" && dispose) {
        proto[asyncDispose] = async function () {
            await dispose.call(this);
        };
    }
    return Object.freeze(proto);
}
/**
 * A handle for what `result` names: the result's own properties, plus the methods of
 * `proto` acting on it (the creating request's scope params and the result's id filled in).
 */
export function makeHandle(proto, spec, request, createParams, result) {
    if (typeof result !== "object" || result === null)
        return result;
    const source = (typeof createParams === "object" && createParams !== null ? createParams : {});
    const params = {};
    for (const key of spec.scope)
        if (Object.hasOwn(source, key))
            params[key] = source[key];
    params[spec.id] = result[spec.id];
    const handle = Object.assign(Object.create(proto), result);
    Object.defineProperty(handle, STATE, { value: { request, params: Object.freeze(params) } });
    return handle;
}
