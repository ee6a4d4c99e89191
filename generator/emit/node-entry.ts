/**
 * The package's Node-only entry point, `PKG/node`: the runtime's `node.js` (serve on this
 * process's stdio, spawn an agent, Node streams without the web adapters). One for every
 * surface, since it deals in message streams, not in any surface's methods; kept apart so
 * every other entry point stays web-platform only.
 */
export const NODE_ENTRY = {
  subpath: "./node",
  types: "./runtime/node.d.ts",
  default: "./runtime/node.js",
} as const;

/** Its `exports` condition map (types first, as for the surfaces). */
export function nodeExport(): Record<string, { types: string; default: string }> {
  return { [NODE_ENTRY.subpath]: { types: NODE_ENTRY.types, default: NODE_ENTRY.default } };
}

/** Its `typesVersions` path, for TypeScript's node10 resolution, which ignores `exports`. */
export function nodeTypesVersion(): Record<string, string[]> {
  return { [NODE_ENTRY.subpath.slice(2)]: [NODE_ENTRY.types.slice(2)] };
}
