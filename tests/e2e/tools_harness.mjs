// Pages for the tools end-to-end tests (gallery, job files, exports, plug): each in its own
// context with downloads accepted, recording every console error, page error, failed request
// and HTTP error.
import { readFile } from 'node:fs/promises';

// The static server and the browser are the pipeline tests' (one copy of the launch flags).
export { root, start, screenshotPath } from './harness.mjs';

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
    if (query === '') {
        // The landing is the lesson only: the header's Lab link fetches the whole page, which
        // takes over (src/shell/handover.rs), as a visitor opening the Lab sees it.
        await page.waitForSelector('#play', { timeout: 30_000 });
        await page.click('#lab-link');
    }
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
