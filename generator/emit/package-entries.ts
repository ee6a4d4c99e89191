import { type PackageEntry, reexportLines } from "../symbols/exports.js";
import type { Symbols } from "../symbols/table.js";
import { runtimeFrom } from "./context.js";
import { banner, type OutputFile } from "./output.js";

/**
 * The package's entry points shared by every surface, one `index.js` / `index.d.ts` each:
 * `PKG/node` (the runtime's Node helpers) and `PKG/remote` (its remote transport), the names
 * the symbol table lists, re-exported from the runtime. One for the whole package, since
 * they deal in message streams, not in any surface's methods.
 */
export function emitPackageEntries({ node, remote }: Symbols): OutputFile[] {
  return [node, remote].flatMap((entry) => emitEntry(entry));
}

function emitEntry(entry: PackageEntry): OutputFile[] {
  const runtime = runtimeFrom(entry.folder);
  const file = (declarations: boolean) =>
    [
      banner(`the runtime's ${entry.folder} modules`),
      ...reexportLines(entry.reexports, runtime, declarations),
      "",
    ].join("\n");
  return [
    { path: `${entry.folder}/index.js`, content: file(false) },
    { path: `${entry.folder}/index.d.ts`, content: file(true) },
  ];
}
