// Size: what installing and bundling the package costs, next to the official SDK.
//  - packed and unpacked size from `npm pack --dry-run --json`. For the SDK this runs in its
//    installed folder: an installed package holds exactly the files its tarball held (npm
//    extracts the tarball as is), so re-packing it offline gives the published file list and
//    sizes without the network; the packed size is npm's gzip of those same files.
//  - the minified bundle an application carries for one validator, built with esbuild.

import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { sdkRoot, sdkZodFile } from "./paths.mjs";
import { run } from "./proc.mjs";

/**
 * @param {string} dir
 * @returns {{ packed: number, unpacked: number, files: number }}
 */
function npmPack(dir) {
  // --ignore-scripts: packing must not run a package's prepack/prepare hooks.
  const out = run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: dir });
  const [info] = JSON.parse(out);
  return { packed: info.size, unpacked: info.unpackedSize, files: info.entryCount };
}

/**
 * Sum of file sizes under a folder, as a cross-check of npm's unpacked figure.
 * @param {string} dir
 * @returns {number}
 */
function diskBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += diskBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/** @param {{ ourPkg: string }} options */
export function benchPackageSize({ ourPkg }) {
  const ours = npmPack(ourPkg);
  const sdk = npmPack(sdkRoot());
  return {
    ours: { ...ours, onDisk: diskBytes(ourPkg) },
    sdk: {
      ...sdk,
      onDisk: diskBytes(sdkRoot()),
      how: "npm pack --dry-run of the installed folder",
    },
  };
}

/**
 * The applications bundled, each written once per side against that side's own API. The value
 * checked is read from globalThis so nothing can be constant-folded.
 *  - client: an editor-side client (the strict consumer's, bench/lib/consumer.mjs), a
 *    `ClientSideConnection` over `ndJsonStream`; the SDK's side is the same client in its API;
 *  - oneValidator: one validator (`isSessionNotification`) vs the equivalent zod schema;
 *  - wholeEntry: every export of the stable entry point vs the SDK's stable entry point.
 */
export const BUNDLES = {
  client: {
    ours: `import { ClientSideConnection, ndJsonStream } from "acp-bench";
const { input, output } = globalThis.streams;
const connection = new ClientSideConnection(
  () => ({
    sessionUpdate: (notification) => console.log(notification),
    sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
  }),
  ndJsonStream(output, input),
);
console.log(await connection.agent.sessionPrompt({ sessionId: "s", prompt: [] }));
`,
    sdk: `import { client, ndJsonStream } from "@agentclientprotocol/sdk";
const { input, output } = globalThis.streams;
const connection = client()
  .onNotification("session/update", ({ params }) => console.log(params))
  .onRequest("session/request_permission", () => ({ outcome: { outcome: "cancelled" } }))
  .connect(ndJsonStream(output, input));
console.log(await connection.agent.request("session/prompt", { sessionId: "s", prompt: [] }));
`,
  },
  oneValidator: {
    ours: `import { isSessionNotification } from "acp-bench";\nconsole.log(isSessionNotification(globalThis.message));\n`,
    sdk: `import { zSessionNotification } from ${JSON.stringify(sdkZodFile())};\nconsole.log(zSessionNotification.safeParse(globalThis.message).success);\n`,
  },
  wholeEntry: {
    ours: `import * as acp from "acp-bench";\nconsole.log(acp);\n`,
    sdk: `import * as acp from "@agentclientprotocol/sdk";\nconsole.log(acp);\n`,
  },
};

/**
 * esbuild, minified ESM, nothing external. `inputs` (with
 * `byFile`) is the minified bytes each input file contributes, from esbuild's metafile.
 * @param {string} consumerDir
 * @param {string} name
 * @param {string} source
 * @param {boolean} [byFile]
 * @returns {Promise<{ bytes: number, gzip: number, inputs?: Record<string, number> }>}
 */
export async function bundle(consumerDir, name, source, byFile = false) {
  const entry = join(consumerDir, `${name}.mjs`);
  writeFileSync(entry, source);
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: consumerDir,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "node",
    target: "es2022",
    write: false,
    logLevel: "silent",
    legalComments: "none",
    metafile: byFile,
    outfile: join(consumerDir, `${name}.out.mjs`),
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild wrote nothing for ${name}`);
  const code = output.contents;
  const sizes = { bytes: code.length, gzip: gzipSync(code, { level: 9 }).length };
  if (!byFile || !result.metafile) return sizes;
  const [meta] = Object.values(result.metafile.outputs);
  const inputs = Object.fromEntries(
    Object.entries(meta?.inputs ?? {}).map(([file, info]) => [
      join(consumerDir, file),
      info.bytesInOutput,
    ]),
  );
  return { ...sizes, inputs };
}

/**
 * Every application of BUNDLES, ours and the SDK's.
 * @param {{ consumerDir: string }} options
 */
export async function benchBundles({ consumerDir }) {
  /** @type {Record<string, { ours: { bytes: number, gzip: number }, sdk: { bytes: number, gzip: number } }>} */
  const out = {};
  for (const [name, sides] of Object.entries(BUNDLES)) {
    out[name] = {
      ours: await bundle(consumerDir, `bundle-${name}-ours`, sides.ours),
      sdk: await bundle(consumerDir, `bundle-${name}-sdk`, sides.sdk),
    };
  }
  return /** @type {Record<keyof typeof BUNDLES, (typeof out)[string]>} */ (out);
}
