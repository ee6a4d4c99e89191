/**
 * Debian's Chromium for the tests that need a real browser, driven by playwright-core
 * through `executablePath` (nothing downloads a browser: playwright-core ships none). CI runs
 * on a clean machine as root, so a missing Chromium is installed from Debian's packages the
 * first time a test asks for it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** The flags every run uses: headless, no sandbox (root in a container), nothing phoning home. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Installs Debian's chromium when it is missing (as root, with apt-get); throws saying why it could not. */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "chromium"],
  ]) {
    const apt = spawnSync("apt-get", args, { env, encoding: "utf8", timeout: 900_000 });
    if (apt.status !== 0)
      throw new Error(
        `installing chromium failed (apt-get ${args.join(" ")}): ${(apt.stderr || apt.stdout || String(apt.error)).trim().split("\n").pop()}`,
      );
  }
  if (!existsSync(CHROMIUM))
    throw new Error(`apt-get installed chromium, but ${CHROMIUM} is missing`);
  return CHROMIUM;
}

/** A headless Chromium with a fresh profile; `close()` ends it and removes the profile. */
export async function launchChromium(): Promise<{
  context: BrowserContext;
  close(): Promise<void>;
}> {
  const executablePath = ensureChromium();
  const profile = mkdtempSync(join(tmpdir(), "acp-codegen-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_FLAGS,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
