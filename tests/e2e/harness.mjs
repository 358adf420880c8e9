// Shared by the pipeline end-to-end test and the browser benchmark: a static server for dist/
// on 127.0.0.1 and Debian's Chromium driven by playwright-core (same flags as app.test.mjs).
import http from 'node:http';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { handler } from '../../scripts/serve-dist.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Where the tests save their screenshots: target/screenshots/ (ignored by git), so `make test`
// leaves the work tree as it found it. `make screenshots` sets MMCSIM_SCREENSHOTS=docs to
// refresh the README's pictures in docs/.
export const screenshotDir = path.resolve(root, process.env.MMCSIM_SCREENSHOTS || 'target/screenshots');

/** The path to save screenshot `name` (e.g. 'gallery.png') at; creates the folder. */
export async function screenshotPath(name) {
    await mkdir(screenshotDir, { recursive: true });
    return path.join(screenshotDir, name);
}
const dist = path.join(root, 'dist');

/**
 * Starts the server (scripts/serve-dist.mjs: the precompressed copies with Content-Encoding, as
 * `make serve-dist` sends them) and the browser; returns { base, browser, close, served }.
 * `served` lists every response: { path, status, bytes } (bytes on the wire).
 */
export async function start() {
    const served = [];
    const server = http.createServer(handler(dist, (req, status, bytes) => {
        served.push({ path: new URL(req.url, 'http://127.0.0.1').pathname, status, bytes });
    }));
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
    const close = async () => {
        await browser.close();
        await new Promise((resolve) => server.close(resolve));
    };
    return { base, browser, close, served };
}

/**
 * A page on `query` that records every console error, page error and failed request; it is
 * ready when `waitFor` is on the page (the Watch's Play by default, the Lab's Run for the Lab;
 * on the landing, the Lab is opened by its link first).
 */
export async function openPage(browser, base, query = '', options = {}, waitFor = '#play') {
    const page = await browser.newPage({ viewport: { width: 1280, height: 960 }, ...options });
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
    await page.goto(base + query);
    if (query === '' && waitFor !== '#play') {
        // The landing is the lesson only: the header's Lab link fetches the whole page, which
        // takes over (src/shell/handover.rs), as a visitor opening the Lab sees it.
        await page.waitForSelector('#play', { timeout: 30_000 });
        await page.click('#lab-link');
    }
    await page.waitForSelector(waitFor, { timeout: 30_000 });
    // What follows the lesson is drawn a task after the page's first render (Msg::ShowRest):
    // the Lab (`main#lab`), or on the landing its button (`#lab`). A test reads the whole page.
    await page.waitForSelector('#lab', { state: 'attached', timeout: 30_000 });
    return { page, problems };
}

/** The watch view's frame-time figures (`#frame-stats`: frames, avg_ms, p50_ms, p95_ms, max_ms). */
export async function frameStats(page) {
    const text = await page.textContent('#frame-stats');
    return Object.fromEntries(text.split(' ').map((kv) => kv.split('=')).map(([k, v]) => [k, Number(v)]));
}

/** Real frame rate while the page animates for `ms`: requestAnimationFrame callbacks per second. */
export async function measureFps(page, ms) {
    return page.evaluate((ms) => new Promise((resolve) => {
        let n = 0;
        const t0 = performance.now();
        const tick = (t) => {
            n++;
            if (t - t0 < ms) requestAnimationFrame(tick);
            else resolve(n * 1000 / (t - t0));
        };
        requestAnimationFrame(tick);
    }), ms);
}

/**
 * The landing as a first visitor gets it (a fresh browser context: nothing cached): the bytes
 * the server sent (compressed, as sent) before the first animated frame (`#frame-stats` counts
 * a frame), and the time from navigation to that frame, ms (performance.now() in the page).
 */
export async function firstFrame(env) {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 960 } });
    const page = await context.newPage();
    const from = env.served.length;
    await page.goto(env.base);
    const ms = await (await page.waitForFunction(
        () => /frames=[1-9]/.test(document.querySelector('#frame-stats')?.textContent ?? '') && performance.now(),
        null, { timeout: 60_000 },
    )).jsonValue();
    const sent = env.served.slice(from);
    await context.close();
    return { ms, bytes: sent.reduce((n, r) => n + r.bytes, 0), files: sent.map((r) => `${r.path} ${r.bytes}`) };
}
