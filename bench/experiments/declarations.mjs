#!/usr/bin/env node
// Experiment, not part of `npm run bench`: what a consumer's compiler spends on the stable entry
// point's declarations, and what each way of writing them costs.
//
// Copies a generated package, rewrites its v1 declaration files into an alternative shape, and
// counts what `tsc --extendedDiagnostics` reports for the benchmark's strict consumer
// (bench/lib/consumer.mjs: `skipLibCheck: false`, ClientSideConnection, ndJsonStream, a guard,
// two types) against each copy: identifiers, symbols, types and instantiations over an empty
// project, with TypeScript 5.9 and 7. The counts are deterministic; the SDK's share (same
// consumer, its own API) is printed beside them. Each variant undoes one choice the generator
// makes today, so its row shows what that choice is worth:
//   A  as generated: the functions of guards.js and parsers.js declared in types.d.ts, beside
//      the types, as constants of the shared signatures
//   H  those declarations in guards.d.ts / parsers.d.ts, naming the types through `T.<Name>`
//      (the shape before), which the entry point re-exports
//   B  functions as function declarations, each with its doc comment (the earlier shape)
//   C  like B for is/assert/parse, without doc comments; validate<Name> stays a constant
//   D  union helpers as generic functions whose predicate is an Extract over the union
//   E  union helpers as generic functions over a mapped type of the variants
//   F  open objects (`_meta`) written out at each use instead of one local alias
//   G  B + D + F: close to the shape before the shared signatures
//
//   node bench/experiments/declarations.mjs [--pkg DIR] [--only A,B] [--time] [--rounds N] [--by-file]
// --pkg: a package generated from test/fixtures/releases/2.4.0 (else one is generated).
// --time: also the warm TypeScript 5.9 API time of each variant (noisy on a shared machine).
// --by-file: which declaration file the TypeScript 5.9 counts of variant A come from.

import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import {
  benchTypeCheckApi,
  COUNTS,
  countTypeCheck,
  makeStrictConsumerProject,
} from "../lib/consumer.mjs";
import { CLI, REPO, SDK_SCHEMA_DIR } from "../lib/paths.mjs";
import { runNode } from "../lib/proc.mjs";
import { formatMs, formatRatio } from "../lib/stats.mjs";

const { values: args } = parseArgs({
  options: {
    pkg: { type: "string" },
    only: { type: "string" },
    time: { type: "boolean", default: false },
    "by-file": { type: "boolean", default: false },
    rounds: { type: "string", default: "15" },
  },
});
const tmp = mkdtempSync(join(tmpdir(), "acp-dts-exp-"));
let pkg = args.pkg;
if (!pkg) {
  pkg = join(tmp, "generated");
  const r = runNode(
    [CLI, "generate", "--schema-dir", SDK_SCHEMA_DIR, "--out", pkg, "--name", "acp-bench"],
    { cwd: REPO },
  );
  if (r.status !== 0) throw new Error(r.stderr);
}

/**
 * Per v1 file, its new text from its generated text; `original` reads another v1 file as
 * generated (a file the package lacks reads as empty).
 * @typedef {Record<string, (text: string, original: (file: string) => string) => string>} Edits
 */

/** `export declare const a: X<T.N>;` (or a list) → one `{ name, signature, type }` per declarator. */
const declarators = (/** @type {string} */ line) =>
  [...line.matchAll(/(\w+): (\w+)<([^,]+?)>(?=,|;)/g)].map((m) => ({
    name: /** @type {string} */ (m[1]),
    signature: /** @type {string} */ (m[2]),
    type: /** @type {string} */ (m[3]),
  }));

/**
 * types.d.ts with the per-definition functions as function declarations. With
 * `docs`, each gets the doc comment the generator used to write; `keep` names the signatures
 * that stay constants.
 * @param {{ docs: boolean, keep?: string[] }} options
 */
