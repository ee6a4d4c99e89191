/**
 * Runs the consumer matrix for our package and for the official SDK under the same
 * settings, and prints the comparison as Markdown: the table in docs/consumers.md comes
 * from this run, never from memory.
 *
 *   node --import tsx test/consumers/report.ts                          # print the section
 *   node --import tsx test/consumers/report.ts --write docs/consumers.md  # replace it in place
 *
 * The output has no timings or paths, so it changes only when a result changes.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { GENERATOR_VERSION, ROOT } from "../../generator/paths.js";
import { cli, SCHEMA_DIR, tempDir } from "../support/run.js";
import {
  type Check,
  COMPILERS,
  createProject,
  fixture,
  installTarball,
  type Outcome,
  type Project,
  runMatrix,
  SETTINGS,
  type Setting,
  type Subject,
  sdkSubject,
} from "./support/matrix.js";
import { exec } from "./support/run.js";

const NAME = "acp-protocol";
const START = "<!-- consumer-matrix:start -->";
const END = "<!-- consumer-matrix:end -->";

async function main(): Promise<void> {
  const write = process.argv.indexOf("--write");
  const target = write >= 0 ? process.argv[write + 1] : undefined;
  const work = tempDir("consumer-report");
  try {
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
    if (generated.code !== 0) throw new Error(generated.stderr.join("\n"));
    const packed = await exec("npm", ["pack", "--silent", "--pack-destination", work.path], {
      cwd: out,
    });
    const tarball = join(work.path, packed.stdout.trim().split("\n").pop() ?? "");
    // The same ES module and CommonJS consumers the test suite checks (less the README's
    // examples and the connection, which the SDK's API does not share).
    const ours: Subject = {
      id: "ours",
      name: NAME,
      install: (dir) => installTarball(dir, tarball),
      async consumers(_dir, shape) {
        const files = [fixture("esm.ts.txt", NAME, "consumer.ts")];
        if (shape === "node") files.push(fixture("cjs.cts.txt", NAME, "consumer.cts"));
        return files;
      },
    };
    const sdk = sdkSubject();
    const projects: Project[] = [];
    for (const subject of [ours, sdk])
      for (const shape of ["node", "browser"] as const)
        projects.push(await createProject(work.path, subject, shape));
    const outcomes = await runMatrix(projects);
    const bundle = await bundleBytes(projects[0] as Project);
    const section = render(outcomes, bundle);
    if (!target) {
      process.stdout.write(section);
      return;
    }
    const path = join(ROOT, target);
    const doc = readFileSync(path, "utf8");
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    if (start < 0 || end < start) throw new Error(`${target} has no ${START} … ${END} section`);
    writeFileSync(path, `${doc.slice(0, start + START.length)}\n${section}${doc.slice(end)}`);
  } finally {
    work.remove();
  }
}

/** Bytes of the same minified bundles the test suite measures. */
async function bundleBytes(
  project: Project,
): Promise<{ one: number; all: number; validators: number }> {
  const bundle = async (contents: string) => {
    const result = await build({
      stdin: { contents, resolveDir: project.dir, loader: "js" },
      bundle: true,
      minify: true,
      platform: "neutral",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    return result.outputFiles[0]?.text.length ?? 0;
  };
  return {
    one: await bundle(
      `import { isSessionNotification } from "${NAME}";\nexport const ok = isSessionNotification(JSON.parse("{}"));\n`,
    ),
    all: await bundle(`import * as acp from "${NAME}";\nexport default acp;\n`),
    // The stable entry point's validators: validators.js and the shared-validators.js it imports.
    validators: ["validators.js", "shared-validators.js"]
      .map((file) => join(project.dir, "node_modules", NAME, "v1", file))
      .reduce((sum, path) => sum + (existsSync(path) ? readFileSync(path).length : 0), 0),
  };
}

/** One cell: clean, or the distinct error codes (with counts) the compiler reported. */
function cell(check: Check | undefined): string {
  if (!check) return "—";
  if (check.ok) return "✅";
  const counts = new Map<number, number>();
  for (const d of check.diagnostics) counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
  const codes = [...counts]
    .sort(([a], [b]) => a - b)
    .map(([code, n]) => `TS${code}${n > 1 ? ` ×${n}` : ""}`);
  return `❌ ${codes.join(", ")}`;
}

const RESOLUTION_LABEL: Record<string, string> = {
  node16: "`node16`",
  nodenext: "`nodenext`",
  node20: "`node16` (`module: node20`)",
  bundler: "`bundler`",
  node10: "`node10`",
};

function render(
  outcomes: readonly Outcome[],
  bundle: { one: number; all: number; validators: number },
): string {
  const find = (subject: string, setting: Setting) =>
    outcomes.find((o) => o.subject === subject && o.setting === setting);
  const sdkVersion = JSON.parse(
    readFileSync(join(ROOT, "node_modules", "@agentclientprotocol", "sdk", "package.json"), "utf8"),
  ).version;
  const lines = [
    "",
    `Generated by \`test/consumers/report.ts\` from one run: our package as acp-codegen ${GENERATOR_VERSION}`,
    `generates it from \`schema/\`, and \`@agentclientprotocol/sdk\` ${sdkVersion} with zod, each installed in`,
    'a Node project (`@types/node`, `lib: ["es2020"]`) and a browser project (`lib: ["es2020", "dom"]`,',
    "no `@types/node`), `strict`, `skipLibCheck: false`. Compilers: " +
      COMPILERS.map((c) => `TypeScript ${c.version}`).join(", ") +
      ". `—`: the setting has no CommonJS consumer (browser projects, `bundler`, `node10`).",
    "Settings a compiler rejects are left out (`node20` before 5.9, `node10` from 7.0; on 6.0",
    '`node10` needs `ignoreDeprecations: "6.0"`, which the run sets).',
    "",
    "| project | moduleResolution | TypeScript | ours, ESM | ours, CJS | SDK, ESM | SDK, CJS |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const setting of SETTINGS) {
    const ours = find("ours", setting);
    const sdk = find("sdk", setting);
    lines.push(
      `| ${setting.shape} | ${RESOLUTION_LABEL[setting.resolution]} | ${setting.compiler.label} | ${cell(ours?.esm)} | ${cell(ours?.cjs)} | ${cell(sdk?.esm)} | ${cell(sdk?.cjs)} |`,
    );
  }
  lines.push("", "What the failing cells report (one message per package and code):", "");
  for (const subject of ["ours", "sdk"]) {
    const seen = new Map<number, string>();
    for (const o of outcomes.filter((x) => x.subject === subject))
      for (const d of [...o.esm.diagnostics, ...(o.cjs?.diagnostics ?? [])])
        if (!seen.has(d.code)) seen.set(d.code, d.text.split("\n")[0] ?? "");
    const label = subject === "ours" ? "ours" : "SDK";
    if (seen.size === 0) lines.push(`- ${label}: nothing.`);
    for (const [code, text] of [...seen].sort(([a], [b]) => a - b))
      lines.push(
        `- ${label}, TS${code}: ${text.replaceAll("|", "\\|").replaceAll("node_modules/", "")}`,
      );
  }
  const pct = ((bundle.one / bundle.validators) * 100).toFixed(1);
  lines.push(
    "",
    'Bundle (esbuild, minified, `platform: "neutral"`) of an app that imports one validator:',
    "",
    "| app imports | bytes |",
    "|---|---|",
    `| \`isSessionNotification\` from \`${NAME}\` | ${bundle.one} (${pct} % of v1's validators) |`,
    `| everything from \`${NAME}\` | ${bundle.all} |`,
    `| (for scale: v1's validators as shipped, \`validators.js\` and \`shared-validators.js\`) | ${bundle.validators} |`,
    "",
  );
  return `${lines.join("\n")}\n`;
}

await main();
