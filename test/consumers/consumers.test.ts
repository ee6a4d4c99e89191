import { cpSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../generator/paths.js";
import { cli, SCHEMA_DIR, tempDir } from "../support/run.js";
import {
  COMPILERS,
  type ConsumerFile,
  compilerOptions,
  createProject,
  fixture,
  installTarball,
  type Outcome,
  type Project,
  RESOLUTIONS,
  runMatrix,
  SETTINGS,
  type Setting,
  type Shape,
  type Subject,
  settingId,
} from "./support/matrix.js";
import { readmeExamples, unrelatedDefinitions } from "./support/package.js";
import { exec } from "./support/run.js";

/**
 * The generated package as its consumers meet it: packed once, installed once per project
 * shape (Node, browser), then type-checked under every supported compiler and module
 * setting, run under Node (as ES module and through require), linted as a package, and
 * bundled. Everything shares the one tarball, so the suite costs one generate and one pack.
 *
 * On the other Node.js releases `npm test` runs (`ACP_TEST_SET=package`, tools/test/run.mjs)
 * only what runs the package is repeated: the compilers' matrix and the tarball's lint say
 * the same whichever Node.js runs them, so they run once, on the suite's own.
 */
const STATIC_CHECKS = process.env.ACP_TEST_SET !== "package";

/** A describe block of those checks: declared on the suite's own Node.js only, not skipped. */
function describeStatic(name: string, options: { timeout?: number }, body: () => void): void {
  if (STATIC_CHECKS) describe(name, options, body);
}

const NAME = "@acp-codegen-test/protocol";
const work = tempDir("consumers");
let tarball = "";
/** Names the packed root entry point exports at run time. */
let exported = new Set<string>();
let projects: Record<Shape, Project>;
let matrix: Promise<Outcome[]>;
let attw: Promise<{ code: number; stdout: string; stderr: string }>;
let attwReport = "";

/** Our consumers: the ES module and CommonJS fixtures, the README's examples and an in-memory agent and client. */
const ours: Subject = {
  id: "ours",
  name: NAME,
  async install(dir) {
    await installTarball(dir, tarball);
    // `serve`'s WebSocket support, as a user who serves installs it: an optional peer
    // dependency, copied (no network) for the README's remote agent.
    cpSync(join(ROOT, "node_modules", "ws"), join(dir, "node_modules", "ws"), { recursive: true });
  },
  async consumers(dir, shape) {
    const files: ConsumerFile[] = [fixture("esm.ts.txt", NAME, "consumer.ts")];
    if (shape === "node") files.push(fixture("cjs.cts.txt", NAME, "consumer.cts"));
    files.push(fixture("connection.ts.txt", NAME, "connection.ts"));
    files.push(fixture("remote.ts.txt", NAME, "remote.ts"));
    for (const example of readmeExamples(join(dir, "node_modules", NAME, "README.md"))) {
      // The agent and client examples use Node's streams and child processes.
      if (example.node && shape !== "node") continue;
      files.push(example);
    }
    return files;
  },
};

beforeAll(async () => {
  const out = join(work.path, "package");
  const generated = await cli(
    "generate",
    "--schema-dir",
    SCHEMA_DIR,
    "--out",
    out,
    "--name",
    NAME,
    "--quiet",
  );
  expect(generated.stderr).toEqual([]);
  const packed = await exec("npm", ["pack", "--silent", "--pack-destination", work.path], {
    cwd: out,
  });
  expect(packed.code, packed.stderr).toBe(0);
  tarball = join(work.path, packed.stdout.trim().split("\n").pop() ?? "");
  // attw takes a few seconds of its own: start it now, beside the installs and compilers.
  // Its report goes to a file: attw exits before a pipe takes more than its first 64 KiB.
  const attwBin = join(ROOT, "node_modules", ".bin", "attw");
  attwReport = join(work.path, "attw.json");
  if (STATIC_CHECKS)
    attw = exec("sh", ["-c", '"$0" "$1" --format json > "$2"', attwBin, tarball, attwReport]);
  exported = new Set(Object.keys(await import(pathToFileURL(join(out, "v1", "index.js")).href)));
  const [node, browser] = await Promise.all([
    createProject(work.path, ours, "node"),
    createProject(work.path, ours, "browser"),
  ]);
  projects = { node, browser };
  matrix = STATIC_CHECKS ? runMatrix([node, browser]) : Promise.resolve([]);
  // Awaited by the tests; this keeps a failure from surfacing as an unhandled rejection first.
  matrix.catch(() => {});
}, 180_000);
afterAll(() => work.remove());

it("the root entry point exports the connection layer and the lenient parsers", () => {
  const wanted = ["AgentSideConnection", "ClientSideConnection", "ndJsonStream", "RequestError"];
  expect(wanted.filter((name) => !exported.has(name))).toEqual([]);
  expect(exported.has("parseSessionNotification")).toBe(true);
});

describeStatic("packaging lint of the tarball", {}, () => {
  it("publint reports nothing, suggestions included", async () => {
    const bytes = readFileSync(tarball);
    const { messages, pkg } = await publint({
      pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) },
      level: "suggestion",
      strict: true,
    });
    expect(messages.map((m) => formatMessage(m, pkg) ?? m.code)).toEqual([]);
  });

  it("arethetypeswrong reports only the deliberate ESM-only finding", async () => {
    const run = await attw;
    expect(run.stderr).toBe("");
    const report = JSON.parse(readFileSync(attwReport, "utf8")) as {
      analysis: { problems: Array<{ kind: string; entrypoint?: string; resolutionKind?: string }> };
    };
    // The one deliberate finding: `require()` of an entry point resolves to ES modules.
    // attw models Node before 20.19 (and TypeScript's node16 module mode), where that fails;
    // Node 20.19+/22.12+ load it with require(esm), and shipping a CommonJS copy would mean
    // two copies of every module and class at run time (see docs/consumers.md). Everything
    // else attw checks (node10 with typesVersions, node16 from ESM, bundler, types for each
    // entry, module kinds) must be clean, and this finding only under node16-cjs.
    const pkg = JSON.parse(
      readFileSync(join(projects.node.dir, "node_modules", NAME, "package.json"), "utf8"),
    );
    const entries = Object.keys(pkg.exports).filter((e) => e !== "./package.json");
    expect(report.analysis.problems).toEqual(
      entries.map((entrypoint) => ({
        kind: "CJSResolvesToESM",
        entrypoint,
        resolutionKind: "node16-cjs",
      })),
    );
  });
});