function functionDeclarations({ docs, keep = [] }) {
  /** @type {Record<string, (name: string, type: string) => string[]>} */
  const forms = {
    Guard: (n, t) => [
      `/** Strict check against the schema's \`${t}\` definition. */`,
      `export declare function ${n}(value: unknown): value is ${t};`,
    ],
    Validate: (n, t) => [
      `/** Like \`is${t}\`, returning the issues (instance path and message) when invalid. */`,
      `export declare function ${n}(value: unknown): ValidationResult<${t}>;`,
    ],
    Assert: (n, t) => [
      `/** Returns the value typed as \`${t}\`, or throws a \`ValidationError\` listing the issues. */`,
      `export declare function ${n}(value: unknown): ${t};`,
    ],
    Parse: (n, t) => [
      `/** Reads a \`${t}\` leniently, applying the schema's \`x-deserialize-*\` annotations and defaults as the reference implementation does. Returns the result (the input is never changed) or throws a \`ValidationError\`. */`,
      `export declare function ${n}(value: unknown): ${t};`,
    ],
  };
  return (/** @type {string} */ text) =>
    withSignatureImports(
      text
        .split("\n")
        .flatMap((line) => {
          if (!line.startsWith("export declare const ")) return [line];
          const all = declarators(line);
          if (all.length === 0 || !all.every((d) => forms[d.signature])) return [line];
          return all.flatMap((d) => {
            const form = forms[d.signature];
            if (keep.includes(d.signature) || !form)
              return [`export declare const ${d.name}: ${d.signature}<${d.type}>;`];
            const [doc, declaration] = form(d.name, d.type);
            return docs ? [doc, declaration] : [declaration];
          });
        })
        .join("\n"),
    );
}

const SIGNATURES = ["Assert", "CustomGuard", "Guard", "OpenParse", "OpenVariantGuard", "Parse"];
SIGNATURES.push("UntaggedGuard", "Validate", "VariantGuard");

/** The file's import of the runtime's signatures, for the ones it still uses (and ValidationResult). */
function withSignatureImports(/** @type {string} */ edited) {
  // Another edit of the same file may have added the ValidationResult import already.
  const text = edited.replace(/^import type \{ ValidationResult \} from "[^"]*";\n/m, "");
  return text.replace(/^import type \{ [^}]* \} from "(\.\.\/[^"]*)signatures\.js";$/m, (_, up) => {
    const used = SIGNATURES.filter((n) => new RegExp(`: ${n}<`).test(text));
    const lines = used.length
      ? [`import type { ${used.join(", ")} } from "${up}signatures.js";`]
      : [];
    if (text.includes("ValidationResult<"))
      lines.push(`import type { ValidationResult } from "${up}validation.js";`);
    return lines.join("\n");
  });
}

/** The predicate the generator used to write for a union helper, from the signature's arguments. */
function unionHelpers(/** @type {"extract" | "mapped"} */ style) {
  return (/** @type {string} */ text) =>
    withSignatureImports(
      text
        .replace(
          /^export declare const (\w+): (VariantGuard|OpenVariantGuard|CustomGuard)<(\w+), ("[^"]+"), ([^>]+)>;$/gm,
          (_, name, signature, union, tag, known) => {
            const variant =
              style === "extract"
                ? `Extract<${union}, { [P in ${tag}]: K }>`
                : `{ [V in ${known}]: Extract<${union}, { [P in ${tag}]: V }> }[K]`;
            const other = `Exclude<Extract<${union}, { [P in ${tag}]: string }>, { [P in ${tag}]: ${known} }>`;
            if (signature === "VariantGuard")
              return `export declare function ${name}<K extends ${known}>(value: unknown, tag: K): value is ${variant};`;
            if (signature === "OpenVariantGuard")
              return `export declare function ${name}<K extends string>(value: unknown, tag: K): value is K extends ${known} ? ${variant} : ${other};`;
            return `export declare function ${name}(value: unknown): value is ${other};`;
          },
        )
        .replace(
          /^export declare const (\w+): UntaggedGuard<(\w+), ("[^"]+")>;$/gm,
          (_, name, union, tag) =>
            `export declare function ${name}(value: unknown): value is Exclude<${union}, { [P in ${tag}]: string }>;`,
        ),
    );
}

/** The signatures that declare guards.js's functions; the others are parsers.js's. */
const GUARD_SIGNATURES = ["Assert", "Guard", "Validate"];
/** A function's declaration in types.d.ts, with the doc comment line before it, if any. */
const FUNCTION =
  /^(?:(\/\*\*.*\*\/)\n)?export declare const (\w+): (\w+)<(\w+)((?:, [^\n]*)?)>;$/gm;

/**
 * The shape before: guards.d.ts and parsers.d.ts declare their functions and name the types
 * through `import type * as T`; types.d.ts holds types only; the entry point reads all three.
 * @param {"guards" | "parsers" | "types" | "index"} file
 */
