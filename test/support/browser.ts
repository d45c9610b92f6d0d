/**
 * Real-browser test set-up shared by test/browser/*: Debian's Chromium driven by playwright-core
 * (no browser download), and a loopback page standing in for a client's redirect URI.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`No Chromium at ${chromiumPath}: install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH.`);
  }
  return chromium.launch({ executablePath: chromiumPath });
}

/**
 * A page in a fresh browser profile (or in `context`) whose console errors and uncaught page
 * errors are collected: a Content-Security-Policy violation shows as a console error. A refused
 * form shows as a navigation that never comes, so each step fails well inside jest's 30 s.
 */
export async function pageWatchingErrors(browserOrContext: Browser | BrowserContext): Promise<{ page: Page; consoleErrors: string[] }> {
  const context = 'newContext' in browserOrContext ? await browserOrContext.newContext() : browserOrContext;
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  return { page, consoleErrors };
}

/** A client's redirect target on 127.0.0.1: answers every path with a plain page. */
export async function startCallbackServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_, response) => response.writeHead(200, { 'Content-Type': 'text/plain' }).end('callback reached'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Redeems a code from the browser's redirect at the token endpoint, as the client's back end would. */
export function redeemCode(
  issuer: string,
  fields: { code: string; clientId: string; redirectUri: string; verifier: string; resource?: string },
): Promise<Response> {
  return fetch(`${issuer}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: fields.code,
      redirect_uri: fields.redirectUri,
      client_id: fields.clientId,
      code_verifier: fields.verifier,
      ...(fields.resource ? { resource: fields.resource } : {}),
    }).toString(),
  });
}

/** The newest mail to `to` in the local server's outbox whose text matches `pattern`: its first group (waits up to 5 s). */
export async function newestMail(outbox: string, to: string, pattern: RegExp): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const found = (existsSync(outbox) ? readdirSync(outbox) : [])
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => JSON.parse(readFileSync(join(outbox, name), 'utf8')) as { to: string; text: string })
      .filter((mail) => mail.to === to)
      .map((mail) => pattern.exec(mail.text)?.[1])
      .filter((match): match is string => match !== undefined);
    if (found.length > 0) return found[found.length - 1]!;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to} matching ${pattern}`);
}