/** TypeScript models require(esm) in `nodenext` from 5.8 and in `node20` (new in 5.9). */
function typesRequireOfEsm(setting: Setting): boolean {
  return (
    Number(setting.compiler.label) >= 5.8 && ["nodenext", "node20"].includes(setting.resolution)
  );
}

/**
 * What TypeScript says when a CommonJS file imports an ES module in a mode that does not
 * model require(esm): TS1471/TS1479 for the import, TS1541/TS1542 for a type-only import.
 */
const REQUIRE_OF_ESM_ERRORS = [1471, 1479, 1541, 1542];

// The first setting's test waits for the whole matrix (started in beforeAll), which beside the
// rest of the suite on two cores takes minutes: 180 s ran out once under a load of 12.
describeStatic(
  "type-check matrix (strict, skipLibCheck false, lib es2020)",
  { timeout: 420_000 },
  () => {
    it("covers every compiler, shape and resolution the compilers accept", () => {
      expect(COMPILERS.map((c) => c.label)).toEqual(["5.0", "5.9", "6.0", "7.0"]);
      for (const shape of ["node", "browser"] as const)
        for (const resolution of ["node16", "nodenext", "bundler"] as const)
          for (const compiler of COMPILERS)
            expect(
              SETTINGS.some(
                (s) => s.shape === shape && s.resolution === resolution && s.compiler === compiler,
              ),
            ).toBe(true);
      expect(Object.keys(RESOLUTIONS).sort()).toEqual([
        "bundler",
        "node10",
        "node16",
        "node20",
        "nodenext",
      ]);
    });

    it.each(SETTINGS.map((s) => [settingId(s), s] as const))("%s", async (_id, setting) => {
      const outcome = (await matrix).find((o) => o.setting === setting);
      if (!outcome) throw new Error(`no outcome for ${settingId(setting)}`);
      expect(outcome.esm.diagnostics.map((d) => d.text)).toEqual([]);
      if (!outcome.cjs) return;
      if (typesRequireOfEsm(setting)) {
        expect(outcome.cjs.diagnostics.map((d) => d.text)).toEqual([]);
      } else {
        // Documented as unsupported (docs/consumers.md): the compiler refuses require() of an
        // ES module, in the consumer file and nowhere else, and for no other reason.
        expect(outcome.cjs.ok).toBe(false);
        expect(
          outcome.cjs.diagnostics.filter(
            (d) => !REQUIRE_OF_ESM_ERRORS.includes(d.code) || d.file !== "consumer.cts",
          ),
        ).toEqual([]);
      }
    });
  },
);