function functionsApart(file) {
  return (/** @type {string} */ text, /** @type {(file: string) => string} */ original) => {
    if (file === "index")
      return text.replace(
        'export * from "./methods.js";\n',
        'export * from "./methods.js";\nexport * from "./guards.js";\nexport * from "./parsers.js";\n',
      );
    const types = original("types.d.ts");
    const imports =
      /^import type \{ [^}]* \} from "([^"]*)signatures\.js";\n(import type \* as \w+ from "\.\/received\.js";\n)?/m.exec(
        types,
      );
    if (!imports) throw new Error("types.d.ts: no signature imports");
    if (file === "types")
      return text
        .replace(imports[0], "")
        .replace(FUNCTION, "")
        .replace(/\n{3,}/g, "\n\n");
    const own = [...types.matchAll(FUNCTION)].filter(
      (m) => GUARD_SIGNATURES.includes(/** @type {string} */ (m[3])) === (file === "guards"),
    );
    const used = [...new Set(own.map((m) => /** @type {string} */ (m[3])))].sort();
    return [
      types.slice(0, types.indexOf("\n") + 1),
      `import type { ${used.join(", ")} } from "${imports[1]}signatures.js";`,
      'import type * as T from "./types.js";',
      ...(file === "parsers" && imports[2] ? [imports[2].trimEnd()] : []),
      "",
      ...own.map(
        (m) => `${m[1] ? `${m[1]}\n` : ""}export declare const ${m[2]}: ${m[3]}<T.${m[4]}${m[5]}>;`,
      ),
      "",
    ].join("\n");
  };
}

/** types.d.ts with the shared open-object alias written out at every use again. */
function openObjectsInline(/** @type {string} */ text) {
  const alias =
    /\/\*\*\n \* A JSON object with members[\s\S]*?\*\/\ntype (\w+) = (\{\n[^}]*\})\n/.exec(text);
  if (!alias) return text;
  const [whole, name, literal] = /** @type {[string, string, string]} */ (
    /** @type {unknown} */ (alias)
  );
  return text.replace(whole, "").replace(new RegExp(`\\b${name}\\b`, "g"), literal);
}

/** @param {...Edits} parts */
const merge = (...parts) => {
  /** @type {Edits} */
  const out = {};
  for (const part of parts)
    for (const [file, edit] of Object.entries(part)) {
      const before = out[file];
      out[file] = before ? (t, original) => edit(before(t, original), original) : edit;
    }
  return out;
};
const B = { "types.d.ts": functionDeclarations({ docs: true }) };
const D = { "types.d.ts": unionHelpers("extract") };
const F = { "types.d.ts": openObjectsInline };

/** @type {{ id: string, label: string, edit: Edits }[]} */
const VARIANTS = [
  { id: "A", label: "as generated", edit: {} },
  {
    id: "H",
    label: "functions in guards.d.ts / parsers.d.ts, types through `T.<Name>`",
    edit: {
      "guards.d.ts": functionsApart("guards"),
      "parsers.d.ts": functionsApart("parsers"),
      "types.d.ts": functionsApart("types"),
      "index.d.ts": functionsApart("index"),
    },
  },
  { id: "B", label: "function declarations, each documented", edit: B },
  {
    id: "C",
    label: "function declarations for is/assert/parse, undocumented; validate a constant",
    edit: { "types.d.ts": functionDeclarations({ docs: false, keep: ["Validate"] }) },
  },
  { id: "D", label: "union helpers: generic functions, Extract over the union", edit: D },
  {
    id: "E",
    label: "union helpers: generic functions over a mapped type",
    edit: { "types.d.ts": unionHelpers("mapped") },
  },
  { id: "F", label: "open objects written out at each use", edit: F },
  { id: "G", label: "B + D + F", edit: merge(B, D, F) },
].filter((v) => !args.only || args.only.split(",").includes(v.id));

const rows = [];
for (const v of VARIANTS) {
  const copy = join(tmp, v.id, "package");
  cpSync(pkg, copy, { recursive: true });
  const original = (/** @type {string} */ file) => {
    const path = join(pkg, "v1", file);
    return existsSync(path) ? readFileSync(path, "utf8") : "";
  };
  for (const [file, edit] of Object.entries(v.edit))
    writeFileSync(join(copy, "v1", file), edit(original(file), original));
  const consumerDir = makeStrictConsumerProject(join(tmp, v.id), copy);
  const counts = countTypeCheck({ consumerDir, log: () => {} });
  const singleChecker = countTypeCheck({ consumerDir, log: () => {}, checkers: 1 });
  for (const c of [...counts, ...singleChecker])
    if (Object.keys(c.errors).length)
      throw new Error(`${v.id} (${c.compiler}): ${JSON.stringify(c.errors)}`);
  const time = args.time
    ? benchTypeCheckApi({ consumerDir, rounds: Number(args.rounds), log: () => {} })
    : undefined;
  rows.push({ ...v, counts, singleChecker, time, consumerDir });
  process.stderr.write(`${v.id} done\n`);
}

