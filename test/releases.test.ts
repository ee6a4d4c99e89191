import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Diagnostics } from "../generator/diagnostics.js";
import { loadSchemaDir } from "../generator/load/index.js";
import { buildModel } from "../generator/model/build.js";
import type { CapabilityGate as ModelGate } from "../generator/model/protocol.js";
import { readTree } from "../generator/output/write.js";
import { PACKAGE_ENTRIES } from "../generator/symbols/exports.js";
import type { CapabilityGate } from "../templates/runtime/negotiation.js";
import {
  type CliRun,
  cli,
  heldReleases,
  importSurface,
  tempDir,
  typeCheckDeclarations,
} from "./support/run.js";

/**
 * Every real schema release we hold: the vendored one, the shared history, the SDK's npm
 * releases and the older eras (the first npm package, upstream tags with gaps).
 */
const RELEASES = heldReleases({ eras: true });

const work = tempDir("releases");
afterAll(() => work.remove());

/**
 * One generate per release, made by whichever test needs it first (its own test, or the
 * joint type-check), so each test holds up on its own and in any order.
 */
const generations = new Map<string, Promise<{ out: string; run: CliRun }>>();
function generated(label: string, dir: string): Promise<{ out: string; run: CliRun }> {
  let pending = generations.get(label);
  if (!pending) {
    const out = join(work.path, label.replace(/\W+/g, "-"));
    pending = cli("generate", "--schema-dir", dir, "--out", out, "--quiet").then((run) => ({
      out,
      run,
    }));
    generations.set(label, pending);
  }
  return pending;
}

/** One gate as text: who declares what, and which method or variant it gates. */
const gateKey = (side: string, path: readonly string[], method: string, variant?: string) =>
  `${side} ${path.join(".")} ${method}${variant === undefined ? "" : ` ${variant}`}`;
const modelGateKey = (g: ModelGate) => gateKey(g.side, g.path, g.method.method, g.content?.value);

const errors = (run: CliRun) => run.stderr.filter((l) => !l.startsWith("warning:"));

describe("every released schema", () => {
  it.each(RELEASES)(
    "%s generates, and every entry point imports and validates",
    async (label, dir) => {
      const { out, run } = await generated(label, dir);
      expect(errors(run)).toEqual([]);
      expect(run.code).toBe(0);
      const model = buildModel(loadSchemaDir(dir, dir, new Diagnostics()));
      const pkg = JSON.parse(readTree(out).get("package.json") ?? "{}") as {
        exports: Record<string, { default: string }>;
      };
      for (const [entry, target] of Object.entries(pkg.exports)) {
        // Not a surface: the Node helpers and the remote transport (their own tests cover them).
        if (entry === "./package.json" || PACKAGE_ENTRIES.some((e) => e.subpath === entry))
          continue;
        const surface = target.default.slice(2, -"/index.js".length);
        const mod = await importSurface(out, surface);
        expect(typeof mod.isContentBlock, `${label} ${entry}`).toBe("function");
        expect((mod.isContentBlock as (v: unknown) => boolean)({ type: "text", text: "x" })).toBe(
          true,
        );
        expect((mod.isContentBlock as (v: unknown) => boolean)({ type: "text" })).toBe(false);
        // The capability model (held to the schema by test/model/capabilities.test.ts), as shipped.
        const gates = (mod.CAPABILITY_GATES as CapabilityGate[]).map((g) =>
          gateKey(g.side, g.capability, g.method, g.content?.value),
        );
        const modelledSurface = model.surfaces.find((s) => s.id === surface);
        const modelled = modelledSurface?.negotiation?.gates ?? [];
        expect(gates.sort(), `${label} ${entry}`).toEqual(modelled.map(modelGateKey).sort());
        // A release with methods gates some of them and ships the helpers that declare
        // capabilities from handlers; the oldest tags have types only, so neither.
        const hasMethods = (modelledSurface?.methods.length ?? 0) > 0;
        expect(gates.length > 0, `${label} ${entry}`).toBe(hasMethods);
        expect(typeof mod.agentCapabilities, `${label} ${entry}`).toBe(
          hasMethods ? "function" : "undefined",
        );
        expect(typeof mod.clientCapabilities, `${label} ${entry}`).toBe(
          hasMethods ? "function" : "undefined",
        );
      }
    },
  );

  it("all generated declarations type-check together under strict, skipLibCheck false", async () => {
    const outputs: string[] = [];
    for (const [label, dir] of RELEASES) {
      const { out, run } = await generated(label, dir);
      expect(errors(run), label).toEqual([]);
      outputs.push(out);
    }
    const tsc = typeCheckDeclarations(work.path, outputs);
    expect(tsc.output).toBe("");
    expect(tsc.status).toBe(0);
  });
});
