import { execFile } from "node:child_process";
import { basename, join } from "node:path";
import { SourceError } from "./errors.js";

export interface PackedTarball {
  /** `name@version` as the registry resolved the spec. */
  id: string;
  /** The tarball npm wrote into the destination folder. */
  path: string;
  /** The registry's integrity string for the tarball (`sha512-…`), when it gave one. */
  integrity?: string;
}

interface PackJson {
  id?: unknown;
  filename?: unknown;
  integrity?: unknown;
}

/**
 * Download a package's tarball with the machine's own npm (`npm pack SPEC`), so the user's
 * registry, scopes, proxy, certificates and auth apply exactly as for `npm install`. Nothing
 * is installed and no package script runs: `npm pack` of a registry spec only downloads.
 */
export async function npmPack(
  spec: string,
  destination: string,
  display: string,
): Promise<PackedTarball> {
  const args = ["pack", spec, "--json", "--pack-destination", destination, "--ignore-scripts"];
  const { stdout, stderr, failure } = await run(args);
  const parsed = parseJson(stdout);
  if (failure !== undefined) {
    const error = (parsed as { error?: { code?: unknown; summary?: unknown } } | undefined)?.error;
    if (error && typeof error.summary === "string") {
      const code = typeof error.code === "string" ? ` (npm ${error.code})` : "";
      throw new SourceError(display, `${error.summary}${code}`);
    }
    const said = lastNpmError(stderr);
    throw new SourceError(display, `npm pack failed: ${said ? `${said} (${failure})` : failure}`);
  }
  const entry = Array.isArray(parsed) ? (parsed[0] as PackJson | undefined) : undefined;
  if (!entry || typeof entry.id !== "string" || typeof entry.filename !== "string") {
    throw new SourceError(display, "npm pack printed no tarball (unexpected output from npm)");
  }
  return {
    id: entry.id,
    path: join(destination, basename(entry.filename)),
    ...(typeof entry.integrity === "string" ? { integrity: entry.integrity } : {}),
  };
}

function run(args: string[]): Promise<{ stdout: string; stderr: string; failure?: string }> {
  // On Windows npm is a .cmd script, which Node only starts through the shell; the spec was
  // checked to hold no quote or shell variable, so quoting each argument is enough.
  const windows = process.platform === "win32";
  const command = windows ? "npm.cmd" : "npm";
  const argv = windows ? args.map((a) => `"${a}"`) : args;
  return new Promise((resolve) => {
    execFile(
      command,
      argv,
      { shell: windows, maxBuffer: 64 * 1024 * 1024, timeout: 10 * 60_000, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (!error) {
          resolve({ stdout, stderr });
          return;
        }
        const code = (error as NodeJS.ErrnoException).code;
        const failure =
          code === "ENOENT"
            ? "npm was not found on PATH"
            : error.killed
              ? "npm took longer than 10 minutes"
              : `npm exited with ${String(code ?? error.message)}`;
        resolve({ stdout, stderr, failure });
      },
    );
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The most telling line npm printed: its first `npm error` line that says something, else the last line. */
function lastNpmError(stderr: string): string | undefined {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const npmErrors = lines
    .filter((l) => l.startsWith("npm error") && !/complete log of this run/.test(l))
    .map((l) => l.replace(/^npm error\s*/, ""))
    .filter((l) => l !== "" && !/^code\s/.test(l));
  return npmErrors[0] ?? lines.at(-1);
}
