/**
 * Which words can name something the package exports. A definition key that cannot is an
 * error rather than a silent rename (`Foo1`, `class_`): consumers import these names, so a
 * rename would break them without warning.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Words that cannot name a type alias or interface. */
const RESERVED = new Set([
  // ECMAScript reserved words and literals
  ...["break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete"],
  ...["do", "else", "enum", "export", "extends", "false", "finally", "for", "function", "if"],
  ...["import", "in", "instanceof", "new", "null", "return", "super", "switch", "this", "throw"],
  ...["true", "try", "typeof", "var", "void", "while", "with", "implements", "interface", "let"],
  ...["package", "private", "protected", "public", "static", "yield", "await"],
  // TypeScript's predefined type names
  ...["any", "unknown", "never", "object", "string", "number", "boolean", "symbol", "bigint"],
  "undefined",
]);

/** Why a definition key cannot be a TypeScript type name; undefined when it can. */
export function typeNameProblem(key: string): string | undefined {
  if (!IDENTIFIER.test(key))
    return `definition name ${JSON.stringify(key)} is not a valid TypeScript identifier`;
  if (Object.hasOwn(Object.prototype, key))
    return `definition name ${JSON.stringify(key)} is a member of Object.prototype`;
  if (RESERVED.has(key))
    return `definition name ${JSON.stringify(key)} is a reserved word in TypeScript`;
  return undefined;
}

/** Members every class (a function) already has, which a static member would shadow. */
const CLASS_MEMBERS = new Set([
  ...["name", "length", "prototype", "caller", "arguments", "constructor"],
  ...["apply", "bind", "call", "toString"],
]);

/**
 * Whether `name` can be a static member of a generated class (a `RequestError` helper): a
 * lower camelCase identifier that no class or function member already holds.
 */
export function isFreeStaticName(name: string): boolean {
  return (
    /^[a-z][A-Za-z0-9]*$/.test(name) &&
    !CLASS_MEMBERS.has(name) &&
    !Object.hasOwn(Object.prototype, name)
  );
}
