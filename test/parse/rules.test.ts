import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../generator/paths.js";
import { RELEASES_DIR, SCHEMA_DIR, tempDir } from "../support/run.js";
import { SURFACES as VENDORED } from "../support/surfaces.js";
import { ANNOTATION_ROWS, type AnnotationCase, annotationCases } from "./annotation-table.js";
import { buildParsePackage } from "./support.js";
import { UNION_ROWS, type UnionCase, unionCases } from "./union-table.js";

/**
 * The parse rules, table-driven: one row per `x-deserialize-*` annotation and one per kind
 * of union, each applied to the targets it finds in the schema, on all four surfaces of
 * the vendored schema and of the 2.4.0 release (the first with default-on-null).
 * Both packages are generated once, here, for both tables.
 */
const SURFACES = VENDORED.map((s) => s.id);
const work = tempDir("parse-rules");
afterAll(() => work.remove());

const vendoredDir = join(work.path, "vendored");
const packages = {
  vendored: await buildParsePackage(SCHEMA_DIR, vendoredDir, { types: ["v1", "v2"] }),
  "2.4.0": await buildParsePackage(join(RELEASES_DIR, "2.4.0"), join(work.path, "2.4.0")),
};
const annotations: AnnotationCase[] = [];
const unions: UnionCase[] = [];
for (const [set, pkg] of Object.entries(packages)) {
  annotations.push(...(await annotationCases(set, pkg)));
  unions.push(...(await unionCases(set, pkg)));
}

describe("parse<Name> follows the schema's deserialization annotations", () => {
  it.each(annotations.map((c) => [`${c.set} ${c.surface}: ${c.rule} (${c.where})`, c] as const))(
    "%s",
    (_label, c) => c.run(),
  );

  it.each(ANNOTATION_ROWS.map((row) => [row.rule, row] as const))(
    "every surface that has the annotation has a case: %s",
    (_rule, row) => {
      for (const set of row.everywhere) {
        const covered = annotations.filter((c) => c.rule === row.rule && c.set === set);
        expect(covered.map((c) => c.surface).sort(), set).toEqual(SURFACES);
      }
    },
  );
});

describe("union narrowing helpers and tag dispatch", () => {
  it.each(unions.map((c) => [`${c.set} ${c.surface} ${c.def}: ${c.kind}`, c] as const))(
    "%s",
    (_label, c) => c.run(),
  );

  it.each(UNION_ROWS.map((row) => [row.kind, row] as const))(
    "every surface with such a union has a case: %s",
    (_kind, row) => {
      for (const [set, surfaces] of Object.entries(row.expected)) {
        const covered = unions.filter((c) => c.kind === row.kind && c.set === set);
        for (const surface of surfaces)
          expect(
            covered.map((c) => c.surface),
            set,
          ).toContain(surface);
      }
    },
  );

  it("the helpers' declarations narrow as documented (tsc, strict, lib es2020)", () => {
    const consumers: Record<string, string[]> = {
      "consumer-v1.ts": [
        // types.d.ts is where the functions of parsers.js are declared (the entry point reads it).
        'import { isContentBlockOf, isSessionUpdateOf, parseSessionNotification } from "./v1/types.js";',
        'import type { SessionNotification } from "./v1/types.js";',
        "declare const x: unknown;",
        'if (isSessionUpdateOf(x, "tool_call")) { const id: string = x.toolCallId; void id; }',
        'if (isContentBlockOf(x, "text")) { const text: string = x.text; void text; }',
        "// @ts-expect-error: not a tag of the closed union",
        'isSessionUpdateOf(x, "no_such_update");',
        "const n: SessionNotification = parseSessionNotification(x);",
        "void n;",
      ],
      "consumer-v2.ts": [
        'import { isContentBlockOf, isCustomContentBlock } from "./v2/types.js";',
        "declare const x: unknown;",
        'if (isContentBlockOf(x, "text")) { const text: string = x.text; void text; }',
        'if (isContentBlockOf(x, "_vendor_block")) { const tag: string = x.type; void tag; }',
        "if (isCustomContentBlock(x)) {",
        "  const tag: string = x.type;",
        "  // @ts-expect-error: a custom block is not a text block",
        "  const text: string = x.text;",
        "  void tag;",
        "  void text;",
        "}",
      ],
    };
    for (const [file, lines] of Object.entries(consumers))
      writeFileSync(join(vendoredDir, file), `${lines.join("\n")}\n`);
    const tsconfig = join(vendoredDir, "tsconfig.json");
    writeFileSync(
      tsconfig,
      JSON.stringify({
        compilerOptions: {
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          lib: ["es2020"],
          types: [],
          module: "nodenext",
          moduleResolution: "nodenext",
        },
        files: Object.keys(consumers),
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", tsconfig],
      { encoding: "utf8" },
    );
    expect(tsc.stdout).toBe("");
    expect(tsc.status).toBe(0);
  });
});
