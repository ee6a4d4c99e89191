import { reexportLines } from "../symbols/exports.js";
import type { Symbols } from "../symbols/table.js";
import { runtimeFrom } from "./context.js";
import { banner, type OutputFile } from "./output.js";

/**
 * `node/index.js` / `node/index.d.ts`, the package's Node-only entry point (`PKG/node`):
 * the names the symbol table lists, re-exported from the runtime's `node.js`. One for the
 * whole package, since the helpers deal in message streams, not in any surface's methods.
 */
export function emitNodeEntry({ node }: Symbols): OutputFile[] {
  const runtime = runtimeFrom(node.entry.folder);
  const file = (declarations: boolean) =>
    [
      banner("the runtime's node.ts"),
      ...reexportLines(node.reexports, runtime, declarations),
      "",
    ].join("\n");
  return [
    { path: `${node.entry.folder}/index.js`, content: file(false) },
    { path: `${node.entry.folder}/index.d.ts`, content: file(true) },
  ];
}
