import type { Member } from "./archive.js";
import { SourceError } from "./errors.js";
import { probeNames } from "./layout.js";

export const DEFAULT_GITHUB_BASE_URL = "https://raw.githubusercontent.com";

const MAX_FILE_BYTES = 64 * 1024 * 1024;
const TIMEOUT_MS = 60_000;

export interface GithubRelease {
  owner: string;
  repo: string;
  ref: string;
}

/** `BASE/OWNER/REPO/REF/schema/NAME`, the raw-content host's scheme; every segment encoded. */
export function rawUrl(baseUrl: string, release: GithubRelease, path: string): string {
  const segments = [release.owner, release.repo, ...release.ref.split("/"), ...path.split("/")];
  return `${baseUrl.replace(/\/+$/, "")}/${segments.map(encodeURIComponent).join("/")}`;
}

export function checkBaseUrl(baseUrl: string): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new SourceError("--github-base-url", `${JSON.stringify(baseUrl)} is not a URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new SourceError("--github-base-url", `expected an http(s) URL, got ${url.protocol}`);
  }
}

/**
 * A raw-content host cannot list a folder, so ask for every name a release has used under
 * `schema/` (a 404 is just a layout this release does not have). Versions beyond v2 are
 * asked for as long as the one before exists.
 */
export async function readGithub(
  baseUrl: string,
  release: GithubRelease,
  display: string,
): Promise<Map<string, Member>> {
  checkBaseUrl(baseUrl);
  const found = new Map<string, Member>();
  const ask = async (names: string[]) => {
    const results = await Promise.all(
      names.map(async (name) => {
        const bytes = await get(rawUrl(baseUrl, release, `schema/${name}`), display);
        return [name, bytes] as const;
      }),
    );
    for (const [name, bytes] of results) {
      if (bytes) found.set(`schema/${name}`, { kind: "file", bytes });
    }
  };
  await ask(probeNames(1, 2));
  const has = (version: number) =>
    probeNames(version, version).some((name) => found.has(`schema/${name}`));
  for (let version = 3; has(version - 1); version++) await ask(probeNames(version, version));
  return found;
}

/** The file's bytes, undefined on 404, an error naming the URL for anything else. */
async function get(url: string, display: string): Promise<Buffer | undefined> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: "follow", signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why =
      cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
    throw new SourceError(display, `cannot fetch ${url} (${why})`);
  }
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new SourceError(display, `HTTP ${response.status} from ${url}`);
  }
  const length = Number(response.headers.get("content-length") ?? "0");
  if (length > MAX_FILE_BYTES) {
    await response.body?.cancel();
    throw new SourceError(display, `${url} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
  }
  const body = response.body;
  if (!body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of body) {
      total += chunk.byteLength;
      if (total > MAX_FILE_BYTES) {
        throw new SourceError(display, `${url} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw new SourceError(display, `download of ${url} broke off (${String(error)})`);
  }
  return Buffer.concat(chunks);
}
