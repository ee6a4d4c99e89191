import { readFileSync, statSync } from "node:fs";
import { Parser, type ReadEntry } from "tar";
import { SourceError } from "./errors.js";

/** One candidate schema file found in a release, by path relative to the release's top. */
export type Member = { kind: "file"; bytes: Buffer } | { kind: "link" | "other"; detail: string };

/** An npm tarball is a few MB; anything far larger is not a release of a schema package. */
const MAX_ARCHIVE_BYTES = 256 * 1024 * 1024;
const MAX_MEMBER_BYTES = 64 * 1024 * 1024;
/** Candidate names only (the layout decides later): `package/schema/v1/schema.json` is the deepest. */
const CANDIDATE = /^(?:schema|meta)(?:\.v[0-9]+)?(?:\.unstable)?\.json$/;
const MAX_CANDIDATE_DEPTH = 4;

/**
 * Read a `.tgz` (or plain `.tar`) into memory and return its candidate schema files, keyed by
 * path with the archive's single top folder (`package/` in npm tarballs) removed.
 *
 * Nothing from the archive is ever written under its own name, so a hostile path cannot
 * escape; still, an archive with an absolute or `..` path is refused outright, and a link
 * (symbolic or hard) where a schema file should be is an error, never followed.
 */
export async function readArchive(path: string, display: string): Promise<Map<string, Member>> {
  let bytes: Buffer;
  try {
    if (statSync(path).size > MAX_ARCHIVE_BYTES) {
      throw new SourceError(display, `larger than ${MAX_ARCHIVE_BYTES / 1024 / 1024} MB`);
    }
    bytes = readFileSync(path);
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw new SourceError(
      display,
      `cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  const { paths, members } = await parseTar(bytes, display);
  const strip = commonTop(paths);
  const found = new Map<string, Member>();
  for (const [raw, member] of members) {
    found.set(strip ? raw.slice(strip.length + 1) : raw, member);
  }
  return found;
}

/** node-tar reads every format npm and git produce (ustar, pax, GNU long names) and checks each header. */
function parseTar(
  bytes: Buffer,
  display: string,
): Promise<{ paths: string[]; members: Map<string, Member> }> {
  return new Promise((resolve, reject) => {
    const paths: string[] = [];
    const members = new Map<string, Member>();
    let failed = false;
    const fail = (detail: string) => {
      if (failed) return;
      failed = true;
      reject(new SourceError(display, detail));
    };
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        const path = normalise(entry.path);
        if (path === undefined) {
          fail(`unsafe path ${JSON.stringify(entry.path)} in the archive: refusing it`);
          entry.resume();
          return;
        }
        paths.push(path);
        const segments = path.split("/");
        const base = segments.at(-1) ?? "";
        if (!CANDIDATE.test(base) || segments.length > MAX_CANDIDATE_DEPTH) {
          entry.resume();
          return;
        }
        if (members.has(path)) fail(`${path} appears twice in the archive`);
        if (entry.type === "SymbolicLink" || entry.type === "Link") {
          members.set(path, { kind: "link", detail: `a link to ${entry.linkpath ?? "?"}` });
          entry.resume();
          return;
        }
        if (entry.type !== "File" && entry.type !== "OldFile" && entry.type !== "ContiguousFile") {
          members.set(path, { kind: "other", detail: `a ${entry.type} entry, not a file` });
          entry.resume();
          return;
        }
        if (entry.size > MAX_MEMBER_BYTES) {
          fail(`${path} is larger than ${MAX_MEMBER_BYTES / 1024 / 1024} MB`);
          entry.resume();
          return;
        }
        const chunks: Buffer[] = [];
        entry.on("data", (chunk: Buffer) => chunks.push(chunk));
        entry.on("end", () => members.set(path, { kind: "file", bytes: Buffer.concat(chunks) }));
      },
    });
    parser.on("error", (error: Error & { code?: string }) => fail(describeTarError(error)));
    parser.on("end", () => {
      if (failed) return;
      if (paths.length === 0) fail("not a tar archive (no entries)");
      else resolve({ paths, members });
    });
    parser.end(bytes);
  });
}

function describeTarError(error: Error & { code?: string }): string {
  if (error.code === "Z_BUF_ERROR" || /unexpected end of file/i.test(error.message)) {
    return "truncated archive (the gzip data ends early)";
  }
  if (/truncated input/i.test(error.message)) return "truncated archive (a file's data is cut off)";
  if (error.code?.startsWith("Z_")) return `not a valid gzip file (${error.message})`;
  if (/checksum|unrecognized archive/i.test(error.message)) {
    return "not a .tgz or .tar archive (no valid tar header)";
  }
  return `unreadable archive (${error.message.replace(/^TAR_[A-Z_]+: /, "")})`;
}

/** `./a/b/` → `a/b`; undefined for absolute paths and any `..` segment. */
function normalise(path: string): string | undefined {
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return undefined;
  const segments = path.split(/[\\/]/).filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) return undefined;
  return segments.join("/");
}

/** The single folder every entry sits in (`package` for npm), if there is one. */
function commonTop(paths: string[]): string | undefined {
  const tops = new Set(paths.map((p) => p.split("/")[0]));
  if (tops.size !== 1) return undefined;
  const [top] = tops;
  if (top === undefined || top === "") return undefined;
  // A lone top-level file is not a folder to strip.
  return paths.some((p) => p.startsWith(`${top}/`)) ? top : undefined;
}
