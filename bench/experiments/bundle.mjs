#!/usr/bin/env node
// Experiment, not part of `npm run bench`: what an application's bundle carries from the package,
// file by file, next to the official SDK's.
//
// Bundles (esbuild, minified ESM, as bench/lib/size.mjs does) the client app (ClientSideConnection
// and ndJsonStream) and everything from the stable entry point, for ours and the SDK, and prints
// each bundle's minified and gzip size and the minified bytes each input file contributes.
//
//   node bench/experiments/bundle.mjs [--pkg DIR] [--top N]
// --pkg: a package generated from test/fixtures/releases/2.4.0 (else one is generated).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { makeConsumerProject } from "../lib/consumer.mjs";
import { CLI, REPO, SDK_SCHEMA_DIR } from "../lib/paths.mjs";
import { runNode } from "../lib/proc.mjs";
import { BUNDLES, bundle } from "../lib/size.mjs";
import { formatBytes } from "../lib/stats.mjs";

const { values: args } = parseArgs({
  options: { pkg: { type: "string" }, top: { type: "string", default: "12" } },
});
const tmp = mkdtempSync(join(tmpdir(), "acp-bundle-exp-"));
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
  const consumerDir = makeConsumerProject(tmp, pkg);
  for (const [name, sides] of Object.entries(BUNDLES)) {
    for (const [side, source] of Object.entries(sides)) {
      const out = await bundle(consumerDir, `${name}-${side}`, source, true);
      console.log(
        `\n${name}, ${side}: ${formatBytes(out.bytes)} minified, ${formatBytes(out.gzip)} gzip`,
      );
      const inputs = Object.entries(out.inputs ?? {})
        .map(([file, bytes]) => [
          relative(consumerDir, file).replace(/^.*node_modules\//, ""),
          bytes,
        ])
        .sort((a, b) => Number(b[1]) - Number(a[1]));
      for (const [file, bytes] of inputs.slice(0, Number(args.top)))
        console.log(`  ${formatBytes(Number(bytes)).padStart(9)}  ${file}`);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
