#!/usr/bin/env node
// Experiment, not part of `npm run bench`: what the TypeScript 5.9 parser spends on the
// function constants of the stable types.d.ts, written one statement per constant (the shape
// before) or joined into statements (ts-declarations.ts `joinConstantDeclarations`).
//
// Reads the package's v1/types.d.ts, takes every constant declarator the parser finds, and
// times `createSourceFile` (tsc's `jsDocParsingMode`, no parent pointers) on: the constants
// alone, one statement each; the constants alone, as one statement; the whole file as
// generated; the whole file with every constant a statement of its own. Warm: the mean of
// --rounds parses after as many unmeasured ones.
//
//   node bench/experiments/constant-statements.mjs [--pkg DIR] [--rounds N]
// --pkg: a package generated from test/fixtures/releases/2.4.0 (else one is generated).

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CLI, REPO, SDK_SCHEMA_DIR } from "../lib/paths.mjs";
import { runNode } from "../lib/proc.mjs";

const { values: args } = parseArgs({
  options: { pkg: { type: "string" }, rounds: { type: "string", default: "80" } },
});
/** @type {typeof import("typescript-5.9")} */
const ts = createRequire(import.meta.url)(
  join(REPO, "node_modules", "typescript-5.9", "lib", "typescript.js"),
);
const OPTIONS = {
  languageVersion: ts.ScriptTarget.ES2022,
  jsDocParsingMode: ts.JSDocParsingMode.ParseForTypeErrors,
};
const rounds = Number(args.rounds);

/** @param {string} text */
function meanParseMs(text) {
  for (let i = 0; i < rounds; i++) ts.createSourceFile("types.d.ts", text, OPTIONS, false);
  const start = performance.now();
  for (let i = 0; i < rounds; i++) ts.createSourceFile("types.d.ts", text, OPTIONS, false);
  return (performance.now() - start) / rounds;
}

const tmp = mkdtempSync(join(tmpdir(), "acp-constants-exp-"));
try {
  let pkg = args.pkg;
  if (!pkg) {
    pkg = join(tmp, "generated");
    const r = runNode(
      [CLI, "generate", "--schema-dir", SDK_SCHEMA_DIR, "--out", pkg, "--name", "acp-bench"],
      { cwd: REPO },
    );
    if (r.status !== 0) throw new Error(r.stderr);
  }
  const text = readFileSync(join(pkg, "v1", "types.d.ts"), "utf8");
  const file = ts.createSourceFile("types.d.ts", text, OPTIONS, true);
  const statements = file.statements.filter(ts.isVariableStatement);
  const declarators = statements.flatMap((s) =>
    s.declarationList.declarations.map((d) => d.getText(file)),
  );
  // The whole file with each joined statement written back as one statement per declarator.
  let split = text;
  for (const s of [...statements].reverse()) {
    const one = s.declarationList.declarations
      .map((d) => `export declare const ${d.getText(file)};`)
      .join("\n");
    split = split.slice(0, s.getStart(file)) + one + split.slice(s.getEnd());
  }
  /** @type {Array<[string, string]>} */
  const rows = [
    [
      "constants alone, one statement each",
      declarators.map((d) => `export declare const ${d};`).join("\n"),
    ],
    ["constants alone, one statement", `export declare const ${declarators.join(",\n  ")};`],
    ["types.d.ts as generated", text],
    ["types.d.ts, one statement per constant", split],
  ];
  console.log(
    `${declarators.length} constants in ${statements.length} statements; TypeScript ${ts.version}, mean of ${rounds} parses`,
  );
  for (const [label, source] of rows)
    console.log(
      `  ${label.padEnd(42)} ${String(source.length).padStart(7)} chars  ${meanParseMs(source).toFixed(2)} ms`,
    );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
