// Shared set-up of the end-to-end tests: a tiny static server for dist/ on 127.0.0.1 and
// Debian's Chromium through playwright-core, with every console error, page error, failed
// request and HTTP error recorded per page.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'dist');
const TYPES = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript',
    '.wasm': 'application/wasm',
    '.css': 'text/css',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
};

/** Starts the server and the browser; returns { base, browser, close }. */
export async function start() {
    const server = http.createServer(async (req, res) => {
        const url = new URL(req.url, 'http://127.0.0.1');
        let file = path.normalize(path.join(dist, decodeURIComponent(url.pathname)));
        if (!file.startsWith(dist)) {
            res.writeHead(403).end();
            return;
        }
        if (url.pathname.endsWith('/')) file = path.join(file, 'index.html');
        try {
            const body = await readFile(file);
            res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
            res.end(body);
        } catch {
            res.writeHead(404).end('not found');
        }
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${server.address().port}/`;
    const browser = await chromium.launch({
        executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
        headless: true,
        args: [
            '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
            '--disable-background-networking', '--disable-component-update', '--disable-sync',
        ],
    });
    return {
        base,
        browser,
        async close() {
            await browser.close();
            await new Promise((resolve) => server.close(resolve));
        },
    };
}

/** A page (in its own context, downloads accepted) on `base + query`, recording problems. */
export async function openPage(env, query = '', { clipboard = false, init } = {}) {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 960 }, acceptDownloads: true });
    if (clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.base });
    const page = await context.newPage();
    if (init) await page.addInitScript(init);
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => {
        // Downloads of blob: and data: URLs are not page requests that can fail the page.
        if (!/^(blob|data):/.test(r.url())) problems.push(`request failed: ${r.url()}`);
    });
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
    await page.goto(env.base + query);
    await page.waitForSelector('#run', { timeout: 30_000 });
    return { page, problems, close: () => context.close() };
}

/** Clicks `selector` and returns the download it starts as { name, body (Buffer) }. */
export async function download(page, selector) {
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.click(selector)]);
    const file = await dl.path();
    return { name: dl.suggestedFilename(), body: await readFile(file) };
}

/** Presses Run and waits for this run's results (not the previous run's, still on screen). */
export async function runToEnd(page, timeout = 120_000) {
    await page.evaluate(() => document.querySelector('#results .results')?.setAttribute('data-stale', ''));
    await page.click('#run');
    await page.waitForSelector('#results .results:not([data-stale]) [data-metric=total-mib-s] .value', { timeout });
}