describe("runs under Node", { timeout: 60_000 }, () => {
  const requireEsm = process.features.require_module === true;
  let emitted: Promise<void>;

  /** Compile the Node project's consumers once (TypeScript 7, nodenext) into out/. */
  beforeAll(() => {
    emitted = (async () => {
      const project = projects.node;
      const config = {
        compilerOptions: { ...compilerOptions("node", "nodenext"), noEmit: false, outDir: "out" },
        files: [...project.esm, ...project.cjs],
      };
      writeFileSync(join(project.dir, "tsconfig.emit.json"), JSON.stringify(config));
      const tsc = COMPILERS.at(-1)?.tsc ?? "";
      const run = await exec(
        process.execPath,
        [tsc, "-p", "tsconfig.emit.json", "--pretty", "false"],
        { cwd: project.dir },
      );
      expect(run.stdout).toBe("");
    })();
    emitted.catch(() => {});
  });

  const runNode = async (file: string, cwd = projects.node.dir) => {
    await emitted;
    const run = await exec(process.execPath, [file], { cwd, timeoutMs: 30_000 });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout) as unknown;
  };

  it("the ES module consumer imports every entry point", async () => {
    expect(await runNode(join("out", "consumer.js"))).toEqual({
      initialize: true,
      content: true,
      result: true,
      providers: true,
      narrowed: "plan",
      badVersion: true,
      thrown: "ContentBlock: 1",
      sameErrorClass: true,
      v2: 2,
      v2Unstable: true,
      agentMethods: "session/new",
    });
  });

  it.skipIf(!requireEsm)(
    "the compiled CommonJS consumer require()s every entry point",
    async () => {
      await emitted; // the compile of beforeAll, which the order of tests does not wait for
      const output = readFileSync(join(projects.node.dir, "out", "consumer.cjs"), "utf8");
      expect(output).toContain(`require("${NAME}/v2/unstable")`);
      expect(await runNode(join("out", "consumer.cjs"))).toEqual({
        notification: true,
        providers: true,
        v2: 2,
        sameErrorClass: true,
      });
    },
  );

  it.skipIf(!requireEsm)("a plain .cjs file require()s every entry point", async () => {
    const file = fixture("require.cjs.txt", NAME, "require.cjs");
    writeFileSync(join(projects.node.dir, file.name), file.source);
    const entry = (protocolVersion: number) => ({
      protocolVersion,
      content: true,
      invalid: false,
      sameErrorClass: true,
    });
    expect(await runNode(file.name)).toEqual([entry(1), entry(1), entry(2), entry(2)]);
  });

  it("an agent and a client talk in memory", async () => {
    expect(await runNode(join("out", "connection.js"))).toEqual({
      protocolVersion: 1,
      stopReason: "end_turn",
      updates: 1,
    });
  });

  it("an agent behind AcpServer and a client on createHttpStream talk through the fetch handler", async () => {
    expect(await runNode(join("out", "remote.js"))).toEqual({
      sessionId: "session-of-http",
      stopReason: "end_turn",
      updates: ["agent_message_chunk"],
      refused: 403,
    });
  });

  it("every README example with an output block prints it (the clients run the README's agent)", async () => {
    await emitted;
    const out = join(projects.node.dir, "out");
    const runnable = readmeExamples(
      join(projects.node.dir, "node_modules", NAME, "README.md"),
    ).filter((example) => example.output !== undefined);
    expect(runnable.map((example) => example.name)).toContain("client.ts");
    const runs = await Promise.all(
      runnable.map((example) =>
        exec(process.execPath, [example.name.replace(/\.ts$/, ".js")], {
          cwd: out,
          timeoutMs: 30_000,
        }),
      ),
    );
    runnable.forEach((example, i) => {
      expect(runs[i]?.stderr, example.name).toBe("");
      expect(runs[i]?.stdout, example.name).toBe(example.output);
    });
  });
});

