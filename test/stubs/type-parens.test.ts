import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript-5.9";
import { afterAll, describe, expect, it } from "vitest";
import { Diagnostics } from "../../generator/diagnostics.js";
import { emitContext } from "../../generator/emit/contexts.js";
import type { OutputFile } from "../../generator/emit/output.js";
import { emitRuntime } from "../../generator/emit/package.js";
import { type LoadedInput, loadSurfaces } from "../../generator/load/index.js";
import { surfaceOfFile } from "../../generator/load/layout.js";
import { buildModel } from "../../generator/model/build.js";
import { ROOT } from "../../generator/paths.js";
import { emitSurface } from "../../generator/pipeline.js";
import { buildSymbols } from "../../generator/symbols/table.js";
import { RELEASES_DIR, tempDir } from "../support/run.js";

/**
 * types.d.ts drops the parentheses json-schema-to-typescript puts around a union of object
 * types where they are the whole type of a property or alias (a `({` the parser reads twice,
 * see emit/types.ts), and only there: the types must mean what the schema says.
 */
const work = tempDir("type-parens");
afterAll(() => work.remove());

const object = (kind: string, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties: { kind: { type: "string", const: kind }, ...extra },
  required: ["kind", ...Object.keys(extra)],
  additionalProperties: false,
});
const union = { oneOf: [object("a"), object("b", { n: { type: "integer" } })] };
const PROBES = {
  ParenWhole: { type: "object", properties: { one: union }, required: ["one"] },
  ParenArray: { type: "object", properties: { many: { type: "array", items: union } } },
  ParenAlias: union,
  ParenNullable: {
    type: "object",
    properties: { maybe: { ...union, oneOf: [...union.oneOf, { type: "null" }] } },
  },
};

/** The package's files, with the probes added to the SDK 2.4.0 v1 schema. */
async function probePackage(): Promise<OutputFile[]> {
  const file = join(RELEASES_DIR, "2.4.0", "v1", "schema.json");
  const loaded = loadSurfaces([surfaceOfFile(file, file)], new Diagnostics());
  const surface = loaded.surfaces[0] as LoadedInput["surfaces"][number];
  surface.defs = { ...surface.defs, ...PROBES };
  const model = buildModel(loaded);
  const symbols = buildSymbols(model);
  const [built] = model.surfaces;
  if (!built) throw new Error("no surface");
  return [
    ...emitRuntime(),
    ...(await emitSurface(await emitContext(built, symbols.of(built), new Diagnostics()))),
  ];
}

describe("types.d.ts parentheses", { timeout: 60_000 }, () => {
  it("no object type is parsed twice, and the types keep their meaning", async () => {
    const files = await probePackage();
    const types = files.find((f) => f.path === "v1/types.d.ts")?.content ?? "";
    // What tsc counts (its doc-comment mode) against the identifiers the tree holds: a
    // speculative parse of `({ … })` as parameters counts the object's identifiers once more.
    // An array of the union keeps its parentheses, and its cost.
    const parse = (text: string) =>
      ts.createSourceFile(
        "probe.d.ts",
        text,
        {
          languageVersion: ts.ScriptTarget.ES2022,
          jsDocParsingMode: ts.JSDocParsingMode.ParseForTypeErrors,
        },
        true,
        ts.ScriptKind.TS,
      );
    const probes = parse(types).statements.filter(
      (s) =>
        (ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s)) &&
        /^Paren(Whole|Alias|Nullable)$/.test(s.name.text),
    );
    expect(probes).toHaveLength(3);
    for (const statement of probes) {
      const alone = parse(statement.getFullText());
      let inTree = 0;
      const visit = (node: ts.Node): void => {
        if (ts.isIdentifier(node)) inTree++;
        ts.forEachChild(node, visit);
      };
      visit(alone);
      const counted = (alone as unknown as { identifierCount: number }).identifierCount;
      expect(counted, statement.getText()).toBe(inTree);
    }

    const dir = work.path;
    for (const file of files) {
      mkdirSync(dirname(join(dir, file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), file.content);
    }
    writeFileSync(
      join(dir, "cases.ts"),
      `import type { ParenAlias, ParenArray, ParenNullable, ParenWhole } from "./v1/types.js";
export const whole: ParenWhole = { one: { kind: "b", n: 1 } };
export const many: ParenArray = { many: [{ kind: "a" }, { kind: "b", n: 2 }] };
// @ts-expect-error an array of the union, not one member
export const notMany: ParenArray = { many: { kind: "a" } };
export const alias: ParenAlias[] = [{ kind: "a" }, { kind: "b", n: 3 }];
// @ts-expect-error b needs n
export const missing: ParenAlias = { kind: "b" };
export const none: ParenNullable = { maybe: null };
// @ts-expect-error not a member
export const other: ParenWhole = { one: { kind: "c" } };
`,
    );
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ["cases.ts"],
      }),
    );
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    const result = spawnSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], {
      encoding: "utf8",
    });
    expect(result.stdout).toBe("");
    expect(result.status).toBe(0);
  });
});
