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
 * @param {string} consumerDir
 * @param {string} name
 * @param {string} source
 * @returns {Promise<{ bytes: number, gzip: number }>}
 */
async function bundle(consumerDir, name, source) {
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
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild wrote nothing for ${name}`);
  const code = output.contents;
  return { bytes: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

/**
 * Bundles for: one validator (`isSessionNotification`) vs the equivalent zod schema
 * (`zSessionNotification.safeParse`), and every export of the stable entry point vs the SDK's
 * stable entry point. The value is read from globalThis so nothing can be constant-folded.
 * @param {{ consumerDir: string }} options
 */
export async function benchBundles({ consumerDir }) {
  const zod = JSON.stringify(sdkZodFile());
  return {
    oneValidator: {
      ours: await bundle(
        consumerDir,
        "bundle-ours-one",
        `import { isSessionNotification } from "acp-bench";\nconsole.log(isSessionNotification(globalThis.message));\n`,
      ),
      sdk: await bundle(
        consumerDir,
        "bundle-sdk-one",
        `import { zSessionNotification } from ${zod};\nconsole.log(zSessionNotification.safeParse(globalThis.message).success);\n`,
      ),
    },
    wholeEntry: {
      ours: await bundle(
        consumerDir,
        "bundle-ours-all",
        `import * as acp from "acp-bench";\nconsole.log(acp);\n`,
      ),
      sdk: await bundle(
        consumerDir,
        "bundle-sdk-all",
        `import * as acp from "@agentclientprotocol/sdk";\nconsole.log(acp);\n`,
      ),
    },
  };
}
