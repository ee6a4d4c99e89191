/**
 * The only place names are made. Every name in the generated package comes from here,
 * and a collision is an error rather than a silent `Foo1` rename: consumers import these
 * names, so a rename would break them without warning.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Words that cannot name a type alias or interface. */
const RESERVED = new Set([
  // ECMAScript reserved words and literals
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "import",
  "in",
  "instanceof",
  "new",
  "null",
  "return",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
  "implements",
  "interface",
  "let",
  "package",
  "private",
  "protected",
  "public",
  "static",
  "yield",
  "await",
  // TypeScript's predefined type names
  "any",
  "unknown",
  "never",
  "object",
  "string",
  "number",
  "boolean",
  "symbol",
  "bigint",
  "undefined",
]);

/** Names `connection.js` / `connection.d.ts` export, besides the generated method maps. */
export const CONNECTION_EXPORTS = [
  "Agent",
  "Client",
  "RemoteAgent",
  "RemoteClient",
  "AgentSideConnection",
  "ClientSideConnection",
  "ndJsonStream",
  "NdJsonStreamOptions",
  "RequestError",
  "ConnectionClosedError",
  "MessageStream",
  "ConnectionOptions",
  "ValidationOptions",
  "LogEvent",
  "RequestContext",
  "NotificationContext",
  "CallOptions",
  "LogReason",
  "MaybePromise",
  "ErrorObject",
  "JsonRpcId",
  "JsonRpcMessage",
  "MalformedFrame",
  "ParamsOf",
  "RemoteMethods",
  "ResultOf",
  "ReadableLike",
  "SignalLike",
  "WritableLike",
  "ErrorMessage",
  "NotificationMessage",
  "RequestMessage",
  "ResultMessage",
  "MalformedProblem",
  "StreamReader",
  "StreamWriter",
  "StreamReadResult",
  // Connection under load and faults (issue 13).
  "MessageEncodingError",
  "MessageTooLargeError",
  "CloseKind",
  "TraceEvent",
  "MalformedDetail",
  "MessageHead",
  "AsyncDisposableIfAvailable",
] as const;

/** Names the generated package exports itself, per namespace (types and values are separate in TS). */
export const PACKAGE_TYPE_NAMES = new Set<string>([
  "AgentRequestMap",
  "AgentNotificationMap",
  "ClientRequestMap",
  "ClientNotificationMap",
  "ProtocolRequestMap",
  "ProtocolNotificationMap",
  "ProxyRequestMap",
  "ProxyNotificationMap",
  "MethodSpec",
  "ValidationIssue",
  "ValidationResult",
  "ValidationError",
  ...CONNECTION_EXPORTS,
]);

export type NameProblem = string;

/** TypeScript name for a `$defs` key, or why there is none. */
export function typeName(key: string): { name: string } | { problem: NameProblem } {
  if (!IDENTIFIER.test(key))
    return {
      problem: `definition name ${JSON.stringify(key)} is not a valid TypeScript identifier`,
    };
  if (Object.hasOwn(Object.prototype, key))
    return { problem: `definition name ${JSON.stringify(key)} is a member of Object.prototype` };
  if (RESERVED.has(key))
    return { problem: `definition name ${JSON.stringify(key)} is a reserved word in TypeScript` };
  if (PACKAGE_TYPE_NAMES.has(key))
    return {
      problem: `definition name ${JSON.stringify(key)} collides with a name the generated package exports`,
    };
  return { name: key };
}

/** Prefixes of the per-definition functions every entry point exports. */
export const FUNCTION_PREFIXES = ["is", "validate", "assert", "parse"] as const;

/** Value names every entry point exports besides the per-definition functions. */
export const PACKAGE_VALUE_NAMES = new Set([
  "AGENT_METHODS",
  "CLIENT_METHODS",
  "PROTOCOL_METHODS",
  "PROXY_METHODS",
  "PROTOCOL_VERSION",
  "METHODS",
  "ValidationError",
  "RequestError",
  "ConnectionClosedError",
  "AgentSideConnection",
  "ClientSideConnection",
  "ndJsonStream",
]);

/**
 * A definition named like another one's function (`isFoo` beside `Foo`) or like a package
 * export would make two `export *` sources clash, and TypeScript then silently exports
 * neither. Returns the first clash, if any.
 */
export function findExportClash(
  typeNames: readonly string[],
): { name: string; clash: string } | undefined {
  const values = new Map<string, string>();
  for (const name of PACKAGE_VALUE_NAMES) values.set(name, "a name the generated package exports");
  for (const type of typeNames)
    for (const prefix of FUNCTION_PREFIXES)
      values.set(`${prefix}${type}`, `the ${prefix}${type} function of definition ${type}`);
  for (const name of typeNames) {
    const clash = values.get(name);
    if (clash) return { name, clash };
  }
  return undefined;
}

export const guardName = (type: string): string => `is${type}`;
export const validateName = (type: string): string => `validate${type}`;
export const validatorExportName = (type: string): string => `v${type}`;

/** `document/didOpen` → `document_did_open`; `$/cancel_request` → `cancel_request`. Reproduces meta.json keys. */
export function methodKey(wire: string): string {
  return wire
    .replace(/^\$\//, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
}

/** meta.json key → handler member name: `fs_read_text_file` → `fsReadTextFile`. */
export function handlerName(key: string): string {
  return key
    .replace(/_+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase())
    .replace(/^[^A-Za-z_$]+/, "_");
}