/** @param {Record<string, number>} c */
const cells = (c) => COUNTS.map((k) => (c[k] ?? Number.NaN).toLocaleString("en-US")).join(" / ");
const compilers = rows[0]?.counts.map((c) => c.compiler) ?? [];
const lines = [
  "The strict consumer's share over an empty project: identifiers / symbols / types / instantiations",
  `(TypeScript 7 with its default checkers; "1 checker" is \`--checkers 1\`, one checker for all files).`,
  "",
  `| variant | ${compilers.join(" | ")} | TypeScript 7, 1 checker |${args.time ? " TS 5.9 API, warm (CPU) |" : ""}`,
  `|---|${compilers.map(() => "---|").join("")}---|${args.time ? "---|" : ""}`,
  ...rows.map((r) => {
    const time = r.time ? ` ${formatMs(r.time.ms.ours - r.time.ms.baseline)} |` : "";
    return `| ${r.id}: ${r.label} | ${r.counts.map((c) => cells(c.ours)).join(" | ")} | ${cells(r.singleChecker.at(-1)?.ours ?? {})} |${time}`;
  }),
];
const first = rows[0];
if (first) {
  const time = first.time ? ` ${formatMs(first.time.ms.sdk - first.time.ms.baseline)} |` : "";
  lines.push(
    `| the SDK (same consumer, its own API) | ${first.counts.map((c) => cells(c.sdk)).join(" | ")} | ${cells(first.singleChecker.at(-1)?.sdk ?? {})} |${time}`,
    "",
    `SDK ÷ ours for A: ${first.counts
      .map(
        (c) =>
          `${c.compiler} ${COUNTS.map((k) => formatRatio((c.sdk[k] ?? 0) / (c.ours[k] ?? 0))).join(" / ")}`,
      )
      .join("; ")}`,
  );
}
if (args["by-file"] && first) lines.push("", ...byFile(first.consumerDir));
process.stdout.write(`${lines.join("\n")}\n`);
rmSync(tmp, { recursive: true, force: true });

/**
 * Which file of the package the TypeScript 5.9 counts come from: the standard library is checked
 * first, then each file in program order, and the checker's counters are read between files.
 * Types and instantiations are charged to the file whose check created them, which may be a
 * later file than the one declaring the type. Identifiers and symbols are the parser's and
 * binder's per file (the checker's own symbols are charged like types).
 * @param {string} consumerDir
 */
function byFile(consumerDir) {
  const require = createRequire(import.meta.url);
  /** @type {typeof import("typescript-5.9")} */
  const ts = require(join(REPO, "node_modules", "typescript-5.9", "lib", "typescript.js"));
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(consumerDir, "tsconfig.ours.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!parsed) throw new Error("cannot read the consumer's tsconfig");
  const host = ts.createCompilerHost(parsed.options);
  // What the tsc command line does: doc comments are read only where they can matter.
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host });
  // Internal counters (what --extendedDiagnostics prints), not in the public typings.
  const checker =
    /** @type {{ getSymbolCount(): number, getTypeCount(): number, getInstantiationCount(): number }} */ (
      /** @type {unknown} */ (program.getTypeChecker())
    );
  const isLib = (/** @type {import("typescript-5.9").SourceFile} */ f) =>
    program.isSourceFileDefaultLibrary(f);
  program.getGlobalDiagnostics();
  for (const file of program.getSourceFiles())
    if (isLib(file)) program.getSemanticDiagnostics(file);
  const counters = () => [
    checker.getSymbolCount(),
    checker.getTypeCount(),
    checker.getInstantiationCount(),
  ];
  let last = counters();
  const out = [
    "Variant A, TypeScript 5.9, by file: identifiers / symbols (binder + checker) / types / instantiations",
    "",
    "| file | identifiers | symbols | types | instantiations |",
    "|---|---|---|---|---|",
  ];
  for (const file of program.getSourceFiles()) {
    if (isLib(file)) continue;
    program.getSemanticDiagnostics(file);
    const now = counters();
    const { identifierCount, symbolCount } =
      /** @type {{ identifierCount: number, symbolCount: number }} */ (
        /** @type {unknown} */ (file)
      );
    const delta = now.map((n, i) => n - (last[i] ?? 0));
    last = now;
    out.push(
      `| ${relative(consumerDir, file.fileName).replace(/^(\.\.\/)+/, "")} | ${identifierCount} | ${symbolCount + (delta[0] ?? 0)} | ${delta[1]} | ${delta[2]} |`,
    );
  }
  return out;
}
