import { createHash } from "node:crypto";
import {
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, relative, sep } from "node:path";
import { gzipSync } from "node:zlib";
import { create } from "tar";

/** Every file under `dir` as raw bytes, by `/`-separated path. */
export function readBytes(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.set(relative(dir, full).split(sep).join("/"), readFileSync(full));
    }
  };
  walk(dir);
  return files;
}

/**
 * Every file under `dir`, its bytes as base64: for byte-for-byte comparisons that stay fast
 * (deep equality walks a Buffer byte by byte).
 */
export function snapshot(dir: string): Map<string, string> {
  return new Map([...readBytes(dir)].map(([path, bytes]) => [path, bytes.toString("base64")]));
}

/** The sibling entries of `dir`: a failed swap must leave no staging folder behind. */
export function siblings(dir: string): string[] {
  return readdirSync(dirname(dir)).sort();
}

export function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Build an npm-style tarball: `files` (path → bytes or text) under `package/`, plus a
 * package.json, gzipped, with links where `links` says.
 */
export async function buildTarball(
  work: string,
  name: string,
  files: Record<string, Buffer | string>,
  options: { top?: string; links?: Record<string, string> } = {},
): Promise<Buffer> {
  const top = options.top ?? "package";
  const root = join(work, `tarball-${Math.random().toString(36).slice(2)}`);
  const pkg = join(root, top);
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name, version: "0.0.0" }));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(pkg, path)), { recursive: true });
    writeFileSync(join(pkg, path), content);
  }
  for (const [path, target] of Object.entries(options.links ?? {})) {
    mkdirSync(dirname(join(pkg, path)), { recursive: true });
    symlinkSync(target, join(pkg, path));
  }
  const out = join(root, "out.tgz");
  await create({ gzip: true, file: out, cwd: root, portable: true }, [top]);
  return readFileSync(out);
}

/** The files of a fixture folder, by path relative to it. */
export function fixtureFiles(dir: string, prefix = ""): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  for (const [path, bytes] of readBytes(dir)) {
    if (path.endsWith(".json")) files[`${prefix}${path}`] = bytes;
  }
  return files;
}

/**
 * A tar archive written by hand, byte by byte (ustar), for entries no well-behaved tool
 * writes: `../` paths. Each entry is a regular file.
 */
export function rawTar(entries: Array<{ path: string; content: string }>): Buffer {
  const blocks: Buffer[] = [];
  for (const { path, content } of entries) {
    const body = Buffer.from(content);
    const header = Buffer.alloc(512);
    header.write(path, 0, 100, "utf8");
    header.write("0000644\0", 100);
    header.write("0000000\0", 108);
    header.write("0000000\0", 116);
    header.write(`${body.length.toString(8).padStart(11, "0")}\0`, 124);
    header.write("00000000000\0", 136);
    header.write("        ", 148); // checksum counts as spaces while it is computed
    header.write("0", 156);
    header.write("ustar\0", 257);
    header.write("00", 263);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
    blocks.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

export interface LocalServer {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

export interface PublishedVersion {
  version: string;
  tarball: Buffer;
}

/**
 * The smallest npm registry the real npm client accepts: a packument per package (with the
 * tarball's integrity, which npm verifies) and the tarballs themselves.
 */
export async function startRegistry(
  packages: Record<string, { latest: string; versions: PublishedVersion[] }>,
): Promise<LocalServer> {
  const requests: string[] = [];
  let base = "";
  const { server, url } = await listen((req, res) => {
    const path = decodeURIComponent(req.url ?? "/");
    requests.push(path);
    for (const [name, pkg] of Object.entries(packages)) {
      if (path === `/${name}`) {
        const versions = Object.fromEntries(
          pkg.versions.map((v) => [
            v.version,
            {
              name,
              version: v.version,
              dist: {
                tarball: `${base}/${name}/-/${name.split("/").pop()}-${v.version}.tgz`,
                integrity: `sha512-${createHash("sha512").update(v.tarball).digest("base64")}`,
                shasum: createHash("sha1").update(v.tarball).digest("hex"),
              },
            },
          ]),
        );
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ name, "dist-tags": { latest: pkg.latest }, versions }));
        return;
      }
      const found = pkg.versions.find(
        (v) => path === `/${name}/-/${name.split("/").pop()}-${v.version}.tgz`,
      );
      if (found) {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        res.end(found.tarball);
        return;
      }
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: "not found" }));
  });
  base = url;
  return { url, requests, close: closer(server) };
}

/**
 * A raw-content host: `GET /OWNER/REPO/REF/PATH` answers with the file at PATH of the tree
 * registered for that ref, 404 for anything else; `failing` paths answer 500.
 */
export async function startRawHost(
  trees: Record<string, Record<string, Buffer | string>>,
  failing: string[] = [],
): Promise<LocalServer> {
  const requests: string[] = [];
  const { server, url } = await listen((req, res) => {
    const path = decodeURIComponent(req.url ?? "/");
    requests.push(path);
    if (failing.includes(path)) {
      res.writeHead(500);
      res.end("internal error");
      return;
    }
    for (const [prefix, tree] of Object.entries(trees)) {
      if (!path.startsWith(`/${prefix}/`)) continue;
      const file = tree[path.slice(prefix.length + 2)];
      if (file !== undefined) {
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
        res.end(file);
        return;
      }
    }
    res.writeHead(404);
    res.end("404: Not Found");
  });
  return { url, requests, close: closer(server) };
}

/** A copy of `from` at `to`, for a test that must start from a known schema folder. */
export function copyDir(from: string, to: string): string {
  cpSync(from, to, { recursive: true });
  return to;
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