describe("bundling (esbuild, minified, platform neutral)", { timeout: 60_000 }, () => {
  async function bundle(source: string): Promise<string> {
    const result = await build({
      stdin: { contents: source, resolveDir: projects.node.dir, loader: "js" },
      bundle: true,
      minify: true,
      platform: "neutral",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    return result.outputFiles[0]?.text ?? "";
  }

  it("an app using one validator keeps only what that validator needs", async () => {
    const one = await bundle(
      `import { isSessionNotification } from "${NAME}";\nexport const ok = isSessionNotification(JSON.parse("{}"));\n`,
    );
    const all = await bundle(`import * as acp from "${NAME}";\nexport default acp;\n`);
    // The stable entry point's validators: validators.js and the shared-validators.js it
    // imports (those its unstable surface uses too).
    const validators = ["validators.js", "shared-validators.js"]
      .map((file) => join(projects.node.dir, "node_modules", NAME, "v1", file))
      .reduce((sum, path) => sum + (existsSync(path) ? statSync(path).size : 0), 0);
    // Shown when the size bar is missed (npm run bench reports the sizes).
    const sizes = `bundle bytes: isSessionNotification alone ${one.length}, whole entry point ${all.length}, v1 validators ${validators}`;

    // Definitions SessionNotification does not reach through $ref, and their property names
    // that nothing it reaches declares, read from the schema the package was generated from.
    const unrelated = unrelatedDefinitions(
      join(SCHEMA_DIR, "v1", "schema.json"),
      "SessionNotification",
    );
    expect(unrelated.definitions.length).toBeGreaterThan(20);
    expect(unrelated.properties.length).toBeGreaterThan(20);
    // As a whole word: `toolCall` must not match the `toolCallId` a tool call update has.
    const mentions = (code: string, word: string) =>
      new RegExp(`(?<![\\w$])${word}(?![\\w$])`).test(code);
    // The check can see them: the whole entry point's bundle has every one of them...
    expect(unrelated.properties.filter((p) => !mentions(all, p))).toEqual([]);
    // A definition leaves its name where an error names it: the type `assert<Name>` reports
    // (`"X"`), or a schema path (`#/$defs/X…`, `acp-codegen:definition:X…`) if one is kept.
    const names = (code: string, d: string) =>
      code.includes(`"${d}"`) ||
      code.includes(`$defs/${d}"`) ||
      new RegExp(`definition:${d}[/"#]`).test(code);
    expect(unrelated.definitions.some((d) => names(all, d))).toBe(true);
    // ...and the one-validator bundle has none.
    expect(unrelated.properties.filter((p) => mentions(one, p))).toEqual([]);
    expect(unrelated.definitions.filter((d) => names(one, d))).toEqual([]);
    expect(one.length, sizes).toBeLessThan(validators / 4);
  });
});
